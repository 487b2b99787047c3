"""A pool's standings: the project's Bradley-Terry fit of its games (results/rating), the same
numbers as ``hexarena ratings DIR/POOL --pooled --anchor ANCHOR=0``, plus each player's count of
rated games and whether it is still provisional (fewer than the config's `provisional`).

The pool keeps one rating row per rated game as it is journaled (:func:`~hexarena.results.rating.row.game_row`),
so a refit reads no journal: its cost is the fit's (players and pairs), not the pool's length."""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    name: str
    elo: float
    pm: float | None          # half the 95% interval (None: unbounded)
    games: int
    score: float
    provisional: bool
    anchor: bool


def fit(rows: Sequence[tuple], anchor: str | None, provisional: int) -> list[Standing]:
    """The standings of the rated games' rows, best first; [] before any rated game. CPU-bound:
    call in a thread, with a list the caller does not change meanwhile."""
    from hexarena.results.rating.load import frame_from_rows
    from hexarena.results.rating.report import build_reports, report_dict
    if not rows:
        return []
    pinned = {anchor: 0.0} if anchor is not None else None
    table = report_dict(build_reports(frame_from_rows(list(rows)), by=(), anchor=pinned)[0])
    out = []
    for row in table["ratings"]:
        pm = row.get("pm95")
        count = int(row.get("games", 0))
        out.append(Standing(str(row["player"]), float(row["elo"]), _finite(pm), count, _finite(row.get("score")) or 0.0,
                            count < provisional and row["player"] != anchor, row["player"] == anchor))
    return out


def _finite(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


def as_json(standings: list[Standing]) -> str:
    return json.dumps([s.__dict__ for s in standings])
