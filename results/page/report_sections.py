"""The sections of the HTML report as plain data (the template draws and escapes them).

Each function takes records or a :class:`GroupReport` and returns lists and
dicts of strings and numbers; nothing here writes HTML.
"""
from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from hexarena.results.rating.columns import advantage_columns, head_to_head, rank_order, rating_columns
from hexarena.results.rating.counts import count_rows
from hexarena.results.rating.groups import Group, adjudicated_kinds, fit_groups
from hexarena.results.rating.row import game_row
from hexarena.results.rating.words import signed_whole, whole
from hexarena.results.record.game import FORFEIT_KINDS
from hexarena.results.sprt_tracker import SPRT_FILE
from hexarena.results.record.game import GameRecord
from hexarena.results.record.identity import identity_rows

#: The hook of the SPRT section: a run that had a sequential test leaves its
#: state in this file of its folder (a JSON object); absent, the section is left out.


def _number(value: object) -> float | None:
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def rating_groups(records: Sequence[GameRecord]) -> list[dict]:
    """Pooled first, then one per (game, size) pool: ratings rows, advantage rows, crosstable.
    The fits of `hexarena ratings` (:func:`~hexarena.results.rating.groups.fit_groups`), from
    the records' rows: no pandas frame is built."""
    return rating_groups_of_rows([game_row(r) for r in records if not r.void])


def rating_groups_of_rows(rows: Sequence[tuple]) -> list[dict]:
    """:func:`rating_groups` from the non-void records' rating rows (:func:`game_row`), one per game."""
    if not rows:
        return []
    return [_group(Group(key, counts, fitted)) for key, counts, fitted in fit_groups(count_rows(rows))]


def _group(group: Group) -> dict:
    table = rating_columns(group.fit, group.counts)
    ratings = [{"rank": int(table["rank"][k]), "player": str(table["player"][k]), "elo": _number(table["elo"][k]),
                "pm": _number(table["pm95"][k]), "games": int(table["games"][k]), "wins": int(table["wins"][k]),
                "losses": int(table["losses"][k]), "draws": int(table["draws"][k]),
                "score": _number(table["score"][k]), "prior": bool(table["prior"][k])}
               for k in range(len(table["rank"]))]
    pools = advantage_columns(group.fit, group.counts)
    advantage = [{"game": str(pools["game"][k]), "size": int(pools["size"][k]), "games": int(pools["games"][k]),
                  "first_score": _number(pools["first_score"][k]), "advantage": _number(pools["advantage"][k]),
                  "pm": _number(pools["pm95"][k])} for k in range(len(pools["game"]))]
    return {"title": group.title, "slug": group.slug, "games": group.games, "ratings": ratings,
            "chart": elo_chart(ratings), "advantage": advantage, "crosstable": heat_map(group)}


def elo_chart(ratings: list[dict]) -> dict:
    """Geometry of the Elo chart: one row per player, a point and its 95% interval."""
    rows = [r for r in ratings if r["elo"] is not None]
    if not rows:
        return {"rows": [], "ticks": []}
    lo = min(r["elo"] - (r["pm"] or 0) for r in rows)
    hi = max(r["elo"] + (r["pm"] or 0) for r in rows)
    step = _tick_step(hi - lo)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if hi == lo:
        lo, hi = lo - step, hi + step
    left, width = 150.0, 420.0

    def x(v: float) -> float:
        return round(left + (v - lo) / (hi - lo) * width, 1)

    out = [{"player": r["player"], "y": 24 * i + 20, "x": x(r["elo"]),
            "x0": x(r["elo"] - (r["pm"] or 0)), "x1": x(r["elo"] + (r["pm"] or 0)),
            "label": f"{signed_whole(r['elo'])} ± {whole(r['pm'] or 0)}"} for i, r in enumerate(rows)]
    ticks = [{"x": x(v), "label": f"{v:+.0f}" if v else "0"} for v in np.arange(lo, hi + step / 2, step)]
    return {"rows": out, "ticks": ticks, "height": 24 * len(rows) + 40, "left": left,
            "right": left + width, "axis_y": 24 * len(rows) + 8}


def _tick_step(span: float) -> float:
    for step in (10, 20, 50, 100, 200, 500, 1000, 2000):
        if span / step <= 8:
            return step
    return 5000


