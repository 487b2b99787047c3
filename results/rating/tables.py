"""The tables of one fit, as pandas DataFrames (full precision; rounding is the renderer's job).

Each function takes the :class:`~hexarena.results.rating.counts.Counts` that were fitted and
the :class:`~hexarena.results.rating.ratings.Fit`; players appear in rank order (Elo
descending, then name). Column meanings are documented in docs/ratings.md.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hexarena.results.record.game import FORFEIT_KINDS
from hexarena.results.rating.counts import Counts
from hexarena.results.rating.ratings import Z95, Fit

RATING_COLUMNS = ("rank", "player", "elo", "pm95", "games", "wins", "losses", "draws", "score",
                  "score_first", "score_second", *(f"forfeit_{k}" for k in FORFEIT_KINDS),
                  "avg_opp", "los_next", "prior")
ADVANTAGE_COLUMNS = ("game", "size", "games", "first_score", "advantage", "pm95", "prior")


def rank_order(fit: Fit) -> np.ndarray:
    """Player indices by Elo descending, ties by name."""
    return np.lexsort((np.array(fit.players, dtype=object), -np.round(fit.elo, 9)))


def ratings_table(fit: Fit, counts: Counts) -> pd.DataFrame:
    """One row per player: rank, rating with its 95% interval, results, forfeits, LOS to the next."""
    n = len(fit.players)
    i, j = counts.first, counts.second

    def per_player(values_first: np.ndarray, values_second: np.ndarray) -> np.ndarray:
        return np.bincount(i, values_first, n) + np.bincount(j, values_second, n)

    zero = np.zeros(len(i))
    games_first = np.bincount(i, counts.games, n)
    games_second = np.bincount(j, counts.games, n)
    games = games_first + games_second
    wins = per_player(counts.wins, counts.losses)
    losses = per_player(counts.losses, counts.wins)
    draws = per_player(counts.draws, counts.draws)
    score_first = per_player(counts.wins + 0.5 * counts.draws, zero)
    score_second = per_player(zero, counts.losses + 0.5 * counts.draws)
    opponents = per_player(counts.games * fit.elo[j], counts.games * fit.elo[i])
    forfeits = counts.forfeits.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        table = pd.DataFrame({
            "player": list(fit.players),
            "elo": fit.elo,
            "pm95": Z95 * fit.se,
            "games": games.astype(int),
            "wins": wins.astype(int),
            "losses": losses.astype(int),
            "draws": draws.astype(int),
            "score": 100 * (wins + 0.5 * draws) / games,
            "score_first": np.where(games_first > 0, 100 * score_first / games_first, np.nan),
            "score_second": np.where(games_second > 0, 100 * score_second / games_second, np.nan),
            **{f"forfeit_{k}": forfeits[:, n_k].astype(int) for n_k, k in enumerate(FORFEIT_KINDS)},
            "avg_opp": opponents / games,
            "prior": [p in fit.marked for p in fit.players],
        })
    order = rank_order(fit)
    table = table.iloc[order].reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, n + 1))
    los = [fit.los(int(a), int(b)) for a, b in zip(order[:-1], order[1:])] + [np.nan]
    table.insert(len(table.columns) - 1, "los_next", los)
    return table[list(RATING_COLUMNS)]


def advantage_table(fit: Fit, counts: Counts) -> pd.DataFrame:
    """One row per (game, size) pool: the first player's score share and fitted advantage."""
    p = len(fit.pools)
    games = np.bincount(counts.pool, counts.games, p)
    score = np.bincount(counts.pool, counts.score, p)
    return pd.DataFrame({
        "game": [g for g, _ in fit.pools],
        "size": [s for _, s in fit.pools],
        "games": games.astype(int),
        "first_score": 100 * score / games,
        "advantage": fit.advantage,
        "pm95": Z95 * fit.advantage_se,
        "prior": [pool in fit.marked_pools for pool in fit.pools],
    }, columns=list(ADVANTAGE_COLUMNS))


def head_to_head(fit: Fit, counts: Counts) -> tuple[np.ndarray, np.ndarray]:
    """(won, drawn): won[a, b] games a won against b, drawn[a, b] draws between them."""
    n = len(fit.players)
    won = np.zeros((n, n))
    drawn = np.zeros((n, n))
    np.add.at(won, (counts.first, counts.second), counts.wins)
    np.add.at(won, (counts.second, counts.first), counts.losses)
    np.add.at(drawn, (counts.first, counts.second), counts.draws)
    return won, drawn + drawn.T


def crosstable(fit: Fit, counts: Counts) -> pd.DataFrame:
    """Row player's results against each column player: ``W-L``, or ``W-L-D`` when any game was drawn.

    Rows and columns in rank order; empty where two players never met.
    """
    won, drawn = head_to_head(fit, counts)
    with_draws = bool(drawn.any())
    order = rank_order(fit)
    names = [fit.players[k] for k in order]
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
    return pd.DataFrame(cells, index=pd.Index(names, name="player"), columns=names)


def los_table(fit: Fit) -> pd.DataFrame:
    """Likelihood of superiority of each row player over each column player, rank order."""
    order = rank_order(fit)
    names = [fit.players[k] for k in order]
    matrix = fit.los_matrix()[np.ix_(order, order)]
    return pd.DataFrame(matrix, index=pd.Index(names, name="player"), columns=names)
