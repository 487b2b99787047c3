"""Anda: breaths, territory and group safety (docs/rules/anda.md).

Black's advantage = stones + territory + group safety (players.games.common),
each Black's minus White's, less half a point per komi pass White still has.

`candidates` gives MCTS a normal turn's legal actions in the order to try
them (players.games.common.placement_order: joining placements first, then
those next to an enemy stone, the rest and White's pass last).
"""
from __future__ import annotations

import random
from typing import cast

from hexarena.engine.actions import Action, Pass
from hexarena.engine.games.anda.state import AndaState

from ..evaluators import CutoffPlayout, Evaluation, Evaluator
from ..selection import UCT
from .common import placement_order, safety, stones
from .knowledge import Candidates, GameKnowledge

#: Black's advantage that makes an expected score of 1/(1+e^-1).
SCALE = 6.0


def evaluate(state: AndaState) -> float:
    b, w = state.black, state.white
    tb, tw, groups_b, groups_w = state.summary()
    score: float = (b.bit_count() - w.bit_count()) + (tb - tw)
    score += safety(groups_b) - safety(groups_w)
    return score - 0.5 * getattr(state, "komi", 0)


def candidates(state: AndaState, rng: random.Random) -> list[Action] | None:
    """A normal turn's legal actions, last first (see the module docstring); None in other
    phases (the caller then lists ``legal_actions``)."""
    sites = state.legal_cells()
    if not sites:
        return None
    own, enemy = stones(state, state.to_move), stones(state, state.to_move.other)
    others: list[Action] = [Pass()] if state.can_pass() else []
    return placement_order(state.board, own, enemy, sites, others, rng)


def evaluator(size: int) -> Evaluator:
    """MCTS's leaf value: random plies, then `evaluate`. Anda's random playouts are long and
    noisy; 40 plies from n=9 on (the closures that decide those games get played out: 10 scored
    about 70% against greedy in-process, 40 won 24 of 24), 10 at n=7 (docs/players.md, "n=9
    against greedy"). Its doubling of the time is open ("The doubling")."""
    return CutoffPlayout(cast(Evaluation, evaluate), depth=40 if size >= 9 else 10, scale=SCALE)


#: Leaves valued by a squashed evaluation differ by little (one stone ~0.04): UCT's default
#: exploration of 1 spreads the visits evenly over the root's children, 0.3 lets the best
#: stand out. Progressive widening in the candidates' order pays (docs/players.md, Anda).
KNOWLEDGE = GameKnowledge(cast(Evaluation, evaluate), SCALE, evaluator=evaluator, selection=UCT(0.3),
                          candidates=cast(Candidates, candidates), narrow=True)
