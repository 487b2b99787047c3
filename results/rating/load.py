"""Games to rate, as one pandas DataFrame: from a tournament journal or a CSV file.

The frame has one row per rated game (void games are dropped) and the columns
of :data:`FRAME_COLUMNS`:

* ``game`` (categorical), ``size`` (int): the pool of the game
* ``first``, ``second`` (categorical): the player who made the first action, and the other
* ``winner`` (categorical, same categories): a player name, or missing (NaN) for a draw
* ``score``       the first player's score: 1, 0.5 or 0
* ``termination`` the journal's termination (``""`` for CSV input)
* ``forfeit``     ``time``, ``illegal`` (illegal or malformed), ``crash`` or ``""``
* ``faulty``      the player who forfeited, or ``""``

`first`, `second` and `winner` share one sorted list of categories, every
player of the frame. Bad input raises :class:`LoadError` listing every bad
line as ``file:line: reason``; with ``skip_bad=True`` those lines are skipped
and returned as warnings instead. Missing files raise the usual ``OSError``.
"""
from __future__ import annotations

import csv
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from hexarena.engine.errors import RulesError
from hexarena.engine.numbers import whole
from hexarena.results.record.files import check_regular
from hexarena.results.record.game import GameRecord
from hexarena.results.rating.row import game_row
from hexarena.results.rating.sources import BadLine as BadLine, LoadError as LoadError, is_journal, journal_rows
from hexarena.results.rating.sources import read_sources

CSV_COLUMNS = ("game", "size", "first", "second", "winner")
FRAME_COLUMNS = ("game", "size", "first", "second", "winner", "score", "termination", "forfeit", "faulty")


@dataclass(frozen=True)
class Games:
    """The rated games and the warnings about skipped lines (empty unless skip_bad)."""

    frame: pd.DataFrame
    warnings: tuple[str, ...] = ()


def load_games(path: str | os.PathLike, *, skip_bad: bool = False, identity: bool = False) -> Games:
    """Games from a tournament folder, a journal file or a CSV file.

    A folder means its journal; a file ending in .csv is CSV, .jsonl/.json a
    journal, anything else is sniffed (a journal line starts with ``{``).
    """
    p = Path(path)
    if is_journal(p):
        rows, warnings = journal_rows(p, skip_bad=skip_bad, identity=identity)
        return Games(frame_from_rows(rows), warnings)
    frame, problems = _load_csv(p)
    if problems and not skip_bad:
        raise LoadError(problems)
    return Games(frame, tuple(f"skipped {p}" for p in problems))


def load_many(paths: Iterable[str | os.PathLike], *, skip_bad: bool = False, identity: bool = False) -> Games:
    """Games of several folders, journals and CSV files, as one frame.

    Game ids are qualified by their source: two tournaments' ``GAME-5-pie/0000``
    are two games (duplicate ids are only looked for inside one journal). The
    same file named twice (also as a folder and its journal) is read once, with a
    warning. Bad lines of every source are reported together (LoadError).
    """
    def read(path: str | os.PathLike) -> tuple[pd.DataFrame, tuple[str, ...]]:
        games = load_games(path, skip_bad=skip_bad, identity=identity)
        return games.frame, games.warnings

    frames, warnings = read_sources(paths, read)
    if len(frames) == 1:
        return Games(frames[0], tuple(warnings))
    columns = [np.concatenate([np.asarray(f[c].astype(object)) for f in frames]) if frames else np.array([], dtype=object)
               for c in FRAME_COLUMNS]
    game, size, first, second, winner, _, termination, forfeit, faulty = columns
    winner = np.array([None if isinstance(w, float) else w for w in winner], dtype=object)
    frame = assemble(game, size.astype("int64"), first, second, winner, termination, forfeit, faulty)
    return Games(frame, tuple(warnings))


def games_frame(records: Iterable[GameRecord], identity: bool = False) -> pd.DataFrame:
    """The frame of the non-void records, in their order; `identity`: players named by their
    identity labels (see the module docstring)."""
    return frame_from_rows([game_row(r, identity) for r in records if not r.void])


def frame_from_rows(rows: list[tuple]) -> pd.DataFrame:
    """The frame of (game, size, first, second, winner, termination, forfeit, faulty) tuples.

    Rows are trusted (checked by the caller): winner is None or one of the players.
    """
    columns = list(zip(*rows)) if rows else [()] * 8
    game, size, first, second, winner, termination, forfeit, faulty = (np.array(c, dtype=object) for c in columns)
    return assemble(game, size.astype("int64"), first, second, winner, termination, forfeit, faulty)


def assemble(game, size: np.ndarray, first, second, winner, termination, forfeit, faulty) -> pd.DataFrame:
    """The frame from column arrays (object arrays or categoricals; a missing winner is a draw).

    A winner who is neither player is kept as such; :func:`consistent` finds it.
    """
    (f, s, w), names = _shared_codes(first, second, winner)
    score = np.where(w == f, 1.0, np.where(w < 0, 0.5, 0.0))
    as_player = lambda codes: pd.Categorical.from_codes(codes, categories=pd.Index(names))
    return pd.DataFrame({
        "game": _sorted_categorical(game), "size": np.asarray(size, dtype="int64"),
        "first": as_player(f), "second": as_player(s), "winner": as_player(w), "score": score,
        "termination": _sorted_categorical(termination), "forfeit": _sorted_categorical(forfeit),
        "faulty": _sorted_categorical(faulty),
    }, columns=list(FRAME_COLUMNS))


