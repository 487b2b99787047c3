"""Text files named by the user (configs, openings, SGF records), read with a bound.

A path given on the command line or in a config can name anything: /dev/zero,
a FIFO nobody writes to, a log of gigabytes. :func:`read_text` reads only a
regular file of at most `limit` bytes; anything else is a :class:`FileLimitError`
(an OSError, so callers that already report unreadable files report these the
same way) saying what the path is and why it is refused, before any byte is
read. Opening does not block on a FIFO (O_NONBLOCK), and the size checked is
that of the opened file, so a file swapped in between check and read is
still bounded.
"""
from __future__ import annotations

import os
import stat

__all__ = ["FileLimitError", "read_text"]


class FileLimitError(OSError):
    """The path names no regular file, or a file larger than the reader's bound."""


def read_text(path: str | os.PathLike, limit: int, what: str = "file") -> str:
    """The UTF-8 text of `path` (UnicodeDecodeError when it is not UTF-8).

    FileLimitError when `path` is not a regular file or holds more than `limit` bytes; other
    OSErrors as open() gives them (missing, unreadable)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileLimitError(f"{what} {str(path)!r} is not a regular file")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise FileLimitError(f"{what} {str(path)!r} is larger than {_size(limit)}")
    return data.decode("utf-8")


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n % (1 << 20) else f"{n} bytes"

