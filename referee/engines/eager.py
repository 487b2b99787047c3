"""A fast path for pipes to an engine: read and write without a trip through the event loop.

Most answers (`play`, `boardsize`, ...) come back within microseconds of
the command. :class:`EagerSend` writes straight to the pipe and
:class:`EagerReceive` reads straight from it, polling for up to `spin`
seconds (busy, with ``sched_yield`` so the engine gets the core) before
falling back to the wrapped trio stream. The spin blocks the event loop,
so every other game waits meanwhile: `spin` is a switch (0 = one
non-blocking try, no polling), and :func:`eager_pair` with ``enabled=False``
returns the streams untouched.

Why spin (bench/bench_soak.py, `--spin`, and the figures in docs/bench.md):
an answer awaited in trio (a cancel scope, an epoll registration, a sleep
and a wake-up, a scheduler pass) costs the referee more CPU than a spin
that finds the answer, and ``sched_yield`` hands the core to the engine
while it computes, so on a loaded machine a spin costs little CPU even
when it waits. A spin that finds nothing is waste: the channel stops
spinning for a kind of command whose answers miss it (referee/engines/channel.py).

Both wrappers are ordinary trio streams, and they also offer their fast
path on its own, as plain functions that never await: ``send_now`` and
``receive_now``. The channel (referee/engines/channel.py) calls those first, so a
command answered at once costs no cancel scope and no trip through trio;
it awaits the streams only for what is left.
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

    def send_now(self, data: bytes | bytearray | memoryview) -> bytes:
        """Write what the pipe takes without blocking; the bytes left to send (b"" when all went).
        BrokenResourceError when the pipe is closed or broken."""
        try:
            return bytes(data)[os.write(self._fd, data):]
        except BlockingIOError:
            return bytes(data)
        except OSError:
            raise trio.BrokenResourceError from None

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await trio.lowlevel.checkpoint_if_cancelled()
        data = self.send_now(data)
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
        self._dry = False       # the last receive_now found nothing: receive_some does not poll again

    def receive_now(self, max_bytes: int = 65536, spin: bool = True) -> bytes | None:
        """What the pipe holds, polling up to `spin` seconds (one try when `spin` is False):
        b"" at EOF, None when nothing came or the pipe cannot be read. After None, the next
        ``receive_some`` waits in the wrapped stream at once (which reports any error),
        without polling again."""
        data = self._poll(max_bytes, self.spin if spin else 0.0)
        self._dry = data is None
        return data

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        """What the pipe holds, polled as :meth:`receive_now` does (not again right after a
        :meth:`receive_now` that found nothing), else once the event loop finds the pipe
        readable: one trip through the loop (the wrapped stream adds a checkpoint before its
        first read); an error, or a closed stream, is the wrapped stream's to report."""
        dry, self._dry = self._dry, False
        await trio.lowlevel.checkpoint_if_cancelled()
        if not dry:
            data = self._poll(max_bytes or 65536, self.spin)
            if data is not None:
                return data
        while self.inner.fileno() >= 0:
            await trio.lowlevel.wait_readable(self._fd)
            try:
                return os.read(self._fd, max_bytes or 65536)
            except BlockingIOError:
                continue
            except OSError:
                break
        return await self.inner.receive_some(max_bytes)

    def _poll(self, max_bytes: int, spin: float) -> bytes | None:
        end = time.perf_counter() + spin
        while True:
            try:
                return os.read(self._fd, max_bytes)
            except BlockingIOError:
                if time.perf_counter() >= end:
                    return None
                os.sched_yield()
            except OSError:
                return None             # the wrapped stream reports it

    async def aclose(self) -> None:
        await self.inner.aclose()


def eager_pair(send: trio.lowlevel.FdStream, receive: trio.lowlevel.FdStream, enabled: bool = True,
               spin: float | None = None) -> tuple[trio.abc.SendStream, trio.abc.ReceiveStream]:
    """The two pipe streams, wrapped when `enabled`; `spin` None: the module's SPIN when called."""
    if not enabled:
        return send, receive
    return EagerSend(send), EagerReceive(receive, SPIN if spin is None else spin)
