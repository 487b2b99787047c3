"""Tiny (tests/support/tiny_game.py) with the faults an added game's own code can have, each
a GameInfo for ``HEXARENA_GAMES``:

* ``RULES``: Tiny under the id ``tiny-faulty``, whose rules raise ZeroDivisionError in `play`
  at ply 2 while the environment variable ``TINY_FAULT`` is ``play`` (read at every play, so
  one process may hold sound rules and another the faulty ones);
* ``UPPER``: Tiny under an id with capitals, which is no valid id.
"""
from __future__ import annotations

import dataclasses
import os

from hexarena.engine.actions import Action
from hexarena.engine.core import Colour
from hexarena.engine.game import GameInfo, Variant
from hexarena.engine.position import Position
from tests.support import tiny_game
from tests.support.tiny_game import KNOWLEDGE, TinyState  # noqa: F401 (the players' knowledge)

FAULT_SETTING = "TINY_FAULT"


class FaultyState(TinyState):
    __slots__ = ()

    def play(self, action: Action) -> FaultyState:
        if self.ply == 2 and os.environ.get(FAULT_SETTING) == "play":
            self.ply / 0                                   # the bug: a division by zero
        after = TinyState.play(self, action)
        return FaultyState(after.variant, after.to_move, after.ply, after.black, after.white)

    def to_position(self) -> Position:
        return dataclasses.replace(TinyState.to_position(self), game=RULES.id)


def new_game(variant: Variant, komi: int = 0) -> FaultyState:
    return FaultyState(variant, Colour.BLACK, 0, 0, 0)


def from_position(variant: Variant, pos: Position, keys: dict) -> FaultyState:
    return FaultyState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK), pos.bitboard(Colour.WHITE))


RULES: GameInfo = dataclasses.replace(tiny_game.RULES, id="tiny-faulty", title="Tiny (faulty)", sgf_number=1998,
                                      new_game=new_game, from_position=from_position)
FaultyState.info = RULES

UPPER: GameInfo = dataclasses.replace(tiny_game.RULES, id="Tiny-Upper", sgf_number=1997)
