"""Games frames for the results tests: built from tuples, simulated from ratings, or fitting a
model exactly."""
from __future__ import annotations

import numpy as np
import pandas as pd

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


def three_player_games():
    """Strengths 4:2:1 and a first-player factor of 2, data fitting the model exactly."""
    games = []
    def add(first, second, won, lost, drawn=0):
        games.extend([(first, second, first)] * won + [(first, second, second)] * lost
                     + [(first, second, None)] * drawn)
    add("A", "B", 4, 1)          # odds 4/2 * 2 = 4
    add("B", "A", 0, 0, 2)       # odds 2/4 * 2 = 1: two draws
    add("A", "C", 8, 1)          # odds 4/1 * 2 = 8
    add("C", "A", 1, 2)          # odds 1/4 * 2 = 1/2
    add("B", "C", 4, 1)          # odds 2/1 * 2 = 4
    add("C", "B", 1, 1)          # odds 1/2 * 2 = 1
    return games
