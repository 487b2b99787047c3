"""Games counted per (first player, second player, pool): the data the ratings are fitted on.

:class:`Counts` holds the sufficient statistics of the Bradley-Terry model
(wins, losses, draws per row) and the forfeits per player; :func:`aggregate`
builds them from a games frame (see :mod:`hexarena.results.rating.load`), :func:`count_rows`
from game rows (what `hexarena report` does: numpy only, pandas is not loaded).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from hexarena.results.record.game import FORFEIT_KINDS

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Counts:
    """Games aggregated per (first, second, pool): the sufficient statistics.

    `first`, `second` index `players`; `pool` indexes `pools`; `wins` are games
    the first player won, `losses` games the second won. `forfeits[p, i, k]`
    counts forfeits of player i in pool p of kind ``record.game.FORFEIT_KINDS[k]``.
    Players and pools are sorted, so equal games in any order give equal counts.
    """

    players: tuple[str, ...]
    pools: tuple[tuple[str, int], ...]
    first: np.ndarray
    second: np.ndarray
    pool: np.ndarray
    wins: np.ndarray
    losses: np.ndarray
    draws: np.ndarray
    forfeits: np.ndarray

    @property
    def games(self) -> np.ndarray:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> np.ndarray:
        """The first player's score per row (draws as half a win)."""
        return self.wins + 0.5 * self.draws

    def select(self, pools: list[int]) -> Counts:
        """The counts of the given pools only, players re-indexed to those who played there."""
        keep = np.isin(self.pool, pools)
        used = np.flatnonzero(np.bincount(np.concatenate([self.first[keep], self.second[keep]]),
                                          minlength=len(self.players)))     # sorted, as np.unique
        new_index = np.full(len(self.players), -1)
        new_index[used] = np.arange(len(used))
        pool_index = np.full(len(self.pools), -1)
        pool_index[pools] = np.arange(len(pools))
        return Counts(tuple(self.players[i] for i in used), tuple(self.pools[p] for p in pools),
                      new_index[self.first[keep]], new_index[self.second[keep]], pool_index[self.pool[keep]],
                      self.wins[keep], self.losses[keep], self.draws[keep],
                      self.forfeits[np.ix_(np.asarray(pools), used)])


def aggregate(frame: pd.DataFrame) -> Counts:
    """Counts of a games frame (see hexarena.results.rating.load; its player columns share sorted categories)."""
    names = tuple(str(c) for c in frame["first"].cat.categories)
    first = frame["first"].cat.codes.to_numpy().astype(np.int64)
    second = frame["second"].cat.codes.to_numpy().astype(np.int64)
    game = frame["game"]
    if hasattr(game, "cat"):                         # a categorical column
        game_codes, games = game.cat.codes.to_numpy().astype(np.int64), np.asarray(game.cat.categories, dtype=object)
    else:
        games, game_codes = np.unique(game.to_numpy(dtype=object), return_inverse=True)
    sizes, size_codes = np.unique(frame["size"].to_numpy(), return_inverse=True)
    outcome = np.rint(2 * frame["score"].to_numpy(float)).astype(np.int64)     # 0 lost, 1 draw, 2 won
    hit = (frame["forfeit"] != "").to_numpy()
    return _count(names, first, second, game_codes, games, size_codes, sizes, outcome,
                  frame["forfeit"].to_numpy(object)[hit], frame["faulty"].to_numpy(object)[hit], hit)


