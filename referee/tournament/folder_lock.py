"""One runner per output folder: an advisory lock on ``DIR/.lock`` holding the runner's pid.

:func:`hold_folder` takes ``flock(LOCK_EX | LOCK_NB)`` on the lock file for
the duration of the block and writes its pid there; a second runner (another
process) gets :class:`FolderBusy` naming the first one's pid. The lock is
released by the kernel whenever the holder ends, ``kill -9`` included, so a
stale lock file never blocks anyone. Re-entrant within one process (the
pre-flight and the run share it). :func:`holder` tells whether some process
holds a folder (`hexarena serve`: are its games in flight still played?).
"""
from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["LOCK_NAME", "FolderBusy", "hold_folder", "holder"]

LOCK_NAME = ".lock"
TRIES = 3                          # tries to take a lock, 10 ms apart
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
        for attempt in range(TRIES):        # a moment's shared lock of holder() is no holder
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if attempt == TRIES - 1:
                    holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
                    raise FolderBusy(out, holder) from None
                time.sleep(0.01)
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


def holder(out: Path) -> str | None:
    """The pid of the process that holds the folder, as its lock file says ("?" when it says
    none), or None when no process holds it (never held, released, or its holder ended, kill -9
    included). Asks the kernel with a shared lock taken and dropped at once (never blocks)."""
    if out.resolve() in _held:
        return str(os.getpid())
    try:
        fd = os.open(out / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
