"""The hexagon's 12 symmetries: distinct, adjacency kept, and games played the same under each."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import registry
from hexarena.engine.geometry import hexagon
from hexarena.engine.symmetry import map_token, site_maps


@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_twelve_distinct_maps_that_keep_adjacency_and_the_perimeter(n):
    board = hexagon(n)
    maps = site_maps(n)
    assert len({tuple(sorted(m.items())) for m in maps}) == 12
    assert all(v == k for k, v in maps[0].items())
    bits = board.sites
    for m in maps:
        assert sorted(m.values()) == sorted(m)                       # a permutation of the sites
        for b in bits:
            a = board.parse(m[board.name(b)])
            neighbours = set(board.names(board.adjacent(1 << b)))
            assert {m[x] for x in neighbours} == set(board.names(board.adjacent(1 << a)))
            assert (board.feature(b) is None) == (board.feature(a) is None)


@pytest.mark.parametrize("game", registry.playable())
def test_a_game_mapped_by_each_symmetry_is_legal_and_ends_the_same(game):
    info = registry.get(game)
    n = min(info.sizes)
    rng = random.Random(game)
    for k, table in enumerate(site_maps(n)):
        state = image = info.new_game(info.variant(n), 0)
        for _ in range(40):
            if state.outcome() is not None:
                break
            action = state.random_action(rng)
            token = state.format(action)
            state = state.play(action)
            image = image.play(image.parse(map_token(token, table)))
        assert (image.outcome() is None) == (state.outcome() is None), (game, k)
        if state.outcome() is not None:
            assert image.outcome().winner == state.outcome().winner
        assert image.to_move == state.to_move
