"""The sources of games to rate, read without pandas: which paths are journals, a journal's
rating rows (:func:`~hexarena.results.rating.row.game_row`), the bad lines of any source, and
several sources read together. :mod:`.load` makes frames of them (and reads CSV files);
``hexarena ratings`` fits a journal's rows as they are (:func:`load_rows`).
"""
from __future__ import annotations

import io
import os
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from hexarena.results.rating.row import game_row
from hexarena.results.record.files import open_regular
from hexarena.results.record.journal import JournalError, iter_journal, journal_path

T = TypeVar("T")


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

    def __init__(self, problems: list[BadLine], repairs: tuple[str, ...] = ()):
        shown = "\n".join(str(p) for p in problems[: self.SHOWN])
        more = len(problems) - self.SHOWN
        tail = f"\n... and {more} more" if more > 0 else ""
        commands = ", ".join(f"`hexarena repair {r}`" for r in repairs)
        fix = f", or {commands} to move them to a side file" if repairs else ""
        super().__init__(f"{len(problems)} bad line(s) (use --skip-bad to skip them{fix}):\n{shown}{tail}")
        self.problems, self.repairs = problems, repairs


def is_journal(path: str | os.PathLike) -> bool:
    """Whether `path` is read as a journal: a folder (its journal), a file ending in .jsonl or
    .json, or any other file but .csv whose first non-blank line starts with ``{``."""
    p = Path(path)
    return p.is_dir() or p.suffix in (".jsonl", ".json") or (p.suffix != ".csv" and _looks_like_json(p))


def _looks_like_json(p: Path) -> bool:
    """Whether the first non-blank line starts with ``{``; FileLimitError when `p` is no regular file."""
    with io.TextIOWrapper(open_regular(p), encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.strip():
                return line.lstrip().startswith("{")
    return False


def journal_rows(path: str | os.PathLike, *, skip_bad: bool = False,
                 identity: bool = False) -> tuple[list[tuple], tuple[str, ...]]:
    """The rating rows of a journal's non-void records, in order (read as summaries, one at a
    time, each kept as its row alone: ~120 bytes a game), and the warnings about its skipped
    lines. A bad line raises LoadError (naming `hexarena repair`) unless `skip_bad`."""
    p = Path(path)
    errors: list[JournalError] = []
    rows = [game_row(r, identity) for r in iter_journal(p, errors, summary=True) if not r.void]
    return rows, skipped(p, errors, skip_bad)


def skipped(path: str | os.PathLike, errors: list[JournalError], skip_bad: bool) -> tuple[str, ...]:
    """The warnings about the bad lines `errors` a reader of the journal `path` skipped; LoadError
    (naming `hexarena repair PATH`) when there are any and not `skip_bad`."""
    problems = [BadLine(e.path, e.line, e.reason) for e in errors]     # a repeated game id among them
    if problems and not skip_bad:
        raise LoadError(problems, (shlex.quote(str(path)),) if any(b.line > 0 for b in problems) else ())
    return tuple(f"skipped {b}" for b in problems)


def read_sources(paths: Iterable[str | os.PathLike],
                 read: Callable[[str | os.PathLike], tuple[T, tuple[str, ...]]]) -> tuple[list[T], list[str]]:
    """What `read` gives of each path (its data and warnings), the same file named twice (also as
    a folder and its journal) read once with a warning; the bad lines of every source raise one
    LoadError together."""
    found: list[T] = []
    warnings: list[str] = []
    problems: list[BadLine] = []
    repairs: tuple[str, ...] = ()
    seen = set()
    for path in paths:
        key = journal_path(path).resolve()
        if key in seen:
            warnings.append(f"{path}: named twice, read once")
            continue
        seen.add(key)
        try:
            data, said = read(path)
        except LoadError as exc:
            problems += exc.problems
            repairs += exc.repairs
            continue
        found.append(data)
        warnings += said
    if problems:
        raise LoadError(problems, repairs)
    return found, warnings


def load_rows(paths: Iterable[str | os.PathLike], *, skip_bad: bool = False,
              identity: bool = False) -> tuple[list[tuple], tuple[str, ...]]:
    """The rating rows of several journals together (each :func:`is_journal`), and the warnings:
    what :func:`.load.load_many` reads of them, without a frame."""
    parts, warnings = read_sources(paths, lambda p: journal_rows(p, skip_bad=skip_bad, identity=identity))
    return [row for rows in parts for row in rows], tuple(warnings)
