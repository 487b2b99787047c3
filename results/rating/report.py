"""Reports: the fits and tables of a set of games, grouped, rendered as text, CSV or JSON.

:func:`summary_table` (:mod:`.summary`, pandas-free) is what the tournament prints at its end;
:func:`build_reports` and the ``render_*``/:func:`write_out` functions are
what ``hexarena ratings`` runs. Pure functions of their inputs except
:func:`write_out`, which writes files into a folder the caller names.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path

import pandas as pd

from hexarena.results.rating.row import adjudicated_text as adjudicated_text
from hexarena.results.rating.summary import adjudicated_line, summary_table
from hexarena.results.rating.counts import aggregate
from hexarena.results.rating.groups import Group, adjudicated_kinds, fit_groups
from hexarena.results.record.game import GROUP_KEYS
from hexarena.results.rating.tables import advantage_table, crosstable, los_table, ratings_table
from hexarena.results.rating.text import LEGEND, PRIOR_NOTE, format_advantage, format_ratings, render_text
from hexarena.results.rating.text import format_crosstable as crosstable_text

class GroupReport(Group):
    """The fit and tables of one group of games; `key` is {} for all games pooled."""

    @cached_property
    def ratings(self) -> pd.DataFrame:
        return ratings_table(self.fit, self.counts)

    @cached_property
    def advantage(self) -> pd.DataFrame:
        return advantage_table(self.fit, self.counts)

    @cached_property
    def crosstable(self) -> pd.DataFrame:
        return crosstable(self.fit, self.counts)

    @cached_property
    def los(self) -> pd.DataFrame:
        return los_table(self.fit)


def build_reports(frame: pd.DataFrame, by: Sequence[str] | None = None,
                  anchor: Mapping[str, float] | None = None) -> list[GroupReport]:
    """Reports of the games in `frame`.

    `by` None: all games pooled, followed by one report per (game, size) pool
    when there are several; `by` ``()``: pooled only; otherwise one report per
    value of those columns (a subset of ``game``, ``size``). Every fit has one
    advantage per (game, size) pool. Raises ValueError for an unknown key or
    when there are no games.
    """
    unknown = [k for k in (by or ()) if k not in GROUP_KEYS]
    if unknown:
        raise ValueError(f"cannot group by {', '.join(unknown)}: choose from {', '.join(GROUP_KEYS)}")
    if frame.empty:
        raise ValueError("no games to rate")
    return [GroupReport(key, counts, fitted) for key, counts, fitted in fit_groups(aggregate(frame), by, anchor)]


def render_csv(reports: Iterable[GroupReport]) -> str:
    """The ratings tables stacked, with a first column `table` naming the group."""
    frames = [r.ratings.assign(prior=r.ratings["prior"].astype(int)).pipe(_with_table, r.title)
              for r in reports]
    return pd.concat(frames, ignore_index=True).to_csv(index=False, float_format="%.6f", lineterminator="\n")


def render_json(reports: Iterable[GroupReport], warnings: Sequence[str] = ()) -> str:
    """One JSON document with every table of every report (NaN as null)."""
    return json.dumps({"tables": [report_dict(r) for r in reports], "warnings": list(warnings)}, indent=1)


def report_dict(r: GroupReport) -> dict:
    """A report as plain JSON-ready data."""
    return {
        "table": r.title, **{k: r.key[k] for k in r.key}, "games": r.games,
        "anchor": None if r.fit.anchor is None else {"player": r.fit.anchor[0], "elo": r.fit.anchor[1]},
        "prior": r.fit.prior, "reasons": list(r.fit.reasons),
        "ratings": _records(r.ratings), "advantage": _records(r.advantage),
        "crosstable": json.loads(r.crosstable.to_json(orient="index")),
        "los": json.loads(r.los.to_json(orient="index", double_precision=15)),
    }


def write_out(reports: Sequence[GroupReport], directory: str | os.PathLike, warnings: Sequence[str] = ()) -> list[Path]:
    """Writes every table as CSV and JSON, plus report.txt and report.json; returns the paths written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for r in reports:
        tables = {"ratings": r.ratings, "advantage": r.advantage, "crosstable": r.crosstable, "los": r.los}
        for name, table in tables.items():
            keep_index = name in ("crosstable", "los")
            for suffix, text in ((".csv", table.to_csv(index=keep_index, lineterminator="\n")),
                                 (".json", table.to_json(orient="index" if keep_index else "records",
                                                         double_precision=15, indent=1))):
                path = out / f"{name}-{r.slug}{suffix}"
                path.write_text(text, encoding="utf-8")
                written.append(path)
    for name, text in (("report.txt", render_text(reports, warnings)), ("report.json", render_json(reports, warnings))):
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written


def format_crosstable(table: pd.DataFrame) -> str:
    """:func:`.text.format_crosstable` of a crosstable DataFrame (:func:`.tables.crosstable`)."""
    return crosstable_text([str(name) for name in table.index], table.values.tolist())


def _with_table(frame: pd.DataFrame, title: str) -> pd.DataFrame:
    out = frame.copy()
    out.insert(0, "table", title)
    return out


def _records(frame: pd.DataFrame) -> list[dict]:
    return json.loads(frame.to_json(orient="records", double_precision=15))


__all__ = ["GroupReport", "LEGEND", "PRIOR_NOTE", "build_reports", "summary_table", "adjudicated_line", "adjudicated_kinds",
           "adjudicated_text", "render_text", "render_csv", "render_json",
           "write_out", "format_ratings", "format_advantage", "format_crosstable"]
