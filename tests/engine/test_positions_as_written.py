"""Any well-formed position is taken as written, and the rules then answer every query for it.

Seeded random positions (random stones, side to move, phase and key values, reachable or
not) for every game: each loads, prints back, and keeps the generic state contract
(tests.support.playthrough.check_state: actions listed iff the game goes on, each listed
action accepted, no mutation), and a random action, when there is one, is legal.
"""
from __future__ import annotations

import random

import pytest

from hexarena.engine import registry

from tests.support.playthrough import check_state
from tests.support.positions_drawn import random_position

@pytest.mark.parametrize("game", registry.playable())
def test_any_well_formed_position_answers_by_the_rules(game: str) -> None:
    rng = random.Random(game)
    over = going = 0
    for _ in range(150):
        text = random_position(game, rng)
        state = registry.from_position(text)
        assert state.position() == text
        actions = check_state(state, rng)
        if actions:
            going += 1
            action = state.random_action(rng)
            assert state.is_legal(action), (text, action)
        else:
            over += 1
            with pytest.raises(ValueError):
                state.random_action(rng)
    assert over and going, (over, going)
