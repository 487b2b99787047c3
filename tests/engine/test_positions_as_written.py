"""Any well-formed position is taken as written, and the rules then answer every query for it.

Seeded random positions (random stones, side to move, phase and key values, reachable or
not) for every game: each loads, prints back, and keeps the generic state contract
(tests.support.playthrough.check_state: actions listed iff the game goes on, each listed
action accepted, no mutation), and a random action, when there is one, is legal.
"""
from __future__ import annotations

import importlib
import random

import pytest

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.geometry import hexagon
from hexarena.engine.position import Position, format_position

from tests.support.playthrough import check_state

#: Values to draw for each key kind (by key name); phases come from the game's declaration.
VALUES = {"komi": ("0", "1", "3"), "prison": ("0,0", "1,0", "0,2", "3,1"), "first": ("-", "b", "w", "bw"),
          "annihilated": ("-", "b", "w", "bw"), "last": ("-", "b", "w"), "ply": ("0", "5")}


def random_position(game: str, rng: random.Random) -> str:
    info = registry.get(game)
    n = rng.choice((2, 3))
    board = hexagon(n)
    fill = rng.random()
    stacks = {}
    for s in board.sites:
        if rng.random() < fill * 0.8:
            stacks[s] = (rng.choice((Colour.BLACK, Colour.WHITE)), rng.randint(1, 4) if info.stacks else 1)
    keys = {"variant": rng.choice(info.balances)}
    for key in info.keys:
        if key.name == "phase":
            keys["phase"] = rng.choice(phases(game))
        elif rng.random() < 0.5:
            keys[key.name] = rng.choice(VALUES[key.name])
    pos = Position(game, n, rng.choice((Colour.BLACK, Colour.WHITE)), stacks, keys)
    return format_position(pos, info.position_defaults(), heights=info.stacks)


def phases(game: str) -> list[str]:
    """The protocol words of the game's Phase (every game's state module defines one)."""
    module = importlib.import_module(f"hexarena.engine.games.{registry.GAME_MODULES[game]}.state")
    return [p.value for p in module.Phase]


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
