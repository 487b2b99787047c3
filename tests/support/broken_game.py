"""Broken: Tiny's rules (tests/support/tiny_game.py) under the id `broken`, whose legal_actions
also lists the sites Black occupies (play refuses them): what `hexarena check --rules broken`
must find, added through ``HEXARENA_GAMES=tests.support.broken_game:RULES``.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from hexarena.engine.actions import Action, Place
from hexarena.engine.core import Colour
from hexarena.engine.game import GameInfo, Variant
from hexarena.engine.geometry import iter_bits
from hexarena.engine.position import Position, count_key, pair_key, phase_key

from . import tiny_game


@dataclass(frozen=True, slots=True)
class BrokenState(tiny_game.TinyState):
    info: ClassVar[GameInfo]

    def legal_actions(self) -> Iterator[Action]:
        listed = self._open() | (self.black if self._open() else 0)
        return (Place(bit) for bit in self.board.sorted_sites(iter_bits(listed)))


def new_game(variant: Variant, komi: int = 0) -> BrokenState:
    return BrokenState(variant, Colour.BLACK, 0, 0, 0)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> BrokenState:
    return BrokenState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK), pos.bitboard(Colour.WHITE))


RULES = replace(tiny_game.RULES, id="broken", title="Broken", sgf_number=1997, new_game=new_game,
                from_position=from_position, rules_page=None,
                keys=(phase_key("broken", tiny_game.Phase, tiny_game.Phase.PLAY), pair_key("largest"),
                      count_key("ply")))
BrokenState.info = RULES
