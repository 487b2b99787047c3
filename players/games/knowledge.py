"""What the generic players know of one game: `GameKnowledge`, declared by each game's module.

Every ``players/games/<module>.py`` (``<module>`` the game's package name in
engine/registry.py's GAME_MODULES) declares ``KNOWLEDGE = GameKnowledge(...)``:
its evaluation for the `heuristic` player and MCTS's evaluator, selection rule,
candidate order and widening for that game.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from hexarena.engine.actions import Action
from hexarena.engine.game import GameState

from ..evaluators import Evaluator, RandomPlayout
from ..selection import UCT, Selection

#: A candidate lister: (state, rng) -> the candidates in the order to try them, last first
#: (shuffled by the rng where the game has no preference), or None (list the legal ones).
Candidates = Callable[[GameState, random.Random], "list[Action] | None"]


def random_playouts(size: int) -> Evaluator:
    """Uniform random playouts at every board size: MCTS's evaluator unless a game says otherwise."""
    return RandomPlayout()


@dataclass(frozen=True)
class GameKnowledge:
    """One game's settings for the generic players.

    * `evaluate`: Black's advantage in a state that is not over (0: even; its unit about one
      stone or site); the `heuristic` player maximises it one ply deep.
    * `scale`: the advantage worth an expected score of ``1/(1+e^-1)``.
    * `evaluator`: MCTS's leaf evaluator, made for a board size (random playouts unless said).
    * `selection`: MCTS's selection rule (UCT at exploration 1 unless said).
    * `candidates`: MCTS's candidates for a node, most promising first (a cheap superset of
      the legal actions where listing the legal ones costs much more than testing one:
      players/mcts.py tests each candidate on expansion); None: the legal actions.
    * `narrow`: MCTS grows a listed inner node by progressive widening in the candidates'
      order instead of expanding every child before looking deeper.
    """

    evaluate: Callable[[GameState], float]
    scale: float
    evaluator: Callable[[int], Evaluator] = random_playouts
    selection: Selection = UCT()
    candidates: Candidates | None = None
    narrow: bool = False

    def __post_init__(self) -> None:
        if not self.scale > 0:
            raise ValueError(f"a game's evaluation scale must be positive, got {self.scale}")
