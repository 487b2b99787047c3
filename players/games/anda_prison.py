"""Anda-prison: liberties, territory and the prison (RULES.md section 3).

Black's advantage = the agreement score (territory + enemy stones in the
prison) + stones on the board + liberty safety (players.games.common), each
Black's minus White's.
"""
from __future__ import annotations

from hexarena.engine.games.anda_prison.state import AndaPrisonState

from .common import group_safety, regions, territory

SCALE = 6.0


def evaluate(state: AndaPrisonState) -> float:
    board, b, w = state.board, state.black, state.white
    regs = regions(board, b, w)
    tb, tw = territory(board, regs, b, w)
    prison = getattr(state, "prison_white", 0) - getattr(state, "prison_black", 0)
    score = (tb - tw) + prison + 0.5 * (b.bit_count() - w.bit_count())
    return score + group_safety(board, regs, b, w) - group_safety(board, regs, w, b)
