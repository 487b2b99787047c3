"""Marbanta for tests: readable positions."""
from __future__ import annotations

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.geometry import hexagon
from hexarena.engine.games.marbanta.state import RULES, MarbantaState
from hexarena.engine.position import Position, format_position


def board(spec: str, n: int = 5, to_move: str = "b", **keys: str) -> MarbantaState:
    """A state from `"B e5 c3 / W a1"` (either part may be missing), through the position string."""
    geo = hexagon(n)
    stacks = {}
    for part in spec.split("/"):
        words = part.split()
        if not words:
            continue
        colour = Colour(words[0].lower())
        for name in words[1:]:
            stacks[geo.parse(name)] = (colour, 1)
    text = format_position(Position("marbanta", n, Colour(to_move), stacks, dict(keys)), RULES.position_defaults())
    state = registry.from_position(text)
    assert isinstance(state, MarbantaState)
    return state