def heat_map(report: Group) -> dict:
    """Crosstable cells in rank order: the row player's score share against the column player."""
    won, drawn = head_to_head(report.fit, report.counts)
    order = rank_order(report.fit)
    names = [report.fit.players[k] for k in order]
    rows = []
    for a in order:
        cells: list[dict | None] = []
        for b in order:
            games = won[a, b] + won[b, a] + drawn[a, b]
            if a == b or games == 0:
                cells.append(None)
                continue
            share = (won[a, b] + drawn[a, b] / 2) / games
            text = f"{won[a, b]:.0f}-{won[b, a]:.0f}" + (f"-{drawn[a, b]:.0f}" if drawn[a, b] else "")
            cells.append({"text": text, "share": round(float(share), 3), "hue": round(float(share) * 120)})
        rows.append({"player": report.fit.players[a], "cells": cells})
    return {"players": names, "rows": rows}


def terminations(records: Sequence[GameRecord]) -> dict:
    """Per engine: games ended by each termination (either side), and its own forfeits and voids;
    `adjudicated`: (kind, games) of the adjudicated games by how they were decided."""
    kinds = sorted({r.termination for r in records if not r.void})
    forfeit_kinds = sorted(FORFEIT_KINDS)
    engines = sorted({name for r in records for name in (r.first, r.second)})
    rows = []
    for engine in engines:
        own = [r for r in records if engine in (r.first, r.second)]
        ended = Counter(r.termination for r in own if not r.void)
        forfeits = Counter(r.forfeit.kind for r in own if r.faulty == engine and r.forfeit is not None)
        rows.append({"engine": engine, "games": len(own), "ended": [ended.get(k, 0) for k in kinds],
                     "forfeits": [forfeits.get(k, 0) for k in forfeit_kinds],
                     "voids": sum(1 for r in own if r.void and r.faulty == engine),
                     "void_games": sum(1 for r in own if r.void)})
    adjudicated = sorted(adjudicated_kinds(records).items())
    return {"kinds": kinds, "forfeit_kinds": forfeit_kinds, "rows": rows, "adjudicated": adjudicated}


def identities(records: Sequence[GameRecord]) -> list[dict]:
    """Per config name, each identity it played under (what it answered to `name` and `version`)
    and its games, most games first; empty when no record knows an identity."""
    return [{"engine": name, "identity": identity, "games": n} for name, identity, n in identity_rows(records)]


def sprt_state(directory: str | Path) -> list[tuple[str, str]] | None:
    """The SPRT section: the key/value pairs of DIRECTORY/sprt.json, or None when the run had none."""
    path = Path(directory) / SPRT_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [("error", f"{SPRT_FILE} unreadable: {exc}")]
    if not isinstance(data, dict):
        return [("error", f"{SPRT_FILE} is not a JSON object")]
    return [(str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in data.items()]


#: At most this many games in the report's list of forfeits and voids (the newest are kept).
FAULTS_SHOWN = 200
#: A reason longer than this is cut, with `...`, in that list.
REASON_SHOWN = 300


def faults(records: Sequence[GameRecord]) -> dict:
    """Every forfeited or void game, newest last, with why: its id, the engine at fault (or ""),
    the kind (`forfeit: illegal`, `void: start`) and the referee's reason; at most FAULTS_SHOWN
    games (`more`: how many older ones are left out). The template escapes every string."""
    found = [r for r in records if r.void or r.forfeit is not None]
    rows = [{"id": r.id, "faulty": r.faulty or "",
             "kind": f"void: {r.void_cause}" if r.void else f"forfeit: {r.forfeit}" if r.forfeit else "",
             "reason": r.reason if len(r.reason) <= REASON_SHOWN else r.reason[:REASON_SHOWN] + "..."}
            for r in found[-FAULTS_SHOWN:]]
    return {"rows": rows, "more": max(0, len(found) - FAULTS_SHOWN)}


def opening_sections(records: Sequence[GameRecord], folder: str | Path) -> list[dict] | None:
    """The openings section (results/openings.py): per grouping (the played line; the book line when
    the folder's config adds random plies) its title, rows and per-group summaries; None when no
    game had an opening."""
    from hexarena.results import openings as op
    if not any(r.opening for r in records):
        return None
    games = op.collect([records])
    plies = op.saved_random_plies(folder)
    out = []
    for grouping in ("played", "book") if plies else ("played",):
        stats = op.ordered(op.opening_stats(games, grouping, plies))
        title = "by the played line (random plies included)" if grouping == "played" else "by the book line alone"
        summaries = [{"group": "-".join([s.group[0], str(s.group[1]), *s.group[2].split()]), "games": s.games,
                      "score": s.score, "low": s.interval[0], "high": s.interval[1], "pairs": s.pairs,
                      "split": s.split, "chance": s.chance, "flagged": s.flagged, "openings": s.openings}
                     for s in op.summaries(stats)]
        out.append({"title": title, "rows": [s.row() for s in stats], "summaries": summaries})
    return out
