"""Anda-prison: liberties, territory and the prison (docs/rules/anda-prison.md).

Black's advantage = the agreement score (territory + enemy stones in the
prison) + stones on the board + liberty safety (players.games.common), each
Black's minus White's.

`candidates` is MCTS's cheap superset of a normal turn's legal actions: a
placement on every empty site (legal or not: MCTS tests each one only when
it would expand it, one resolution instead of one per empty site a node),
the release and the proposal when the rules offer them, ordered so that
joining moves (which win at once when they leave the opponent without a
legal placement) are tried first.
"""
from __future__ import annotations

import random
from typing import cast

from hexarena.engine.actions import Action, Propose, Release
from hexarena.engine.core import Colour
from hexarena.engine.games.anda_prison.phases import Phase
from hexarena.engine.games.anda_prison.state import AndaPrisonState

from ..evaluators import Evaluation, StaticEvaluation
from ..selection import UCT
from .common import placement_order, safety, stones
from .knowledge import Candidates, GameKnowledge

SCALE = 6.0


def evaluate(state: AndaPrisonState) -> float:
    b, w = state.black, state.white
    tb, tw, groups_b, groups_w = state.summary()
    prison = getattr(state, "prison_white", 0) - getattr(state, "prison_black", 0)
    score = (tb - tw) + prison + 0.5 * (b.bit_count() - w.bit_count())
    return score + safety(groups_b) - safety(groups_w)


def candidates(state: AndaPrisonState, rng: random.Random) -> list[Action] | None:
    """Every action of a normal turn and maybe some illegal placements, in the order MCTS
    should try them *last first* (it pops from the end); None in other phases (the caller
    then lists ``legal_actions``).

    Order: the rest (shuffled), then the placements next to an enemy stone (captures), then
    those joining two or more of the mover's groups (the usual way to leave the opponent
    no legal placement, a win at once: tried first, the solver sees it early)."""
    if not state.normal:
        return None
    board = state.board
    own, enemy = stones(state, state.to_move), stones(state, state.to_move.other)
    others: list[Action] = []
    if (state.prison_white if state.to_move is Colour.BLACK else state.prison_black) > 0:
        others.append(Release())
    if state.phase is Phase.PLAY:
        others.append(Propose())
    return placement_order(board, own, enemy, board.mask & ~(own | enemy), others, rng)


#: Neither random playouts nor random plies before the evaluation pay: the evaluation alone.
#: UCT at 0.3 and progressive widening in the candidates' order, as in Anda (docs/players.md,
#: Anda-prison).
KNOWLEDGE = GameKnowledge(cast(Evaluation, evaluate), SCALE,
                          evaluator=lambda size: StaticEvaluation(cast(Evaluation, evaluate), SCALE),
                          selection=UCT(0.3), candidates=cast(Candidates, candidates), narrow=True)
