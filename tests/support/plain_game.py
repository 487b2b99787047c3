"""Plain: Tiny's rules (tests/support/tiny_game.py) under the id `plain`, added through
``HEXARENA_GAMES=tests.support.plain_game:RULES``, in a module that declares no ``KNOWLEDGE``:
the heuristic player, which needs the game's evaluation, does not list it; random, greedy and
MCTS (with its defaults: random playouts, UCT) play it. It has no rules page.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from hexarena.engine.core import Colour
from hexarena.engine.game import GameInfo, Variant
from hexarena.engine.position import Position, count_key, pair_key, phase_key

from . import tiny_game


@dataclass(frozen=True, slots=True)
class PlainState(tiny_game.TinyState):
    info: ClassVar[GameInfo]


def new_game(variant: Variant, komi: int = 0) -> PlainState:
    return PlainState(variant, Colour.BLACK, 0, 0, 0)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> PlainState:
    return PlainState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK), pos.bitboard(Colour.WHITE))


RULES = replace(tiny_game.RULES, id="plain", title="Plain", sgf_number=1998, new_game=new_game,
                from_position=from_position, rules_page=None,
                keys=(phase_key("plain", tiny_game.Phase, tiny_game.Phase.PLAY), pair_key("largest"), count_key("ply")))
PlainState.info = RULES
