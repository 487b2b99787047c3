"""`hexarena repair DIR`: move the bad lines of a journal, verbatim, to a side file.

The referee never writes a bad line (a torn last line is cut off on the
next run, see :func:`hexarena.results.record.journal.cut_torn_tail`), but a journal can be
damaged by hand or by the disk. A bad line in the middle stops `--resume`
and `ratings`; this repair keeps every readable record in place, in order,
and appends every unreadable line unchanged to ``JOURNAL.bad`` so nothing
is deleted. The games of the moved lines are then missing from the
journal, so a resume plays them again; but a later record of a game that
already has one (:class:`~hexarena.results.record.journal.Counted`) is
moved as a bad line and its game keeps its first record.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .journal import (JOURNAL_NAME, Counted, append_whole, cut_torn_tail, journal_lines, journal_path,
                      new_file_beside, parse_line)

__all__ = ["BAD_SUFFIX", "NotAJournal", "Repair", "repair_journal"]

BAD_SUFFIX = ".bad"


@dataclass(frozen=True)
class Repair:
    journal: Path
    kept: int                 # readable records left in the journal
    moved: list[int]          # line numbers moved to the side file
    side: Path
    torn: str | None          # what was done about a torn last line, if there was one


class NotAJournal(ValueError):
    """A file not named as a run's journal holds lines, and none of them is a game record (a
    config, an SGF, a page given by a slip): it is left as it was."""


def repair_journal(path: str | os.PathLike) -> Repair:
    """Repair the journal at `path` (a folder or the file); OSError if it cannot be read or
    written, NotAJournal (nothing changed) if no line of a file not named ``journal.jsonl`` is a
    game record."""
    p = journal_path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: no journal here")
    good, bad = _sorted_lines(p)
    whole = any(line.endswith(b"\n") for _, line in bad)     # a torn last line is a record cut short
    if whole and not good and p.name != JOURNAL_NAME:     # a run's journal may be all damage; another file, a slip
        raise NotAJournal(f"{p}: none of its {len(bad)} line(s) is a game record: not a tournament's journal "
                          "(nothing changed)")
    torn = cut_torn_tail(p)
    if torn:
        good, bad = _sorted_lines(p)
    side = p.with_name(p.name + BAD_SUFFIX)
    if bad:
        append_whole(side, b"".join(line if line.endswith(b"\n") else line + b"\n" for _, line in bad))
        fd, tmp = new_file_beside(p)
        with os.fdopen(fd, "wb") as fh:
            fh.writelines(good)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    return Repair(p, len(good), [no for no, _ in bad], side, torn)


def _sorted_lines(p: Path) -> tuple[list[bytes], list[tuple[int, bytes]]]:
    """The journal's lines that are records (a game's first), and the others with their line numbers."""
    good: list[bytes] = []
    bad: list[tuple[int, bytes]] = []
    counted = Counted()
    for no, line in journal_lines(p):
        try:
            counted.check(parse_line(line), no)
        except (ValueError, TypeError):
            bad.append((no, line))
        else:
            good.append(line)
    return good, bad
