"""Spelde: splittable groups and mobility (docs/rules/spelde.md).

A site is open to a colour when it is empty and every adjacent enemy group
is splittable (literal rule: two non-adjacent stones, i.e. not a single
stone, a pair or a triangle). The player with no placement loses, so the
evaluation is mobility: Black's open sites minus White's, with sites open
to one colour only counted double (the other cannot take them away by
playing there). `policy` is an informed playout policy (the best of
``POLICY_DRAWS`` random actions by that evaluation); MCTS does not use it,
since valuing the leaf by the evaluation alone measured far better
(docs/players.md). MCTS selects with UCT at exploration 0.1 there:
one exclusive site moves the squashed value by only ~0.16, so a larger
exploration spreads the visits evenly over the placements.
"""
from __future__ import annotations

import random
from typing import cast

from hexarena.engine.actions import Action
from hexarena.engine.games.spelde.state import SpeldeState

from ..evaluators import Evaluation, StaticEvaluation
from ..selection import UCT
from .common import sign
from .knowledge import GameKnowledge

SCALE = 3.0
#: Random actions compared by the playout policy.
POLICY_DRAWS = 3


def evaluate(state: SpeldeState) -> float:
    ob, ow = state.open_sites()
    return (ob.bit_count() - ow.bit_count()) + ((ob & ~ow).bit_count() - (ow & ~ob).bit_count())


def policy(state: SpeldeState, rng: random.Random) -> Action:
    """The best of a few random actions for the mover by `evaluate` (a win at once first)."""
    mover = state.to_move
    best, best_value = None, None
    for _ in range(POLICY_DRAWS):
        action = state.random_action(rng)
        child = state.play(action)
        if child.outcome() is not None:
            return action
        value = sign(mover) * evaluate(child)
        if best_value is None or value > best_value:
            best, best_value = action, value
    assert best is not None                 # POLICY_DRAWS >= 1: the first draw is always kept
    return best


#: Spelde's playouts, random or informed, misjudge it: the evaluation alone, selected by UCT
#: at exploration 0.1 (see the module docstring).
KNOWLEDGE = GameKnowledge(cast(Evaluation, evaluate), SCALE,
                          evaluator=lambda size: StaticEvaluation(cast(Evaluation, evaluate), SCALE),
                          selection=UCT(0.1))
