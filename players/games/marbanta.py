"""Marbanta: sight and the opponent's remaining turns (RULES.md section 6).

The player with no legal turn wins, so a player wants few turns of its own
and many for the opponent. A colour's potential roots are the empty sites
not next to its stones that see one of its stones (players.games.common.sight;
the room check is left out). Black's advantage = White's roots - Black's.
"""
from __future__ import annotations

from hexarena.engine.game import GameState

from .common import sight

SCALE = 5.0


def evaluate(state: GameState) -> float:
    board, b, w = state.board, state.black, state.white
    empty = board.mask & ~(b | w)
    roots_b = sight(board, b, w) & empty & ~board.expand(b)
    roots_w = sight(board, w, b) & empty & ~board.expand(w)
    return roots_w.bit_count() - roots_b.bit_count()
