"""The viewer's per-ply data (results/page/replay_data.py): the site changes read from the
colour bitboards are those read from the positions, and a state's `position_keys` are its
position's keys, for seeded random games of every game, in the Python rules and the core."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import compiled, registry
from hexarena.engine.game import GameInfo, GameState
from hexarena.results.page import replay_data
from tests.support.differential import rules


def _games(info: GameInfo, seed: int) -> list[list[GameState]]:
    """Seeded random games of `info` at each of its recommended sizes and balances, every state."""
    rng = random.Random(seed)
    out = []
    for size in info.sizes[:2]:
        for balance in info.balances:
            state = info.new_game(info.variant(size, [balance]), 0)
            states = [state]
            while state.outcome() is None and state.ply < 120:
                state = state.play(state.random_action(rng))
                states.append(state)
            out.append(states)
    return out


def _implementations(game: str) -> list[GameInfo]:
    """The game's Python rules, and its core's when the core is installed."""
    if not compiled.implements(game):
        return [registry.get(game)]
    return list(rules(game))


@pytest.mark.parametrize("game", registry.playable())
def test_changes_from_bitboards_are_those_from_positions(game):
    for info in _implementations(game):
        if info.stacks:
            continue                          # stacks are always read from positions
        for seed in range(3):
            for states in _games(info, seed):
                board = states[0].board
                fast = list(replay_data._stone_changes(states))
                slow = list(replay_data._stack_changes(states, board.name))
                assert fast == slow
                assert len(fast) == len(states) and any(changed for changed, _ in fast[1:])


@pytest.mark.parametrize("game", registry.playable())
def test_position_keys_are_the_position_s_keys(game):
    for info in _implementations(game):
        for states in _games(info, 7):
            for state in states:
                assert state.position_keys() == state.to_position().keys
