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

A game alone in its event loop (:func:`playing` counts the games of a loop; a
worker process's slot, ``-j 1``, ``hexarena match``) has no other game to
block: there the channel waits for an answer in the kernel instead
(:meth:`EagerReceive.receive_blocking`: ``poll(2)`` on the pipe, at most
:data:`BLOCK` seconds and never past the command's deadline), which costs a
system call and a wake-up where a spin burns the core and trio's await adds a
cancel scope, an epoll registration and a scheduler pass. What is left after
BLOCK is awaited in trio as above, so the loop's other tasks (the live view,
the worker's messages, a web server, Ctrl-C) wait at most BLOCK seconds per
command, and the channel yields to them at least every :data:`YIELD_EVERY`
seconds of answers that came without an await.
"""
from __future__ import annotations

import os
import select
import time
from collections.abc import Iterator
from contextlib import contextmanager

import trio

__all__ = ["BLOCK", "EagerReceive", "EagerSend", "YIELD_EVERY", "alone", "eager_pair", "none_playing", "playing", "SPIN"]

SPIN = 200e-6      # default seconds of busy polling for an answer
BLOCK = 0.005      # seconds a game alone in its loop waits for an answer in poll(2) before awaiting it in trio
YIELD_EVERY = 0.01     # seconds of answers taken without an await after which a channel yields to the loop

_PLAYING: trio.lowlevel.RunVar[int] = trio.lowlevel.RunVar("hexarena_games_playing", default=0)


@contextmanager
def playing() -> Iterator[None]:
    """One game of this trio loop, counted while the block runs (see :func:`alone`)."""
    _PLAYING.set(_PLAYING.get() + 1)
    try:
        yield
    finally:
        _PLAYING.set(_PLAYING.get() - 1)


def alone() -> bool:
    """Whether exactly one game of this trio loop is playing (:func:`playing`): it may block the loop
    while it waits for an answer (:meth:`EagerReceive.receive_blocking`)."""
    return _PLAYING.get() == 1


def none_playing() -> bool:
    """Whether no game of this trio loop is playing: a game that has just ended may write its
    files in the loop's own thread, blocking no other game."""
    return _PLAYING.get() == 0


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
        self._poller: select.poll | None = None     # for receive_blocking, made at its first wait

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
        first read); an error, or a closed stream, is the wrapped stream's to report. Always a
        checkpoint, as a trio stream's read is: one that polls yields to the loop first, so
        an engine that keeps writing cannot hold it (its deadline fires, other tasks run)."""
        dry, self._dry = self._dry, False
        if not dry:
            await trio.lowlevel.checkpoint()
            data = self._poll(max_bytes or 65536, self.spin)
            if data is not None:
                return data
        else:
            await trio.lowlevel.checkpoint_if_cancelled()   # the wait below is the checkpoint
        while self.inner.fileno() >= 0:
            await trio.lowlevel.wait_readable(self._fd)
            try:
                return os.read(self._fd, max_bytes or 65536)
            except BlockingIOError:
                continue
            except OSError:
                break
        return await self.inner.receive_some(max_bytes)

    def receive_blocking(self, max_bytes: int, timeout: float) -> bytes | None:
        """What the pipe holds, waiting for it in ``poll(2)`` up to `timeout` seconds (whole
        milliseconds, rounded down: none below one), blocking this thread and so its event loop:
        b"" at EOF, None when nothing came in time or the pipe cannot be read (as
        :meth:`receive_now`, the next ``receive_some`` then waits in the wrapped stream)."""
        if self._poller is None:
            self._poller = select.poll()
            self._poller.register(self._fd, select.POLLIN)
        self._dry = True
        try:
            if not self._poller.poll(max(0, int(timeout * 1000))):
                return None
            data = os.read(self._fd, max_bytes)
        except OSError:                 # BlockingIOError too; the wrapped stream reports the others
            return None
        self._dry = False
        return data

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
