"""DIR/live/: what a viewer needs of each game in flight, one JSON line per action
(docs/tournament.md, "Live files"). Derived data beside the journal, never read by the referee.

The process that plays a game writes ``live/<game id>.jsonl`` (:class:`LiveFile`): a first line
naming the game, then one line per action an engine chose. The journal's writer removes the
file once the game's record is journaled (:func:`remove`); a run removes the whole folder at
its start and its end (:func:`clear`: the files of games a killed run left). The lines are
written and flushed, never fsynced: a crash may cut the last one, and readers skip a line
that is not whole. A failure to write stops the file, never the game.
"""
from __future__ import annotations

import json
import math
import shutil
import time
from pathlib import Path
from json.encoder import encode_basestring_ascii as _string     # a str as json.dumps writes it
from typing import IO, Any

from hexarena.results.record.moves import Move

from ..game.clock import Limits
from .schedule import ScheduledGame

LIVE_DIR = "live"
FORMAT = 1


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

    def __init__(self, out: Path, header: dict[str, Any]):
        self.out, self.header = out, header
        self.path = live_path(out, header["id"])
        self.file: IO[str] | None = None

    def __enter__(self) -> LiveFile:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(self.path, "w", encoding="utf-8")
            self._write({"live": FORMAT, **self.header, "at": round(time.time(), 3)})
        except OSError:
            self.file = None
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
            text += ',"i":' + json.dumps(move.analysis, separators=(",", ":"))
        self._put(text + "}\n")

    def _write(self, line: dict[str, Any]) -> None:
        self._put(json.dumps(line, separators=(",", ":")) + "\n")

    def _put(self, text: str) -> None:
        assert self.file is not None
        try:
            self.file.write(text)
            self.file.flush()
        except (OSError, ValueError):
            self.close()

    def close(self) -> None:
        if self.file is not None:
            try:
                self.file.close()
            except OSError:
                pass
            self.file = None

    def __exit__(self, kind, exc, tb) -> None:
        self.close()
        if exc is not None:                 # cancelled or failed: no record will be journaled
            remove(self.out, self.header["id"])


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
    """Remove out/live/ and everything in it (at a run's start and end, under the folder's lock)."""
    shutil.rmtree(out / LIVE_DIR, ignore_errors=True)
