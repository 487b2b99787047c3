"""Positions for the players' tests: a game's start, and a seeded random walk from a state."""
from __future__ import annotations

import random

from hexarena.engine import registry
from hexarena.engine.game import GameState


def new(game: str, size: int, *tokens: str) -> GameState:
    """The start of `game` on `size` with the variant tokens given (e.g. "nopie")."""
    info = registry.get(game)
    return info.new_game(info.variant(size, list(tokens)), 0)


def walk(state: GameState, plies: int, seed: int) -> GameState:
    """The state after up to `plies` seeded random actions from `state` (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = state.play(state.random_action(rng))
    return state
