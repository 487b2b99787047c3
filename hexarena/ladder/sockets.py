"""The bridges' endpoint: trio-websocket's server on a port of its own, beside the pages.

Each connection is handed to :meth:`Hub.endpoint` as a :class:`Socket`. trio-websocket bounds
what one connection can make the server hold: a message over `message_bytes` closes the
connection with code 1009 (message too big), at most one received message waits unread
(`message_queue_size`), and a client that does not finish its opening handshake within the
login time is dropped. Sends and the close of one connection are serialised by the library.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, WebSocketRequest, serve_websocket

from . import wire
from .config import Bounds


class Gone(Exception):
    """The connection is closed (by the peer or by the network)."""


class Socket:
    """One accepted WebSocket: text messages in and out, close with a code."""

    def __init__(self, ws: WebSocketConnection):
        self._ws = ws
        remote = ws.remote
        self.peer = f"{getattr(remote, 'address', remote)}:{getattr(remote, 'port', '')}"

    async def receive_text(self) -> str | None:
        """The next message (None for a binary one); Gone once the connection is closed."""
        try:
            message = await self._ws.get_message()
        except ConnectionClosed:
            raise Gone() from None
        return message if isinstance(message, str) else None

    async def send_text(self, text: str) -> None:
        try:
            await self._ws.send_message(text)
        except ConnectionClosed:
            raise Gone() from None

    async def answers_ping(self, within: float) -> bool:
        """Whether the peer answers a WebSocket ping within `within` seconds (a bridge frozen, or
        its connection half-open after a network change, does not)."""
        with trio.move_on_after(within):
            try:
                await self._ws.ping()
            except (ConnectionClosed, trio.BrokenResourceError, trio.ClosedResourceError):
                return False
            return True
        return False

    async def close(self, code: int, reason: str = "") -> None:
        short = reason.encode()[:120].decode(errors="ignore")       # a close frame's reason: at most 123 bytes
        await self._ws.aclose(code, short or None)


async def serve(endpoint, host: str, port: int, bounds: Bounds, log: Callable[[str], None],
                task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve the endpoint at ws://HOST:PORT/ladder/ws (PORT 0: a free one) until cancelled;
    `task_status.started(port)` once it listens. Other paths are refused with 404. Whatever ends
    one connection (a peer gone during its opening handshake, or an error of the server's own in
    serving it) ends that connection alone, said by `log`: never the server."""
    async def handler(request: WebSocketRequest) -> None:
        try:
            if request.path.split("?")[0] != wire.PATH:
                await request.reject(404, body=f"the ladder's bridges connect to {wire.PATH}\n".encode())
                return
            socket = Socket(await request.accept())
        except (ConnectionClosed, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            return                      # gone before the handshake ended: nothing was allocated for it
        try:
            await endpoint(socket)
        except Exception as exc:        # a bug of the server's, or a failure of its disk: this connection only
            log(f"the connection from {socket.peer} ended on an error of the server's: {type(exc).__name__}: {exc}")
            with trio.move_on_after(1):
                try:
                    await socket.close(1011, "internal error")
                except Exception:       # already gone: nothing more to close
                    pass

    async with trio.open_nursery() as nursery:
        server = await nursery.start(partial(serve_websocket, handler, host, port, None,
                                             max_message_size=bounds.message_bytes, message_queue_size=1,
                                             connect_timeout=bounds.login_seconds, disconnect_timeout=5))
        task_status.started(server.port)