def consistent(frame: pd.DataFrame) -> bool:
    """True when no game has a player against itself and every winner is one of its players."""
    f, s, w = (frame[c].cat.codes.to_numpy() for c in ("first", "second", "winner"))
    return not ((f == s).any() or ((w >= 0) & (w != f) & (w != s)).any())


def _shared_codes(*columns) -> tuple[list[np.ndarray], list[str]]:
    """Codes of each column into one sorted list of the values (-1 for missing values)."""
    factored = [pd.factorize(np.asarray(c, dtype=object) if not isinstance(c, pd.Categorical) else c,
                             use_na_sentinel=True) for c in columns]
    names = sorted({str(v) for _, uniques in factored for v in uniques if isinstance(v, str)})
    position = {name: k for k, name in enumerate(names)}
    codes = []
    for values, uniques in factored:
        table = np.array([position[str(v)] for v in uniques] + [-1], dtype=np.int64)
        codes.append(table[values])          # -1 (missing) indexes the trailing -1
    return codes, names


def _sorted_categorical(values) -> pd.Categorical:
    if isinstance(values, pd.Categorical):
        return values.reorder_categories(sorted(values.categories)) if len(values.categories) else values
    return pd.Categorical(np.asarray(values, dtype=object))


def _load_csv(p: Path) -> tuple[pd.DataFrame, list[BadLine]]:
    """CSV games: a vectorised pass for clean files, a line-by-line pass to report bad ones.
    FileLimitError when `p` is no regular file (not opened)."""
    check_regular(p)
    try:
        frame = _fast_csv(p)
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        frame = None
    if frame is not None:
        return frame, []
    return _careful_csv(p)


def _fast_csv(p: Path) -> pd.DataFrame | None:
    """The frame, or None when any line needs the careful pass (it then says which)."""
    with open(p, encoding="utf-8-sig", newline="") as fh:
        header = next(csv.reader([fh.readline()], skipinitialspace=True), [])
    if any(c not in header for c in CSV_COLUMNS):
        return None
    data = p.read_bytes()
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    raw = pd.read_csv(p, dtype="category", keep_default_na=False, na_filter=False, skipinitialspace=True,
                      usecols=list(CSV_COLUMNS), engine="c", encoding="utf-8-sig")
    if lines != len(raw) + 1:
        return None                     # blank lines or quoted newlines: the careful pass numbers lines
    if b'"' in data or data.count(b",") != (len(raw) + 1) * (len(header) - 1):
        return None                     # short rows read as empty fields: the careful pass counts them
    game, size, first, second, winner = (raw[c].array for c in CSV_COLUMNS)
    sizes = [_parse_size(v) for v in size.categories]
    if any(isinstance(v, str) for v in sizes) or any("" in c.categories for c in (game, first, second)):
        return None
    size_values = np.asarray(sizes + [0], dtype="int64")[size.codes]
    if "" in winner.categories:
        winner = winner.set_categories([c for c in winner.categories if c != ""])
    blank = pd.Categorical.from_codes(np.zeros(len(raw), dtype=np.int8), categories=pd.Index([""]))
    frame = assemble(game, size_values, first, second, winner, blank, blank, blank)
    return frame if consistent(frame) else None


def _parse_size(field: object) -> int | str:
    """The size, or the reason it is not one (at most 18 digits: it is stored as int64).
    `field` is a field's text, or a number where the fast pass's categories were read as numbers."""
    try:
        value = whole(str(field).strip(), "size", digits=18)
    except RulesError as exc:
        return str(exc)
    return value if value > 0 else f"size {value} is not positive"


def _careful_csv(p: Path) -> tuple[pd.DataFrame, list[BadLine]]:
    problems: list[BadLine] = []
    rows: list[tuple] = []
    with open(p, encoding="utf-8-sig", errors="strict", newline="") as fh:
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
                row = _csv_row([fields[i] for i in at])
                if isinstance(row, str):
                    problems.append(BadLine(str(p), line, row))
                else:
                    rows.append(row)
        except csv.Error as exc:
            problems.append(BadLine(str(p), reader.line_num + 1, f"unreadable: {exc}"))
        except UnicodeDecodeError:              # decoded a chunk ahead of the lines read: find the byte's line
            problems.append(_not_utf8(p))
    return frame_from_rows(rows), problems


def _not_utf8(p: Path) -> BadLine:
    """The line of the first byte of `p` that is not UTF-8, and the byte."""
    data = p.read_bytes()
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + 3 * data.startswith(b"\xef\xbb\xbf")      # utf-8-sig counts after its BOM
        return BadLine(str(p), data.count(b"\n", 0, start) + 1,
                       f"unreadable: not UTF-8 text: byte 0x{data[start]:02x} ({exc.reason})")
    return BadLine(str(p), 1, "unreadable: not UTF-8 text")       # changed while read


def _csv_row(fields: list[str]) -> tuple | str:
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
    return (game, size, first, second, winner or None, "", "", "")
