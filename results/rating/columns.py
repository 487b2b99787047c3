"""The tables of one fit as columns of numbers (numpy only; :mod:`.tables` makes them
pandas DataFrames, the HTML report reads them as they are).

Each function takes the :class:`~hexarena.results.rating.counts.Counts` that were fitted and
the :class:`~hexarena.results.rating.ratings.Fit`; players appear in rank order (Elo
descending, then name), at full precision. Column meanings are documented in docs/ratings.md.
"""
from __future__ import annotations

import numpy as np

from hexarena.results.record.game import FORFEIT_KINDS
from hexarena.results.rating.counts import Counts
from hexarena.results.rating.ratings import Z95, Fit

RATING_COLUMNS = ("rank", "player", "elo", "pm95", "games", "wins", "losses", "draws", "score",
                  "score_first", "score_second", *(f"forfeit_{k}" for k in FORFEIT_KINDS),
                  "avg_opp", "los_next", "prior")
ADVANTAGE_COLUMNS = ("game", "size", "games", "first_score", "advantage", "pm95", "prior")

Columns = dict[str, np.ndarray | list]


def rank_order(fit: Fit) -> np.ndarray:
    """Player indices by Elo descending, ties by name."""
    return np.lexsort((np.array(fit.players, dtype=object), -np.round(fit.elo, 9)))


def rating_columns(fit: Fit, counts: Counts) -> Columns:
    """Per player in rank order (RATING_COLUMNS): rank, rating with its 95% interval, results,
    forfeits, LOS to the next."""
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
    order = rank_order(fit)
    with np.errstate(invalid="ignore", divide="ignore"):
        columns: Columns = {
            "rank": np.arange(1, n + 1),
            "player": [fit.players[k] for k in order],
            "elo": fit.elo[order],
            "pm95": (Z95 * fit.se)[order],
            "games": games.astype(int)[order],
            "wins": wins.astype(int)[order],
            "losses": losses.astype(int)[order],
            "draws": draws.astype(int)[order],
            "score": (100 * (wins + 0.5 * draws) / games)[order],
            "score_first": np.where(games_first > 0, 100 * score_first / games_first, np.nan)[order],
            "score_second": np.where(games_second > 0, 100 * score_second / games_second, np.nan)[order],
            **{f"forfeit_{k}": forfeits[:, n_k].astype(int)[order] for n_k, k in enumerate(FORFEIT_KINDS)},
            "avg_opp": (opponents / games)[order],
            "los_next": [fit.los(int(a), int(b)) for a, b in zip(order[:-1], order[1:])] + [np.nan],
            "prior": [fit.players[k] in fit.marked for k in order],
        }
    return {name: columns[name] for name in RATING_COLUMNS}


def advantage_columns(fit: Fit, counts: Counts) -> Columns:
    """Per (game, size) pool (ADVANTAGE_COLUMNS): the first player's score share and fitted advantage."""
    p = len(fit.pools)
    games = np.bincount(counts.pool, counts.games, p)
    score = np.bincount(counts.pool, counts.score, p)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "game": [g for g, _ in fit.pools],
            "size": [s for _, s in fit.pools],
            "games": games.astype(int),
            "first_score": 100 * score / games,
            "advantage": fit.advantage,
            "pm95": Z95 * fit.advantage_se,
            "prior": [pool in fit.marked_pools for pool in fit.pools],
        }


def head_to_head(fit: Fit, counts: Counts) -> tuple[np.ndarray, np.ndarray]:
    """(won, drawn): won[a, b] games a won against b, drawn[a, b] draws between them."""
    n = len(fit.players)
    won = np.zeros((n, n))
    drawn = np.zeros((n, n))
    np.add.at(won, (counts.first, counts.second), counts.wins)
    np.add.at(won, (counts.second, counts.first), counts.losses)
    np.add.at(drawn, (counts.first, counts.second), counts.draws)
    return won, drawn + drawn.T
