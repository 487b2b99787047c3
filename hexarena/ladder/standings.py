"""A pool's standings: the project's Bradley-Terry fit of its journal (results/rating), the same
numbers as ``hexarena ratings DIR/POOL --pooled --anchor ANCHOR=0``, plus each player's count of
rated games and whether it is still provisional (fewer than the config's `provisional`)."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Standing:
    name: str
    elo: float
    pm: float | None          # half the 95% interval (None: unbounded)
    games: int
    score: float
    provisional: bool
    anchor: bool


def fit(folder: Path, anchor: str | None, provisional: int) -> list[Standing]:
    """The pool's standings, best first; [] before any rated game. CPU-bound: call in a thread."""
    from hexarena.results.rating.load import LoadError, load_many
    from hexarena.results.rating.report import build_reports, report_dict
    try:
        games = load_many([str(folder)])
    except (LoadError, OSError):
        return []
    if games.frame.empty:
        return []
    pinned = {anchor: 0.0} if anchor is not None else None
    table = report_dict(build_reports(games.frame, by=(), anchor=pinned)[0])
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
