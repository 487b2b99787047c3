"""Games to rate, as one pandas DataFrame: from a tournament journal or a CSV file.

The frame has one row per rated game (void games are dropped) and the columns
of :data:`FRAME_COLUMNS`:

* ``id``          the game id (``<file>:<line>`` for CSV input)
* ``game``, ``size``  the pool of the game
* ``first``, ``second``  the player who made the first action, and the other
* ``winner``      a player name, or None for a draw
* ``score``       the first player's score: 1, 0.5 or 0
* ``termination`` the journal's termination (``""`` for CSV input)
* ``forfeit``     ``time``, ``illegal`` (illegal or malformed), ``crash`` or ``""``
* ``faulty``      the player who forfeited, or ``""``

Bad input raises :class:`LoadError` listing every bad line as ``file:line:
reason``; with ``skip_bad=True`` those lines are skipped and returned as
warnings instead. Missing files raise the usual ``OSError``.
"""
from __future__ import annotations

import csv
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from results.records import GameRecord, JournalError, journal_path, read_journal

CSV_COLUMNS = ("game", "size", "first", "second", "winner")
FRAME_COLUMNS = ("id", "game", "size", "first", "second", "winner", "score",
                 "termination", "forfeit", "faulty")
FORFEIT_KIND = {"time": "time", "illegal": "illegal", "malformed": "illegal", "crash": "crash"}
FORFEIT_KINDS = ("time", "illegal", "crash")


