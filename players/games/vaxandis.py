"""Vaxandis: mobility, heights and frozen stacks (RULES.md section 5).

A stack is frozen next to a higher enemy stack; the player with no action
loses. Black's advantage = stacks + unfrozen stacks (each a source of
moves) + enemy stacks frozen (half weight) + a tenth of the height
difference of the tallest stacks (tall stacks freeze and block), each
Black's minus White's. Counting the stacks themselves (placements while
there is room) raised the score against greedy from 12.5 to 19 of 20 games
at n=4 and from 6.5 to 7 of 10 at n=5; exact mobility of the side to move
made it worse (10 and 5).
Heights come from the state's public height table ``levels``.
"""
from __future__ import annotations

from hexarena.engine.games.vaxandis.state import VaxandisState

SCALE = 3.0


def evaluate(state: VaxandisState) -> float:
    board, b, w = state.board, state.black, state.white
    frozen_b = frozen_w = 0
    taller = 0                                    # sites of stacks taller than the current level
    for _, bb in reversed(state.levels):        # tallest first
        frozen_b |= bb & b & board.expand(taller & w)
        frozen_w |= bb & w & board.expand(taller & b)
        taller |= bb
    unfrozen = (b & ~frozen_b).bit_count() - (w & ~frozen_w).bit_count()
    frozen = frozen_w.bit_count() - frozen_b.bit_count()
    top_b = max((h for h, bb in state.levels if bb & b), default=0)
    top_w = max((h for h, bb in state.levels if bb & w), default=0)
    stacks = b.bit_count() - w.bit_count()
    return stacks + unfrozen + 0.5 * frozen + 0.1 * (top_b - top_w)
