"""What the viewer's per-ply data (results/page/replay_data.py) reads of each state: a state's
`changes` since the state before (each game's own, cheaper reading) are those its positions
give (GameState.changes), and its `position_keys` are its position's keys, for seeded
random games of every game, in the Python rules and the core; and the changed sites' texts
(`site_changes`, read from the colour bitboards for the games of stones) are those the
positions give."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import compiled, registry
from hexarena.engine.game import GameInfo, GameState
from hexarena.results.page.replay_data import site_changes, site_text
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
def test_each_game_s_changes_are_those_its_positions_give(game):
    for info in _implementations(game):
        compared = 0
        for seed in range(3):
            for states in _games(info, seed):
                before = None
                for state in states:
                    assert state.changes(before) == GameState.changes(state, before)
                    compared += bool(state.changes(before))
                    before = state
        assert compared > 100


@pytest.mark.parametrize("game", registry.playable())
def test_position_keys_are_the_position_s_keys(game):
    for info in _implementations(game):
        for states in _games(info, 7):
            for state in states:
                assert state.position_keys() == state.to_position().keys


def _changed_as_positions_say(states: list[GameState]) -> list[tuple[str, int]]:
    """site_changes' answer from each position (GameState.changes: `to_position` compared)."""
    out, before = [], None
    for state in states:
        changes = GameState.changes(state, before)
        bits = state.board.sorted_sites(changes)
        out.append((" ".join(state.board.name(b) + (site_text(changes[b][0].value, changes[b][1], state.info.stacks)
                                                    if changes[b] else "") for b in bits),
                    sum(1 << b for b in bits)))
        before = state
    return out


@pytest.mark.parametrize("game", registry.playable())
def test_the_changed_sites_texts_are_those_the_positions_give(game):
    for info in _implementations(game):
        for seed in range(2):
            for states in _games(info, seed):
                assert site_changes(states) == _changed_as_positions_say(states)