@dataclass(frozen=True)
class BadLine:
    """One line that cannot be rated, and why."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"


class LoadError(ValueError):
    """Input with bad lines; `problems` lists all of them."""

    SHOWN = 20

    def __init__(self, problems: list[BadLine]):
        shown = "\n".join(str(p) for p in problems[: self.SHOWN])
        more = len(problems) - self.SHOWN
        tail = f"\n... and {more} more" if more > 0 else ""
        super().__init__(f"{len(problems)} bad line(s) (use --skip-bad to skip them):\n{shown}{tail}")
        self.problems = problems


@dataclass(frozen=True)
class Games:
    """The rated games and the warnings about skipped lines (empty unless skip_bad)."""

    frame: pd.DataFrame
    warnings: tuple[str, ...] = ()


def load_games(path: str | os.PathLike, *, skip_bad: bool = False) -> Games:
    """Games from a tournament folder, a journal file or a CSV file.

    A folder means its journal; a file ending in .csv is CSV, .jsonl/.json a
    journal, anything else is sniffed (a journal line starts with ``{``).
    """
    p = Path(path)
    if p.is_dir() or p.suffix in (".jsonl", ".json") or (p.suffix != ".csv" and _looks_like_json(p)):
        frame, problems = _load_journal(p)
    else:
        frame, problems = _load_csv(p)
    if problems and not skip_bad:
        raise LoadError(problems)
    return Games(frame, tuple(f"skipped {p}" for p in problems))


def games_frame(records: Iterable[GameRecord], source: str = "") -> pd.DataFrame:
    """The frame of the non-void records, in their order."""
    rows = []
    for r in records:
        if r.void:
            continue
        kind = FORFEIT_KIND.get(r.termination, "")
        faulty = (r.faulty or r.loser or "") if kind else ""
        score = 0.5 if r.winner is None else (1.0 if r.winner == r.first else 0.0)
        rows.append((r.id, r.game, r.size, r.first, r.second, r.winner, score, r.termination, kind, faulty))
    return frame_from_rows(rows)


def frame_from_rows(rows: list[tuple]) -> pd.DataFrame:
    """The frame of rows given as tuples in the order of FRAME_COLUMNS."""
    frame = pd.DataFrame(rows, columns=list(FRAME_COLUMNS))
    frame["winner"] = pd.Series([r[5] for r in rows], dtype=object)    # None for a draw, not NaN
    return frame.astype({"size": "int64", "score": "float64"})


def _looks_like_json(p: Path) -> bool:
    with open(p, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.strip():
                return line.lstrip().startswith("{")
    return False


def _load_journal(p: Path) -> tuple[pd.DataFrame, list[BadLine]]:
    errors: list[JournalError] = []
    records = read_journal(p, errors)
    problems = [BadLine(e.path, e.line, e.reason) for e in errors]
    seen: dict[str, int] = {}
    kept = []
    for r in records:
        if r.void:
            continue
        seen[r.id] = seen.get(r.id, 0) + 1
        if seen[r.id] == 1:
            kept.append(r)
    for gid, n in seen.items():
        if n > 1:   # records carry no line numbers; the id is what the user can grep for
            problems.append(BadLine(str(journal_path(p)), 0, f"game id {gid!r} has {n} non-void records (kept the first)"))
    return games_frame(kept, str(p)), problems


def _load_csv(p: Path) -> tuple[pd.DataFrame, list[BadLine]]:
    """CSV games: a vectorised pass for clean files, a line-by-line pass to report bad ones."""
    try:
        frame = _fast_csv(p)
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        frame = None
    if frame is not None:
        return frame, []
    return _careful_csv(p)


def _fast_csv(p: Path) -> pd.DataFrame | None:
    """The frame, or None when any line needs the careful pass (it then says which)."""
    raw = pd.read_csv(p, dtype=str, keep_default_na=False, na_filter=False, skipinitialspace=True,
                      engine="c", encoding="utf-8")
    if any(c not in raw.columns for c in CSV_COLUMNS) or raw.isna().to_numpy().any():
        return None
    game, first, second, winner = (raw[c].to_numpy(dtype=object) for c in ("game", "first", "second", "winner"))
    size_codes, size_values = pd.factorize(raw["size"])
    sizes = [_parse_size(v) for v in size_values]
    if any(isinstance(s, str) for s in sizes):
        return None
    bad = (game == "") | (first == "") | (second == "") | (first == second)
    first_won, second_won = winner == first, winner == second
    bad |= ~(first_won | second_won | (winner == ""))
    if len(raw) and (bad.any() or (size_codes < 0).any()):
        return None
    data = p.read_bytes()
    if data.count(b"\n") + (not data.endswith(b"\n")) != len(raw) + 1:
        return None                     # blank lines or quoted newlines: let the careful pass number lines
    if b'"' in data or data.count(b",") != (len(raw) + 1) * (len(raw.columns) - 1):
        return None                     # short rows read as empty fields: the careful pass counts them
    lines = np.arange(2, len(raw) + 2).astype(str)
    frame = pd.DataFrame({
        "id": np.char.add(f"{p.name}:", lines).astype(object),
        "game": game,
        "size": np.asarray(sizes, dtype="int64")[size_codes],
        "first": first,
        "second": second,
        "winner": pd.Series(np.where(winner == "", None, winner), dtype=object),
        "score": np.where(first_won, 1.0, np.where(second_won, 0.0, 0.5)),
        "termination": "",
        "forfeit": "",
        "faulty": "",
    })
    return frame


def _parse_size(text: str) -> int | str:
    """The size, or the reason it is not one."""
    try:
        value = int(text)
    except ValueError:
        return f"size {text!r} is not an integer"
    return value if value > 0 else f"size {value} is not positive"


def _careful_csv(p: Path) -> tuple[pd.DataFrame, list[BadLine]]:
    problems: list[BadLine] = []
    rows: list[tuple] = []
    with open(p, encoding="utf-8", errors="strict", newline="") as fh:
        try:
            reader = csv.reader(fh, skipinitialspace=True)
            header = next((h for h in reader if h), None)
            if header is None:
                return frame_from_rows([]), [BadLine(str(p), 1, "empty file: expected a header " + ",".join(CSV_COLUMNS))]
            header = [h.strip() for h in header]
            missing = [c for c in CSV_COLUMNS if c not in header]
            if missing:
                return frame_from_rows([]), [BadLine(str(p), reader.line_num, f"header lacks column(s) {', '.join(missing)}")]
            at = [header.index(c) for c in CSV_COLUMNS]
            for fields in reader:
                if not fields:
                    continue
                line = reader.line_num
                if len(fields) != len(header):
                    problems.append(BadLine(str(p), line, f"expected {len(header)} fields, found {len(fields)}"))
                    continue
                row = _csv_row([fields[i] for i in at], f"{p.name}:{line}")
                if isinstance(row, str):
                    problems.append(BadLine(str(p), line, row))
                else:
                    rows.append(row)
        except (csv.Error, UnicodeDecodeError) as exc:
            problems.append(BadLine(str(p), reader.line_num + 1, f"unreadable: {exc}"))
    return frame_from_rows(rows), problems


def _csv_row(fields: list[str], gid: str) -> tuple | str:
    """The frame row of one CSV line, or the reason it is bad."""
    game, size_text, first, second, winner = fields
    if not game:
        return "empty game"
    size = _parse_size(size_text)
    if isinstance(size, str):
        return size
    if not first or not second:
        return "empty player name"
    if first == second:
        return f"{first!r} plays itself"
    if winner not in ("", first, second):
        return f"winner {winner!r} is neither {first!r} nor {second!r}"
    score = 0.5 if not winner else (1.0 if winner == first else 0.0)
    return (gid, game, size, first, second, winner or None, score, "", "", "")
