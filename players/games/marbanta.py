"""Marbanta: sight and the opponent's remaining turns (RULES.md section 6).

The player with no legal turn wins, so the player who just moved wants the
player to move to keep turns. The evaluation is the number of legal roots of
the side to move (its sites that see a friendly group and have room,
``legal_cells``), counted for the player who moved last: Black's advantage
is that count when White is to move and minus it when Black is.

Measured and rejected (12 games each against greedy at n=7): adding each
colour's own potential roots against it (players.games.common.sight, the
room check left out) as a zero-sum difference scored 4 of 12 at weight 1 and
0.3, and 0 of 12 when the own roots counted in one's favour. So this
evaluation is greedy's measure, and `heuristic` plays Marbanta as greedy does.
"""
from __future__ import annotations

from hexarena.engine.core import Colour
from hexarena.engine.game import GameState

SCALE = 5.0


def evaluate(state: GameState) -> float:
    roots = state.legal_cells().bit_count()
    return float(roots) if state.to_move is Colour.WHITE else -float(roots)
