"""Marbanta: stones and room (docs/rules/marbanta.md).

The player with no legal turn wins, so each side wants to run out of room
first. Black's advantage = stones (Black's minus White's: a side with more
stones down has filled more of its room) less ``FREE`` times the free sites
(Black's minus White's: empty sites next to no stone of that colour, where
its new groups can still go).

The weights are a logistic fit to the positions of the strength study's Marbanta
games (420 at n=7 and 9, 5-fold by game; docs/players.md
has the figures): the earlier evaluation, the side to move's legal roots
(greedy's measure), predicted nothing (log loss 0.69 in every phase, a
coin's), this one 0.66, 0.46, 0.38, 0.33 by quarter of the game
(`python -m lab.fit_evaluation docs/strength/marbanta-*/base docs/strength/marbanta-*/mcts`).
"""
from __future__ import annotations

from typing import cast

from hexarena.engine.game import StoneState
from hexarena.engine.games.marbanta.moves import free_sites, tables

from ..evaluators import Evaluation
from ..selection import Rave
from .knowledge import GameKnowledge

#: Black's advantage that makes an expected score of 1/(1+e^-1) (the fit: 0.161 a stone).
SCALE = 6.0
#: The weight of a free site against a stone (the fit: -0.084 against 0.161).
FREE = 0.52


def evaluate(state: StoneState) -> float:
    t, b, w = tables(state.variant.size), state.black, state.white
    free = free_sites(t, b, w).bit_count() - free_sites(t, w, b).bit_count()
    return (b.bit_count() - w.bit_count()) - FREE * free


#: MCTS: random playouts, selected by RAVE (it paid where the leaves are random playouts).
KNOWLEDGE = GameKnowledge(cast(Evaluation, evaluate), SCALE, selection=Rave())
