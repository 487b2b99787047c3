"""The random player: the game's own random_action distribution."""
from __future__ import annotations

import random

from hexarena.engine.actions import Action
from hexarena.engine.game import GameState

from .base import Budget


def random_bot(state: GameState, rng: random.Random, budget: Budget = Budget()) -> Action:
    """``state.random_action(rng)``: uniform over the turn's choices (see GameState.random_action).

    ValueError when the game is over."""
    return state.random_action(rng)
