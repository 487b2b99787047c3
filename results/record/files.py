"""Files named by the user or found in a folder (configs, openings, SGF records, a tournament's
saved config and journal, live files), opened only when they are regular files, read with a bound.

A path given on the command line or in a config, or a file of a tournament folder, can name
anything: /dev/zero, a FIFO nobody writes to, a log of gigabytes. :func:`open_regular` opens
only a regular file: the path is checked with os.stat before it is opened (a FIFO is never
opened, a device never read), and the opened file again with fstat (a file swapped in between
is refused too). :func:`read_text` and :func:`read_bytes` read at most `limit` bytes of one.
Anything else is a :class:`FileLimitError` (an OSError, so callers that already report
unreadable files report these the same way), ``PATH: is not a regular file (a FIFO)`` or
``PATH: is larger than 8 MiB``, before any byte is read.
"""
from __future__ import annotations

import os
import stat
from typing import BinaryIO

__all__ = ["CLOEXEC", "MAX_SAVED_BYTES", "NOFOLLOW", "FileLimitError", "check_regular", "open_regular", "read_bytes",
           "read_text", "write_all"]

#: Flags of every file a folder's writer opens by a fixed name: a symbolic link planted in a
#: folder (one made by someone else, say) is not followed (ELOOP), so no write lands outside it.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)

#: A tournament folder's saved config (tournament.json) and its history (history.json): they carry
#: the openings of a config's `openings` file (at most 64 MiB, referee/game/openings.py), as lists.
MAX_SAVED_BYTES = 64 << 20

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class FileLimitError(OSError):
    """The path names no regular file, or a file larger than the reader's bound; `filename` is
    the path, `reason` what is wrong with it (str: ``PATH: REASON``)."""

    def __init__(self, path: str | os.PathLike, reason: str):
        super().__init__(f"{os.fspath(path)}: {reason}")
        self.filename, self.reason = os.fspath(path), reason

    def __str__(self) -> str:
        return f"{self.filename}: {self.reason}"


def kind(mode: int) -> str:
    """What a stat mode names, in words ("a FIFO"); "a regular file" for one."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((word for test, word in _KINDS if test(mode)), "not a file")


def check_regular(path: str | os.PathLike) -> None:
    """FileLimitError when `path` names no regular file (it is not opened), other OSErrors as
    os.stat gives them (FileNotFoundError)."""
    _check(path, os.stat(path).st_mode)


def open_regular(path: str | os.PathLike) -> BinaryIO:
    """`path` opened for reading in binary; FileLimitError when it is no regular file (checked
    before it is opened, and again once open), other OSErrors as open() gives them."""
    check_regular(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | CLOEXEC)
    try:
        _check(path, os.fstat(fd).st_mode)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | os.PathLike, limit: int) -> bytes:
    """The bytes of `path`; FileLimitError when it is not a regular file or holds more than
    `limit` bytes (at most `limit` + 1 bytes are read), other OSErrors as open() gives them."""
    with open_regular(path) as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise FileLimitError(path, f"is larger than {_size(limit)}")
    return data


def read_text(path: str | os.PathLike, limit: int) -> str:
    """The UTF-8 text of :func:`read_bytes` (UnicodeDecodeError when it is not UTF-8)."""
    return read_bytes(path, limit).decode("utf-8")


def write_all(fd: int, data: bytes | memoryview) -> None:
    """All of `data` to `fd` (a write may take part of it); OSError as os.write gives it."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _check(path: str | os.PathLike, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise FileLimitError(path, f"is not a regular file ({kind(mode)})")


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n % (1 << 20) else f"{n} bytes"
