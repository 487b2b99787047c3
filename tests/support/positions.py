"""Positions for the players' tests: a game's start (referee.openings's `initial`) and a seeded
random walk from a state (`walk(state, plies, seed)`: uniform random actions from the seed's rng)."""
from __future__ import annotations

import random

from hexarena.engine.game import GameState
from hexarena.referee.game.openings import initial

__all__ = ["new", "walk"]


def new(game: str, size: int, *tokens: str) -> GameState:
    """The start of `game` on `size` with the variant tokens given (e.g. "nopie"), komi 0."""
    return initial(game, size, " ".join(tokens))


def walk(state: GameState, plies: int, seed: int = 4) -> GameState:
    """`state` after up to `plies` random actions drawn by ``random.Random(seed)`` (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = state.play(state.random_action(rng))
    return state