def count_rows(rows: Sequence[tuple], weights: Sequence[int] | None = None) -> Counts:
    """Counts of game rows (:func:`game_row`'s tuples, in their order): the same as
    ``aggregate(frame_from_rows(rows))``, without building the frame (pandas is not loaded).
    `weights`: how many games each row stands for (a running tournament keeps each distinct
    row once with its count); None: one game each."""
    if not rows:
        rows_game, rows_size, first_names, second_names, winners, kinds, faulty = [], [], [], [], [], [], []
    else:
        rows_game, rows_size, first_names, second_names, winners, _, kinds, faulty = (list(c) for c in zip(*rows))
    names = tuple(sorted({v for column in (first_names, second_names, winners) for v in column if isinstance(v, str)}))
    index = {name: k for k, name in enumerate(names)}
    first = np.array([index[v] for v in first_names], dtype=np.int64)
    second = np.array([index[v] for v in second_names], dtype=np.int64)
    won = np.array([index[v] if isinstance(v, str) else -1 for v in winners], dtype=np.int64)
    outcome = np.where(won == first, 2, np.where(won < 0, 1, 0)).astype(np.int64)
    games, game_codes = np.unique(np.array(rows_game, dtype=object), return_inverse=True)
    sizes, size_codes = np.unique(np.array(rows_size, dtype=np.int64), return_inverse=True)
    hit = np.array([bool(k) for k in kinds], dtype=bool)
    weight = np.ones(len(rows)) if weights is None else np.array(weights, dtype=float)
    return _count(names, first, second, game_codes.astype(np.int64), games, size_codes, sizes, outcome,
                  np.array(kinds, dtype=object)[hit], np.array(faulty, dtype=object)[hit], hit, weight)


def _count(names: tuple[str, ...], first: np.ndarray, second: np.ndarray, game_codes: np.ndarray,
           games: np.ndarray, size_codes: np.ndarray, sizes: np.ndarray, outcome: np.ndarray,
           kinds: np.ndarray, faulty: np.ndarray, hit: np.ndarray, weight: np.ndarray | None = None) -> Counts:
    """Counts of games given as codes: players (`names`), game ids and sizes; `outcome` the
    first player's result (0 lost, 1 draw, 2 won); the forfeits' kinds and faulty players,
    of the games where `hit` is set; `weight`: games per entry (None: one each)."""
    combo = game_codes * len(sizes) + size_codes
    present = np.flatnonzero(np.bincount(combo, minlength=len(games) * len(sizes)))
    pool_of_key = sorted((str(games[k // len(sizes)]), int(sizes[k % len(sizes)])) for k in present.tolist())
    lookup = np.zeros(len(games) * len(sizes), dtype=np.int64)
    for k in present.tolist():
        lookup[k] = pool_of_key.index((str(games[k // len(sizes)]), int(sizes[k % len(sizes)])))
    pool_key = lookup[combo]
    pools = tuple(pool_of_key)
    n, p = len(names), len(pools)
    key = (pool_key * n + first) * n + second
    table: np.ndarray
    if p * n * n <= 1 << 22:      # a dense count table is cheapest
        dense = np.bincount(key * 3 + outcome, weight, minlength=p * n * n * 3).reshape(-1, 3)
        rows = np.flatnonzero(dense.sum(axis=1))
        table = dense[rows]
    else:
        rows, inverse = np.unique(key, return_inverse=True)
        table = np.zeros((len(rows), 3))
        np.add.at(table, (inverse, outcome), 1 if weight is None else weight)
    losses, draws, wins = (table[:, k].astype(float) for k in range(3))
    forfeits = np.zeros((p, n, len(FORFEIT_KINDS)))
    if hit.any():
        index = {name: i for i, name in enumerate(names)}
        at = np.array([index.get(f, -1) for f in faulty])
        kind = np.array([FORFEIT_KINDS.index(k) for k in kinds])
        known = at >= 0              # a fault blamed on no player of the game is not counted
        np.add.at(forfeits, (pool_key[hit][known], at[known], kind[known]), 1 if weight is None else weight[hit][known])
    used = np.flatnonzero(np.bincount(np.concatenate([first, second]), minlength=n))
    counts = Counts(names, pools, rows // n % n, rows % n, rows // (n * n), wins, losses, draws, forfeits)
    return counts if len(used) == n else counts.select(list(range(p)))
