"""The game record and the journal: one JSON object per line, append-only.

Standard library only. The referee appends one :class:`GameRecord` per
finished (or void) game; resume, ratings and reports read them back.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import MISSING, asdict, dataclass, fields
from pathlib import Path

from hexarena.results.vocabulary import VOID_RESULT

SCHEMA = 1
JOURNAL_NAME = "journal.jsonl"


class JournalError(ValueError):
    """A journal line that cannot be read; says which file and line."""

    def __init__(self, path: str | os.PathLike, line: int, reason: str):
        super().__init__(f"{path}:{line}: {reason}")
        self.path, self.line, self.reason = str(path), line, reason


@dataclass(frozen=True)
class GameRecord:
    """One played game. Player fields are engine names as given in the schedule.

    `first` made the first action of the game (seat 1), `second` is seat 2;
    `black`/`white` hold the colours at the end (after any swap). `winner`
    is a player name, or None for a draw or a void game. `result` is the SGF
    RE value (`B+`, `W+R`, `B+T`, `B+F`, `B+2.5`, `0`, `Void`).
    """

    id: str
    game: str
    size: int
    variant: str
    first: str
    second: str
    black: str
    white: str
    winner: str | None
    result: str
    termination: str
    plies: int
    reason: str = ""
    faulty: str | None = None      # the player at fault for a forfeit, or the one that failed to start
    sgf: str | None = None         # path of the SGF record, relative to the journal's folder
    started: str = ""              # ISO 8601 UTC
    seconds: float = 0.0
    schema: int = SCHEMA
    actions: list[str] | None = None   # canonical tokens, first action first (None: not recorded)
    opening: int = 0                   # the first `opening` actions were the schedule's opening
    think: list[float | None] | None = None   # seconds each action took the engine (None: an opening action)
    processes: list[int | None] | None = None  # start numbers of seat 1's and seat 2's engine processes

    @property
    def void(self) -> bool:
        return self.result == VOID_RESULT

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.second if self.winner == self.first else self.first

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=False)

    @classmethod
    def from_dict(cls, data: dict) -> GameRecord:
        """Build from a decoded JSON object; ValueError naming the first bad field."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        known = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}")
        required = [n for n, f in known.items() if f.default is MISSING]
        missing = [n for n in required if n not in data]
        if missing:
            raise ValueError(f"missing field(s) {', '.join(missing)}")
        for name in ("id", "game", "variant", "first", "second", "black", "white", "result", "termination"):
            if not isinstance(data[name], str):
                raise ValueError(f"field {name!r} must be a string")
        for name in ("size", "plies"):
            if not isinstance(data[name], int) or isinstance(data[name], bool):
                raise ValueError(f"field {name!r} must be an integer")
        if data["winner"] is not None and data["winner"] not in (data["first"], data["second"]):
            raise ValueError(f"winner {data['winner']!r} is neither player")
        return cls(**data)


def journal_path(path: str | os.PathLike) -> Path:
    """A journal file, or the journal inside a tournament folder."""
    p = Path(path)
    return p / JOURNAL_NAME if p.is_dir() else p


def read_journal(path: str | os.PathLike, errors: list[JournalError] | None = None) -> list[GameRecord]:
    """Every record of a journal, in file order.

    A malformed line raises JournalError, unless `errors` is a list: then it is
    appended there and skipped. A torn last line (no newline: the writer was
    killed mid-write) is always reported through `errors` or raised likewise.
    """
    p = journal_path(path)
    return list(_iter_records(p, errors))


def _iter_records(p: Path, errors: list[JournalError] | None) -> Iterator[GameRecord]:
    with open(p, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield GameRecord.from_dict(json.loads(line))
            except (ValueError, TypeError, RecursionError) as exc:     # RecursionError: nesting too deep
                torn = "" if line.endswith("\n") else " (torn last line)"
                err = JournalError(p, no, f"{exc}{torn}")
                if errors is None:
                    raise err from None
                errors.append(err)


TORN_SUFFIX = ".torn"


def cut_torn_tail(path: str | os.PathLike) -> str | None:
    """Cut a torn last line (no newline: the writer was killed mid-write) off the journal.

    The fragment is appended, with a note, to the side file ``JOURNAL.torn``;
    the game it was recording is not in the journal, so a resume replays it.
    Returns a sentence saying what was done, or None when the file was whole.
    """
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            if size == 0:
                return None
            fh.seek(max(0, size - 1))
            if fh.read(1) == b"\n":
                return None
            fh.seek(0)
            data = fh.read()
    except FileNotFoundError:
        return None
    keep = data.rfind(b"\n") + 1
    fragment = data[keep:]
    side = p.with_name(p.name + TORN_SUFFIX)
    with open(side, "ab") as fh:
        note = f"# torn last line cut from {p.name} (byte {keep}, {len(fragment)} bytes); its game is replayed\n"
        fh.write(note.encode() + fragment + b"\n")
        fh.flush()
        os.fsync(fh.fileno())
    with open(p, "r+b") as fh:
        fh.truncate(keep)
        fh.flush()
        os.fsync(fh.fileno())
    return f"{p}: cut a torn last line of {len(fragment)} bytes (kept in {side})"


class JournalWriter:
    """Appends records, one line each, flushed and fsynced before `append` returns.

    The caller owns the writer and must close it; only one writer may hold a
    journal at a time.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        cut_torn_tail(self.path)           # the next record starts on a line of its own
        self._fh = open(self.path, "a", encoding="utf-8")

    def append(self, record: GameRecord) -> None:
        self._fh.write(record.to_json() + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
