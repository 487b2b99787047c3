"""The rating tables as fixed-width text, from the fits' columns (numpy only: pandas is not
loaded). What ``hexarena ratings`` prints and the tournament's end-of-run summary.

:func:`fixed_width` lays out columns as pandas' ``DataFrame.to_string`` does (right-justified,
one space between columns, a leading space on an integer column's header; with row labels, the
labels left-justified and each text value after a space), so the text is the same whether a
table came from :mod:`.columns` or from a DataFrame (``tests/results/test_rating_text.py``).
"""
from __future__ import annotations

import math
import numbers
import textwrap
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from hexarena.results.rating.columns import advantage_columns, head_to_head, rank_order, rating_columns
from hexarena.results.rating.counts import Counts
from hexarena.results.rating.groups import Group
from hexarena.results.rating.ratings import Fit
from hexarena.results.rating.words import games_text, whole

PRIOR_NOTE = ("* rests on a weak prior (as if each player had drawn two games against the pool), as the "
              "results alone cannot place it: ")
#: What the ratings table's short columns mean (docs/ratings.md, "Columns"), printed under it.
LEGEND = textwrap.fill(
    "columns: ±95 the 95% interval of elo; score% first% second% its points per game in all, as first and as "
    "second player; time illegal crash the games it lost on time, by an illegal or malformed action, by "
    "crashing; opp its opponents' mean elo; LOS% the chance it is stronger than the player ranked next",
    width=100, subsequent_indent="  ")

Cell = str | int


def fixed_width(columns: Mapping[str, Sequence[Cell]], labels: Sequence[str] | None = None) -> str:
    """Columns of text or integers (each the same length, at least one row) as a fixed-width table
    with a header line; `labels`: a first column of row labels without a header. Integers are
    right-justified under a header with a leading space; text likewise, without it."""
    header: list[list[str]] = []
    body: list[list[str]] = []
    for name, values in columns.items():
        numeric = all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values)
        texts = [str(int(v)) if numeric else (" " if labels is not None else "") + str(v) for v in values]
        title = " " + name if numeric and labels is None else name
        width = max(len(title), *map(len, texts))
        header.append([title.rjust(width)])
        body.append([t.rjust(width) for t in texts])
    rows = [" ".join(cells) for cells in zip(*(h + b for h, b in zip(header, body)))]
    if labels is None:
        return "\n".join(rows)
    width = max(map(len, labels))
    return "\n".join([" " * width + " " + rows[0],
                      *(label.ljust(width) + " " + row for label, row in zip(labels, rows[1:]))])


def format_ratings(table: Any) -> str:
    """The ratings table (:data:`.columns.RATING_COLUMNS`, as columns or a DataFrame) rounded for
    reading: Elo to 1, percentages to 0.1."""
    return fixed_width({
        "rank": list(table["rank"]), "player": list(table["player"]),
        "elo": [whole(e) + ("*" if p else "") for e, p in zip(table["elo"], table["prior"])],
        "±95": [whole(v) for v in table["pm95"]],
        "games": list(table["games"]), "wins": list(table["wins"]), "losses": list(table["losses"]),
        "draws": list(table["draws"]),
        "score%": [_pct(v) for v in table["score"]], "first%": [_pct(v) for v in table["score_first"]],
        "second%": [_pct(v) for v in table["score_second"]],
        "time": list(table["forfeit_time"]), "illegal": list(table["forfeit_illegal"]),
        "crash": list(table["forfeit_crash"]),
        "opp": [whole(v) for v in table["avg_opp"]],
        "LOS%": [_pct(100 * v) for v in table["los_next"]],
    })


def format_advantage(table: Any) -> str:
    """The first-player advantage table (:data:`.columns.ADVANTAGE_COLUMNS`) rounded for reading."""
    return fixed_width({
        "game": list(table["game"]), "size": list(table["size"]), "games": list(table["games"]),
        "first%": [_pct(v) for v in table["first_score"]],
        "advantage": [whole(a) + ("*" if p else "") for a, p in zip(table["advantage"], table["prior"])],
        "±95": [whole(v) for v in table["pm95"]],
    })


def crosstable_cells(fit: Fit, counts: Counts) -> tuple[list[str], list[list[str]]]:
    """The players in rank order and each row player's results against each column player:
    ``W-L``, or ``W-L-D`` when any game was drawn; empty where two players never met."""
    won, drawn = head_to_head(fit, counts)
    with_draws = bool(drawn.any())
    order = rank_order(fit)
    cells = []
    for a in order:
        row = []
        for b in order:
            if a == b or won[a, b] + won[b, a] + drawn[a, b] == 0:
                row.append("")
            elif with_draws:
                row.append(f"{won[a, b]:.0f}-{won[b, a]:.0f}-{drawn[a, b]:.0f}")
            else:
                row.append(f"{won[a, b]:.0f}-{won[b, a]:.0f}")
        cells.append(row)
    return [fit.players[k] for k in order], cells


def format_crosstable(names: Sequence[str], cells: Sequence[Sequence[str]]) -> str:
    """Rows labelled ``rank player``, columns by rank, so that wide tables stay readable."""
    columns = {str(k): [row[k - 1] for row in cells] for k in range(1, len(names) + 1)}
    return fixed_width(columns, [f"{k} {name}" for k, name in enumerate(names, 1)])


def render_text(reports: Iterable[Group], warnings: Sequence[str] = (), crosstables: bool = True) -> str:
    """Every group's fit as fixed-width text: ratings, advantages, crosstable and notes; the legend of
    the ratings' columns under the first table only."""
    parts = [f"warning: {w}" for w in warnings]
    for k, report in enumerate(reports):
        anchor = f", {report.fit.anchor[0]} pinned at {report.fit.anchor[1] + 0.0:g}" if report.fit.anchor else ", mean 0"
        parts += ["", f"== {report.title}: {games_text(report.games)}, {len(report.fit.players)} players{anchor} ==",
                  format_ratings(rating_columns(report.fit, report.counts)), *([LEGEND] if k == 0 else []), "",
                  "first-player advantage", format_advantage(advantage_columns(report.fit, report.counts))]
        if crosstables:
            parts += ["", "head to head (row player's wins-losses[-draws] against the column player)",
                      format_crosstable(*crosstable_cells(report.fit, report.counts))]
        parts += notes(report)
    return "\n".join(parts).lstrip("\n") + "\n"


def notes(report: Group) -> list[str]:
    """The note under a table whose fit rests on the weak prior (none otherwise)."""
    if not report.fit.prior:
        return []
    return ["", "note: " + PRIOR_NOTE + "; ".join(report.fit.reasons)]


def _pct(value: float | None) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.1f}"
