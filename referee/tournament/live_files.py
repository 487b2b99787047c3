"""DIR/live/: what a viewer needs of each game in flight, one JSON line per action
(docs/tournament.md, "Live files"). Derived data beside the journal, never read by the referee.

The process that plays a game writes ``live/<game id>.jsonl`` (:class:`LiveFile`): a first line
naming the game, then one line per action an engine chose. The journal's writer removes the
file once the game's record is journaled (:func:`remove`); a run removes the whole folder at
its start and its end (:func:`clear`: the files of games a killed run left). The lines are
flushed at most :data:`EVERY` seconds after they are written, by one task of the trio run
for all its open files (a viewer polls; a write a move would cost each move a system call), or
each at once when the file is opened with ``every=0`` (a page that reads the file after each
action) or outside a trio run; never fsynced: a crash may cut the last one, and readers skip a
line that is not whole. A failure to write stops the file, never the game.
"""
from __future__ import annotations

import json
import os
import math
import shutil
import time
from pathlib import Path
from json.encoder import encode_basestring_ascii as _string     # a str as json.dumps writes it
from typing import IO, Any

import trio

from hexarena.results.record.moves import Move

from ..game.clock import Limits
from .schedule import ScheduledGame

LIVE_DIR = "live"
FORMAT = 1
_COMPACT = json.JSONEncoder(separators=(",", ":"))      # json.dumps(x, separators=...), its encoder made once
EVERY = 0.05        # seconds a line may wait for its flush (hexarena serve polls the files every 0.05 s)


def live_path(out: Path, game_id: str) -> Path:
    """``out/live/<game id>.jsonl`` (a game id's ``/`` makes a subfolder per group)."""
    return out / LIVE_DIR / f"{game_id}.jsonl"


def header(game: ScheduledGame, limits: tuple[Limits, Limits]) -> dict[str, Any]:
    """The first line of a game's live file: the game, its seats, its opening, each seat's clock."""
    return {"id": game.id, "game": game.game, "size": game.size, "variant": game.variant, "komi": game.komi,
            "first": game.first, "second": game.second, "pair": game.pair, "opening": list(game.opening),
            "clocks": [clock_of(limits[0]), clock_of(limits[1])]}


def clock_of(limits: Limits) -> dict[str, Any]:
    """A seat's time rules as a viewer shows them: the control, its seconds, its text."""
    return {"control": limits.control, "move": limits.move, "main": limits.main, "increment": limits.increment,
            "period": limits.period, "periods": limits.periods, "stones": limits.stones, "text": limits.text()}


class LiveFile:
    """The live file of one game, open from its first line to the game's end (a context
    manager: the file is closed on exit, and removed when the game did not return a record)."""

    def __init__(self, out: Path, header: dict[str, Any], every: float = EVERY):
        self.out, self.header, self.every = out, header, every
        self.path = live_path(out, header["id"])
        self.file: IO[str] | None = None
        self._unflushed = False

    def __enter__(self) -> LiveFile:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o666)
            self.file = open(fd, "w", encoding="utf-8")
            self._write({"live": FORMAT, **self.header, "at": round(time.time(), 3)})
            self.flush()
        except OSError:
            self.file = None
        if self.every and self.file is not None and not _flushed_by_the_run(self):
            self.every = 0.0
        return self

    def ply(self, plies: int, move: Move) -> None:
        """The `plies`-th action (an :data:`~hexarena.referee.game.match.OnPly` hook)."""
        if self.file is None:
            return
        # the line json.dumps would write, built directly (once per action, on the game's path)
        text = f'{{"ply":{plies:d},"c":"{move.colour}","a":{_string(move.action)},"at":{round(time.time(), 3)!r}'
        if move.think is not None:
            text += f',"t":{_number(move.think)},"l":{_number(move.left)}'
        if move.analysis is not None:
            text += ',"i":' + (_COMPACT.encode(move.analysis) if move.analysis else "[]")
        self._put(text + "}\n")

    def _write(self, line: dict[str, Any]) -> None:
        self._put(_COMPACT.encode(line) + "\n")

    def _put(self, text: str) -> None:
        assert self.file is not None
        try:
            self.file.write(text)
        except (OSError, ValueError):
            self.close()
            return
        self._unflushed = True
        if not self.every:
            self.flush()

    def flush(self) -> None:
        """Flush the lines written since the last flush (nothing when there are none)."""
        if self._unflushed and self.file is not None:
            self._unflushed = False
            try:
                self.file.flush()
            except (OSError, ValueError):
                self.close()

    def close(self) -> None:
        if self.file is not None:
            if self.every:
                _open_files().discard(self)
            try:
                self.file.close()
            except OSError:
                pass
            self.file = None

    def __exit__(self, kind, exc, tb) -> None:
        self.close()
        if exc is not None:                 # cancelled or failed: no record will be journaled
            remove(self.out, self.header["id"])


_FILES: trio.lowlevel.RunVar[set[LiveFile] | None] = trio.lowlevel.RunVar("hexarena_live_files", default=None)


def _open_files() -> set[LiveFile]:
    """The open files this trio run's flusher flushes (none outside a run, or when it has none)."""
    try:
        return _FILES.get() or set()
    except RuntimeError:
        return set()


def _flushed_by_the_run(live: LiveFile) -> bool:
    """Add `live` to the files this trio run's flusher flushes, starting one when none runs;
    False outside a trio run (the file then flushes each line)."""
    try:
        files = _FILES.get()
    except RuntimeError:
        return False
    if files is None:
        files = set()
        _FILES.set(files)
        trio.lowlevel.spawn_system_task(_flush_every, files, live.every, name="hexarena live files")
    files.add(live)
    return True


async def _flush_every(files: set[LiveFile], every: float) -> None:
    """Flush the open files every `every` seconds; ends (and leaves the run without a flusher)
    once none is open."""
    try:
        while files:
            await trio.sleep(every)
            for live in list(files):
                live.flush()
    finally:
        _FILES.set(None)


def _number(x: float | None) -> str:
    """`x` as json.dumps writes it."""
    return "null" if x is None else repr(x) if math.isfinite(x) else json.dumps(x)


def remove(out: Path, game_id: str) -> None:
    """Remove a game's live file (its record is journaled); nothing when there is none."""
    try:
        live_path(out, game_id).unlink(missing_ok=True)
    except OSError:
        pass


def clear(out: Path) -> None:
    """Remove out/live/ and everything in it (at a run's start and end, under the folder's lock);
    a symbolic link in its place is removed, not followed (nothing of a run is written outside
    its folder)."""
    live = out / LIVE_DIR
    if live.is_symlink():
        live.unlink(missing_ok=True)
    shutil.rmtree(live, ignore_errors=True)
