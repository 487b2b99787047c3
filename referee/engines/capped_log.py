"""An engine's stderr into a log file of bounded size: the first part and the last part.

:func:`drain_to_log` reads the pipe until EOF (or until cancelled) and
writes the first ``cap // 2`` bytes to the file as they come; after that it
keeps only the most recent ``cap // 2`` bytes in memory, and at the end
writes a line saying how many bytes were dropped, then that tail. A flood
costs one read and a slice per MiB: the engine is never slowed by a
full pipe, and the log never grows past the cap plus one line. The file is
made at its first byte: an engine that writes nothing to stderr, and that the
referee notes nothing about, leaves none.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import trio

from .log_cap import DEFAULT_LOG_CAP

__all__ = ["DEFAULT_LOG_CAP", "CappedLog", "drain_to_log"]

CHUNK = 1 << 20
F_SETPIPE_SZ = 1031         # Linux: a larger pipe means fewer wake-ups under a flood


class _CappedFile:
    """One log file under the cap, made at its first byte: an engine that writes nothing to
    stderr (and that the referee notes nothing about) leaves no file."""

    def __init__(self, path: str | os.PathLike, cap: int):
        self.path = Path(path)
        self._fh: io.RawIOBase | None = None
        self._head_left = cap - cap // 2
        self._tail_cap = cap // 2
        self._tail = bytearray()
        self.dropped = 0
        self._closed = False
        self.failed: OSError | None = None

    def _put(self, data: bytes | bytearray) -> None:
        """Write to the file (made at its first byte). A write the disk refuses (full, gone)
        ends the file's writes: the pipe is still drained, its bytes dropped, so the engine
        never blocks on a full stderr; `failed` keeps why."""
        if self.failed is not None:
            return
        try:
            if self._fh is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fh = open(self.path, "ab", buffering=0)
            self._fh.write(data)
        except OSError as exc:
            self.failed = exc

    def write(self, data: bytes | bytearray) -> None:
        if self._closed:
            raise ValueError("write to a closed log")
        if self._head_left > 0:
            head = data[: self._head_left]
            if head:
                self._put(head)
            self._head_left -= len(head)
            data = data[len(head):]
        if data:
            self._tail += data
            excess = len(self._tail) - self._tail_cap
            if excess > self._tail_cap:         # trim in large steps (amortised O(1) per byte)
                self.dropped += excess
                del self._tail[:excess]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        excess = len(self._tail) - self._tail_cap
        if excess > 0:
            self.dropped += excess
            del self._tail[:excess]
        if self.dropped:
            self._put(f"\n[hexarena: {self.dropped} bytes of this log dropped here "
                      f"(log cap {self._tail_cap * 2} bytes: first and last part kept)]\n".encode())
        if self._tail:
            self._put(bytes(self._tail))
            self._tail.clear()
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None


def widen_pipe(fd: int) -> None:
    """Ask for a 1 MiB pipe buffer (Linux; ignored where refused)."""
    try:
        import fcntl
        fcntl.fcntl(fd, F_SETPIPE_SZ, CHUNK)
    except (OSError, ImportError):
        pass


class CappedLog:
    """The log an engine's stderr is drained into; :meth:`switch` closes the current file
    (complete, with its own cap) and continues in another (a kept engine's next game)."""

    def __init__(self, path: str | os.PathLike, cap: int = DEFAULT_LOG_CAP):
        self.cap = cap
        self._file = _CappedFile(path, cap)

    def write(self, data: bytes | bytearray) -> None:
        self._file.write(data)

    @property
    def failed(self) -> OSError | None:
        """Why the current file takes no more bytes (the disk refused one), or None."""
        return self._file.failed

    def note(self, text: str) -> None:
        """A line of the referee's own in the log, `[hexarena: text]` (nothing once the log is closed)."""
        try:
            self._file.write(f"\n[hexarena: {text}]\n".encode("utf-8", "replace"))
        except ValueError:          # the engine closed its stderr and the log was closed
            pass

    def switch(self, path: str | os.PathLike) -> None:
        self._file.close()
        self._file = _CappedFile(path, self.cap)

    def close(self) -> None:
        self._file.close()


async def drain_to_log(stream: trio.abc.ReceiveStream, log: str | os.PathLike | CappedLog,
                       cap: int = DEFAULT_LOG_CAP) -> None:
    """Copy `stream` to `log` (a path, or a :class:`CappedLog` to switch files on the way)
    under the cap until EOF or cancellation; the file is complete either way."""
    if not isinstance(log, CappedLog):
        log = CappedLog(log, cap)
    try:
        while True:
            try:
                data = await stream.receive_some(CHUNK)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                break
            if not data:
                break
            log.write(data)
    finally:
        log.close()
        with trio.CancelScope(shield=True):
            await stream.aclose()
