"""Readable test positions: `"B a1 / W c5 d5 e5"` on a board of side n."""
from __future__ import annotations

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.engine.geometry import hexagon
from hexarena.engine.position import Position, format_position


def stones(spec: str, n: int) -> dict[int, tuple[Colour, int]]:
    """Parse `B a1 b2 / W c3` (heights as `c3:2`) into a Position's stacks."""
    board = hexagon(n)
    out: dict[int, tuple[Colour, int]] = {}
    colour = None
    for tok in spec.replace("/", " ").split():
        if tok in ("B", "W"):
            colour = Colour(tok.lower())
            continue
        name, _, height = tok.partition(":")
        out[board.parse(name)] = (colour, int(height or 1))
    return out


def state(game: str, n: int, spec: str, to_move: str = "b", **keys: str) -> GameState:
    """A state of `game` through the position string, so tests exercise set_position's path."""
    info = registry.get(game)
    pos = Position(game, n, Colour(to_move), stones(spec, n), {k: str(v) for k, v in keys.items()})
    text = format_position(pos, info.position_defaults(), heights=info.stacks)
    return registry.from_position(text)
