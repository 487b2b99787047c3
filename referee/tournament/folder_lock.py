"""One runner per output folder: an advisory lock on ``DIR/.lock`` holding the runner's pid.

:func:`hold_folder` takes ``flock(LOCK_EX | LOCK_NB)`` on the lock file for
the duration of the block and writes its pid there; a second runner (another
process) gets :class:`FolderBusy` naming the first one's pid. The lock is
released by the kernel whenever the holder ends, ``kill -9`` included, so a
stale lock file never blocks anyone. Re-entrant within one process (the
pre-flight and the run share it).
"""
from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["LOCK_NAME", "FolderBusy", "hold_folder"]

LOCK_NAME = ".lock"
_held: dict[Path, int] = {}        # folder -> depth, in this process


class FolderBusy(Exception):
    """Another process holds this folder (a run, a match, a ladder server); `holder` is its pid as
    its lock file says."""

    def __init__(self, folder: Path, holder: str):
        super().__init__(f"{folder} is in use by another hexarena run (pid {holder}); "
                         "wait for it to end, or choose another --out")
        self.folder, self.holder = folder, holder


@contextmanager
def hold_folder(out: Path) -> Iterator[None]:
    """Hold the folder's lock (creating the folder); FolderBusy if another process holds it."""
    out.mkdir(parents=True, exist_ok=True)
    key = out.resolve()
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise FolderBusy(out, holder) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)
