"""Messages between the runner and its worker processes: pickled values in length-prefixed frames,
the first of them a :class:`WorkerSetup`.

A frame is a 4-byte big-endian length, then that many bytes of pickle. Both
ends are processes of the same hexarena installation started by the same
runner (:mod:`.workers` starts them, :mod:`.worker` serves in them), so a
pickle is the cheapest faithful way to move a config, a scheduled game and
a record; nothing is kept in a pickle beyond the life of the pipe, and the
pipes belong to the runner and its children alone.
"""
from __future__ import annotations

import pickle
import struct
from dataclasses import dataclass
from pathlib import Path

import trio

from .config import TournamentConfig
from .pool import Launcher

__all__ = ["FrameError", "Frames", "WorkerSetup", "frame"]

_HEADER = struct.Struct(">I")
_CHUNK = 1 << 16


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker process needs to play its games: the run's config and folder, how engines
    start (a picklable launcher), the run's slot numbers it holds, and whether the referee's
    seconds per action are wanted (the `overhead` hook of :func:`.run.run`)."""

    config: TournamentConfig
    out: Path
    launcher: Launcher
    slots: tuple[int, ...]
    overhead: bool = False
    affinity: tuple[tuple[int, ...], ...] | None = None   # each run slot's CPUs (pinned cores), or none


class FrameError(Exception):
    """The other end sent bytes that are not a whole frame (it died mid-write, or is not a worker)."""


def frame(message: object) -> bytes:
    """One message as the bytes of its frame."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


class Frames:
    """The messages arriving on one stream, in order; :meth:`next` is None at end of stream."""

    def __init__(self, stream: trio.abc.ReceiveStream):
        self._stream = stream
        self._buffer = bytearray()
        self._ready: list[object] = []

    async def next(self) -> object | None:
        """The next message; None at a clean end of stream; FrameError at an end inside a frame."""
        while not self._ready:
            data = await self._stream.receive_some(_CHUNK)
            if not data:
                if self._buffer:
                    raise FrameError(f"the stream ended inside a frame ({len(self._buffer)} bytes left)")
                return None
            self._buffer += data
            self._split()
        return self._ready.pop(0)

    def _split(self) -> None:
        buffer, start = self._buffer, 0
        while len(buffer) - start >= _HEADER.size:
            (size,) = _HEADER.unpack_from(buffer, start)
            end = start + _HEADER.size + size
            if len(buffer) < end:
                break
            try:
                self._ready.append(pickle.loads(buffer[start + _HEADER.size:end]))
            except Exception as exc:            # any unpickling error: the bytes are not ours
                raise FrameError(f"an unreadable frame: {type(exc).__name__}: {exc}") from None
            start = end
        del buffer[:start]
