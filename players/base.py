"""What a bot is: a function of a state, injected randomness and a budget.

A bot never touches global random state, the clock or I/O; it returns one
action of ``state.legal_actions()`` (or ``Resign``). ValueError when the
game is already over.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


class Player:
    """A bot playing one game move after move: a bot with a ``search`` method (MCTS) gets
    back the tree of its last search, so the subtree of the actions played since is
    reused, as the served engine does (players/serve.py); any other bot is called as is.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.search: Callable[..., Any] | None = getattr(bot, "search", None)
        self.tree: Any = None
        self.result: Any = None     # the last search's result (players/mcts.py SearchResult)

    def __call__(self, state: GameState, rng: random.Random, budget: Budget = Budget()) -> Action:
        if self.search is None:
            return self.bot(state, rng, budget)
        result = self.search(state, rng, budget, self.tree)
        self.tree, self.result = result.tree, result
        return result.action

    def forget(self) -> None:
        """Search afresh from the next move on (a new game, a new seed)."""
        self.tree = self.result = None
