"""A fast path for pipes to an engine: read and write without a trip through the event loop.

Most answers (`play`, `boardsize`, ...) come back within microseconds of
the command. :class:`EagerSend` writes straight to the pipe and
:class:`EagerReceive` reads straight from it, polling for up to `spin`
seconds (busy, with ``sched_yield`` so the engine gets the core) before
falling back to the wrapped trio stream. The spin blocks the event loop,
so every other game waits meanwhile: `spin` is a switch (0 = one
non-blocking try, no polling), and :func:`eager_pair` with ``enabled=False``
returns the streams untouched. Both wrappers are ordinary trio streams:
the channel above them runs the same code either way.
"""
from __future__ import annotations

import os
import time

import trio

__all__ = ["EagerReceive", "EagerSend", "eager_pair", "SPIN"]

SPIN = 200e-6      # default seconds of busy polling for an answer


class EagerSend(trio.abc.SendStream):
    """Writes what the pipe takes at once; the rest through the wrapped stream."""

    def __init__(self, inner: trio.lowlevel.FdStream):
        self.inner, self._fd = inner, inner.fileno()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await trio.lowlevel.checkpoint_if_cancelled()
        try:
            data = bytes(data)[os.write(self._fd, data):]
        except BlockingIOError:
            pass
        except OSError:
            raise trio.BrokenResourceError from None
        if data:
            await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        await self.inner.aclose()


class EagerReceive(trio.abc.ReceiveStream):
    """Reads what is there, polling up to `spin` seconds; else waits in the wrapped stream."""

    def __init__(self, inner: trio.lowlevel.FdStream, spin: float = SPIN):
        self.inner, self._fd, self.spin = inner, inner.fileno(), spin

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await trio.lowlevel.checkpoint_if_cancelled()
        end = time.perf_counter() + self.spin
        while True:
            try:
                return os.read(self._fd, max_bytes or 65536)
            except BlockingIOError:
                if time.perf_counter() >= end:
                    break
                os.sched_yield()
            except OSError:
                break                   # the wrapped stream reports it
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


def eager_pair(send: trio.lowlevel.FdStream, receive: trio.lowlevel.FdStream, enabled: bool = True,
               spin: float = SPIN) -> tuple[trio.abc.SendStream, trio.abc.ReceiveStream]:
    """The two pipe streams, wrapped when `enabled`."""
    if not enabled:
        return send, receive
    return EagerSend(send), EagerReceive(receive, spin)
