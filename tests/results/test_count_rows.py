"""`count_rows` (the HTML report's counts, numpy only) gives what `aggregate` gives from the
frame of the same rows (tests/test_lazy_imports.py: the report loads no pandas)."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np

from hexarena.results.rating.counts import Counts, aggregate, count_rows
from hexarena.results.rating.load import frame_from_rows
from hexarena.results.record.game import FORFEIT_KINDS


def _rows(rng: random.Random, games: int) -> list[tuple]:
    """Random rows over a few pools: draws, forfeits (some blamed on no player), a winner
    who is neither player, names that only ever win."""
    names = ["ann", "bob", "cy", "dee", "eve"]
    pools = [("spelde", 5), ("spelde", 6), ("anda", 7), ("vaxandis", 4)]
    rows = []
    for _ in range(games):
        first, second = rng.sample(names, 2)
        game, size = rng.choice(pools)
        winner = rng.choice([first, second, first, second, None, "ghost"])
        kind = rng.choice(["", "", "", *FORFEIT_KINDS])
        faulty = rng.choice([first, second, "nobody"]) if kind else ""
        rows.append((game, size, first, second, winner, "no-moves", kind, faulty))
    return rows


def _same(a: Counts, b: Counts) -> None:
    assert a.players == b.players and a.pools == b.pools
    for name in ("first", "second", "pool", "wins", "losses", "draws", "forfeits"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_count_rows_is_aggregate_of_the_frame():
    rng = random.Random(3)
    for games in (1, 2, 7, 40, 300):
        for _ in range(5):
            rows = _rows(rng, games)
            _same(count_rows(rows), aggregate(frame_from_rows(rows)))


def test_a_player_who_only_appears_as_winner_of_another_pool_is_dropped_alike():
    rows = [("spelde", 5, "a", "b", "c", "", "", ""), ("spelde", 5, "b", "a", "a", "", "time", "b")]
    _same(count_rows(rows), aggregate(frame_from_rows(rows)))


def test_distinct_rows_with_their_counts_are_the_games_they_stand_for():
    rng = random.Random(5)
    for games in (1, 9, 300):
        rows = _rows(rng, games)
        distinct = Counter(rows)
        _same(count_rows(list(distinct), list(distinct.values())), count_rows(rows))
