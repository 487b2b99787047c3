"""Seeded random playthroughs that check the generic state contract at every ply.

Every game's tests call :func:`playthrough`; game-specific invariants go in
the `extra` callback.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from itertools import islice

from hexarena.engine import registry
from hexarena.engine.actions import Place
from hexarena.engine.game import GameState

ENUMERATION_CAP = 5000


def check_state(state: GameState, rng: random.Random) -> list:
    """Check one state; return its legal actions (at most ENUMERATION_CAP + 1 of them)."""
    outcome = state.outcome()
    actions = list(islice(state.legal_actions(), ENUMERATION_CAP + 1))
    assert (not actions) == (outcome is not None), (state.position(), outcome, actions[:5])
    assert len(set(actions)) == len(actions), "duplicate actions"
    text = state.position()
    again = registry.from_position(text)
    assert again.position() == text
    assert again == state and hash(again) == hash(state), text
    complete = len(actions) <= ENUMERATION_CAP
    sample = actions if len(actions) <= 200 else rng.sample(actions, 200)
    before = hash(state)
    for action in sample:
        token = state.format(action)
        assert state.parse(token) == action, token
        assert state.parse(token.upper()) == action, token
        state.play(action)                      # every listed action is accepted
    assert state.position() == text and hash(state) == before, "play mutated the state"
    if complete:
        listed = set(actions)
        for bit in state.board.sites:          # single placements: listed iff accepted
            place = Place(bit)
            if place in listed:
                continue
            assert not state.is_legal(place), f"{state.format(place)} accepted but not listed in {text}"
    return actions


def playthrough(state: GameState, seed: int, max_plies: int = 10_000,
                extra: Callable[[GameState, GameState | None], None] | None = None) -> GameState:
    """Play random_action until the game ends or max_plies; check every state on the way."""
    rng = random.Random(seed)
    parent = None
    for _ in range(max_plies):
        if extra is not None:
            extra(state, parent)
        actions = check_state(state, rng)
        if not actions:
            break
        action = state.random_action(rng)
        if len(actions) <= ENUMERATION_CAP:
            assert action in set(actions), state.format(action)
        parent, state = state, state.play(action)
    return state
