"""Anda-prison: liberties, territory and the prison (RULES.md section 3).

Black's advantage = the agreement score (territory + enemy stones in the
prison) + stones on the board + liberty safety (players.games.common), each
Black's minus White's.

`candidates` is MCTS's cheap superset of a normal turn's legal actions: a
placement on every empty site (legal or not: MCTS tests each one only when
it would expand it, one resolution instead of one per empty site a node),
then the release and the proposal when the rules offer them.
"""
from __future__ import annotations

from hexarena.engine.actions import Action, Place, Propose, Release
from hexarena.engine.core import Colour
from hexarena.engine.games.anda_prison.phases import Phase
from hexarena.engine.games.anda_prison.state import AndaPrisonState
from hexarena.engine.geometry import iter_bits

from .common import group_safety, regions, territory

SCALE = 6.0


def evaluate(state: AndaPrisonState) -> float:
    board, b, w = state.board, state.black, state.white
    regs = regions(board, b, w)
    tb, tw = territory(board, regs, b, w)
    prison = getattr(state, "prison_white", 0) - getattr(state, "prison_black", 0)
    score = (tb - tw) + prison + 0.5 * (b.bit_count() - w.bit_count())
    return score + group_safety(board, regs, b, w) - group_safety(board, regs, w, b)


def candidates(state: AndaPrisonState) -> list[Action] | None:
    """Every action of a normal turn and maybe some illegal placements; None in other phases
    (the caller then lists ``legal_actions``)."""
    if not state.normal:
        return None
    empty = state.board.mask & ~(state.black | state.white)
    out: list[Action] = [Place(s) for s in iter_bits(empty)]
    if (state.prison_white if state.to_move is Colour.BLACK else state.prison_black) > 0:
        out.append(Release())
    if state.phase is Phase.PLAY:
        out.append(Propose())
    return out
