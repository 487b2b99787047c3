"""A TCP relay for the ladder's tests: `python ladder_proxy.py UPSTREAM_PORT` listens on a free
port of 127.0.0.1 (printed on its first line) and relays every connection to UPSTREAM_PORT;
SIGUSR1 cuts every connection open at that moment (a network loss), new ones are relayed again."""
from __future__ import annotations

import signal
import sys

import trio


async def main(upstream: int) -> None:
    cuts: list[trio.CancelScope] = []

    async def pump(src: trio.SocketStream, dst: trio.SocketStream) -> None:
        while data := await src.receive_some(65536):
            await dst.send_all(data)

    async def relay(client: trio.SocketStream) -> None:
        with trio.CancelScope() as scope:
            cuts.append(scope)
            try:
                server = await trio.open_tcp_stream("127.0.0.1", upstream)
                async with client, server, trio.open_nursery() as nursery:
                    nursery.start_soon(pump, client, server)
                    nursery.start_soon(pump, server, client)
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError, BaseExceptionGroup):
                pass
        cuts.remove(scope)

    async def on_signal() -> None:
        with trio.open_signal_receiver(signal.SIGUSR1) as signals:
            async for _ in signals:
                for scope in list(cuts):
                    scope.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(on_signal)
        listeners = await nursery.start(trio.serve_tcp, relay, 0)
        print(listeners[0].socket.getsockname()[1], flush=True)


if __name__ == "__main__":
    trio.run(main, int(sys.argv[1]))
