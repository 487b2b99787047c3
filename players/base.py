"""What a bot is: a function of a state, injected randomness and a budget.

A bot never touches global random state, the clock or I/O; it returns one
action of ``state.legal_actions()`` (or ``Resign``). ValueError when the
game is already over.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from hexarena.engine.actions import Action
from hexarena.engine.game import GameState


@dataclass(frozen=True)
class Budget:
    """How much a bot may spend on one move (None: unknown).

    `seconds`: left on its clock; `move_seconds`: the serving loop's share of
    the clock for this move (players/clock.py), which a timed bot never exceeds.
    """

    seconds: float | None = None
    move_seconds: float | None = None


Bot = Callable[[GameState, random.Random, Budget], Action]
