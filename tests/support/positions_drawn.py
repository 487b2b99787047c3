"""Random well-formed position strings of any game (sides 2 and 3, any key values), for the tests
that take positions as written (tests/engine/test_positions_as_written.py) and the differential
test of the compiled core."""
from __future__ import annotations

import importlib
import random

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.geometry import hexagon
from hexarena.engine.position import Position, format_position

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
