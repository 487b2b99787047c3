"""Positions for the players' tests: a game's start (referee.openings's `initial`) and a seeded
random walk from a state (`walk(state, plies, seed)`: bench.bench_mcts's `midgame`, the walk
its speed figures start from)."""
from __future__ import annotations

from bench.bench_mcts import midgame as walk
from hexarena.engine.game import GameState
from hexarena.referee.game.openings import initial

__all__ = ["new", "walk"]


def new(game: str, size: int, *tokens: str) -> GameState:
    """The start of `game` on `size` with the variant tokens given (e.g. "nopie"), komi 0."""
    return initial(game, size, " ".join(tokens))
