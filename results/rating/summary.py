"""The tables a tournament prints at its end, as text, with numpy only (pandas is not loaded): the
pooled ratings and the first-player advantage per pool (:func:`summary_table`), the head to head
(:func:`head_to_head_text`). The same fits as ``hexarena ratings`` (:func:`.groups.fit_groups` of
:func:`.counts.count_rows`), the same text as its DataFrames would give (:mod:`.text`).
"""
from __future__ import annotations

from collections.abc import Sequence

from hexarena.results.rating.columns import advantage_columns, rating_columns
from hexarena.results.rating.counts import count_rows
from hexarena.results.rating.groups import Group, adjudicated_kinds, fit_groups
from hexarena.results.rating.row import adjudicated_text, game_row
from hexarena.results.rating.text import LEGEND, crosstable_cells, format_advantage, format_crosstable, format_ratings, notes
from hexarena.results.rating.words import games_text
from hexarena.results.record.game import GameRecord

__all__ = ["adjudicated_line", "head_to_head_text", "pooled", "summary_table"]


def pooled(records: Sequence[GameRecord]) -> Group | None:
    """The fit of all the non-void games of `records` pooled; None when there is none. ValueError
    or ArithmeticError when they cannot be fitted."""
    rows = [game_row(r) for r in records if not r.void]
    if not rows:
        return None
    key, counts, fitted = fit_groups(count_rows(rows), ())[0]
    return Group(key, counts, fitted)


def summary_table(records: Sequence[GameRecord], group: Group | None = None) -> str:
    """The end-of-tournament summary: pooled Elo table and the first-player advantage per pool.

    Works for any number of games (also none, and tiny tournaments whose maximum does not
    exist: the weak prior is then used and said so). `group`: :func:`pooled` of `records`,
    when the caller has it already.
    """
    report = group if group is not None else pooled(records)
    if report is None:
        return "no rated games (void games are not rated)"
    adjudicated = adjudicated_line(records)
    return "\n".join([f"ratings over {games_text(report.games)} (Bradley-Terry, Elo scale, mean 0)",
                      format_ratings(rating_columns(report.fit, report.counts)), LEGEND, "",
                      "first-player advantage per pool",
                      format_advantage(advantage_columns(report.fit, report.counts)), *notes(report),
                      *(["", adjudicated] if adjudicated else [])])


def head_to_head_text(group: Group) -> str:
    """The pooled fit's head to head: rows ``rank player``, columns by rank (:func:`.text.format_crosstable`)."""
    return format_crosstable(*crosstable_cells(group.fit, group.counts))


def adjudicated_line(records: Sequence[GameRecord]) -> str | None:
    """`adjudicated: 4 of 40 games (resign 3, draw 1)`, or None when no game was adjudicated."""
    kinds = adjudicated_kinds(records)
    played = sum(1 for r in records if not r.void)
    return f"adjudicated: {sum(kinds.values())} of {games_text(played)} ({adjudicated_text(kinds)})" if kinds else None
