"""The tables of one fit, as pandas DataFrames (full precision; rounding is the renderer's job);
the columns of the ratings and advantage tables come from :mod:`.columns`.

Each function takes the :class:`~hexarena.results.rating.counts.Counts` that were fitted and
the :class:`~hexarena.results.rating.ratings.Fit`; players appear in rank order (Elo
descending, then name). Column meanings are documented in docs/ratings.md.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hexarena.results.rating.columns import (ADVANTAGE_COLUMNS, RATING_COLUMNS, advantage_columns, head_to_head,
                                             rank_order, rating_columns)
from hexarena.results.rating.counts import Counts
from hexarena.results.rating.ratings import Fit
from hexarena.results.rating.text import crosstable_cells


def ratings_table(fit: Fit, counts: Counts) -> pd.DataFrame:
    """One row per player: rank, rating with its 95% interval, results, forfeits, LOS to the next."""
    return pd.DataFrame(rating_columns(fit, counts), columns=list(RATING_COLUMNS))


def advantage_table(fit: Fit, counts: Counts) -> pd.DataFrame:
    """One row per (game, size) pool: the first player's score share and fitted advantage."""
    return pd.DataFrame(advantage_columns(fit, counts), columns=list(ADVANTAGE_COLUMNS))


def crosstable(fit: Fit, counts: Counts) -> pd.DataFrame:
    """Row player's results against each column player: ``W-L``, or ``W-L-D`` when any game was drawn.

    Rows and columns in rank order; empty where two players never met.
    """
    names, cells = crosstable_cells(fit, counts)
    return pd.DataFrame(cells, index=pd.Index(names, name="player"), columns=names)


def los_table(fit: Fit) -> pd.DataFrame:
    """Likelihood of superiority of each row player over each column player, rank order."""
    order = rank_order(fit)
    names = [fit.players[k] for k in order]
    matrix = fit.los_matrix()[np.ix_(order, order)]
    return pd.DataFrame(matrix, index=pd.Index(names, name="player"), columns=names)


__all__ = ["RATING_COLUMNS", "ADVANTAGE_COLUMNS", "rank_order", "head_to_head", "ratings_table",
           "advantage_table", "crosstable", "los_table"]
