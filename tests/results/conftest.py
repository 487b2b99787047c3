"""Helpers for the results tests: games frames built from tuples."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hexarena.results.rating.load import frame_from_rows


def frame_of(games: list[tuple], game: str = "spelde", size: int = 5) -> pd.DataFrame:
    """A games frame from (first, second, winner) or (first, second, winner, game, size) tuples."""
    rows = []
    for g in games:
        first, second, winner = g[:3]
        gm, sz = (g[3], g[4]) if len(g) == 5 else (game, size)
        rows.append((gm, sz, first, second, winner, "", "", ""))
    return frame_from_rows(rows)


def simulate(rng: np.random.Generator, ratings: dict[str, float], pools: dict[tuple[str, int], float],
             games: int, draw: float = 0.1) -> pd.DataFrame:
    """Random games between random pairs; `pools` maps (game, size) to its first-player advantage in Elo."""
    names = list(ratings)
    keys = list(pools)
    out = []
    for _ in range(games):
        i, j = rng.choice(len(names), 2, replace=False)
        game, size = keys[rng.integers(len(keys))]
        first, second = names[i], names[j]
        p = 1 / (1 + 10 ** (-(ratings[first] - ratings[second] + pools[game, size]) / 400))
        u = rng.random()
        if u < draw:
            winner = None
        else:
            winner = first if rng.random() < p else second
        out.append((first, second, winner, game, size))
    return frame_of(out)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20240611)
