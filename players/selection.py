"""Selection rules of MCTS: the score of a visited, unsolved child during the descent.

A rule is called as ``rule(parent, child)`` and returns a number; the search
descends into the child with the highest score (unvisited children first,
solved children at their exact value, see players/mcts.py). Statistics are
from the perspective of the colour the child's mover holds: ``wins/visits``
is its mean score in [0, 1].

* :class:`UCT` (the default): UCB1, ``mean + c * sqrt(ln N / n)``.
* :class:`Rave`: UCT blended with the all-moves-as-first statistics of the
  child's action (``amaf_wins/amaf_visits``, gathered by the search when
  ``rule.uses_amaf``), weighted by Silver's ``beta = k / (k + 3n)`` schedule
  (the AMAF share fades as the child's own visits grow past `equivalence`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol


class Stats(Protocol):
    visits: int
    wins: float
    amaf_visits: int
    amaf_wins: float


class Selection(Protocol):
    # read-only, so that frozen dataclasses (UCT, Rave) satisfy the protocol
    @property
    def uses_amaf(self) -> bool: ...

    def __call__(self, parent: Stats, child: Stats) -> float: ...


@dataclass(frozen=True)
class UCT:
    """UCB1 with exploration constant `exploration` (rewards in [0, 1])."""

    exploration: float = 1.0
    uses_amaf: bool = False

    def __call__(self, parent: Stats, child: Stats) -> float:
        return (child.wins / child.visits
                + self.exploration * math.sqrt(math.log(max(parent.visits, 1)) / child.visits))


@dataclass(frozen=True)
class Rave:
    """UCT whose mean is blended with the AMAF mean (Gelly and Silver's RAVE)."""

    exploration: float = 0.5
    equivalence: float = 300.0
    uses_amaf: bool = True

    def __call__(self, parent: Stats, child: Stats) -> float:
        n = child.visits
        mean = child.wins / n
        if child.amaf_visits:
            beta = self.equivalence / (self.equivalence + 3.0 * n)
            mean = (1.0 - beta) * mean + beta * child.amaf_wins / child.amaf_visits
        return mean + self.exploration * math.sqrt(math.log(max(parent.visits, 1)) / n)


__all__ = ["Selection", "UCT", "Rave"]
