"""Anda: breaths, territory and group safety (RULES.md section 2).

Black's advantage = stones + territory + group safety (players.games.common),
each Black's minus White's, less half a point per komi pass White still has.
"""
from __future__ import annotations

from hexarena.engine.games.anda.state import AndaState

from .common import group_safety, regions, territory

#: Black's advantage that makes an expected score of 1/(1+e^-1).
SCALE = 6.0


def evaluate(state: AndaState) -> float:
    board, b, w = state.board, state.black, state.white
    regs = regions(board, b, w)
    tb, tw = territory(board, regs, b, w)
    score: float = (b.bit_count() - w.bit_count()) + (tb - tw)
    score += group_safety(board, regs, b, w) - group_safety(board, regs, w, b)
    return score - 0.5 * getattr(state, "komi", 0)
