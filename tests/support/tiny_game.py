"""Tiny, a toy game kept outside engine/ and added through ``HEXARENA_GAMES``
(docs/architecture.md, "A sixth game"): ``HEXARENA_GAMES=tests.support.tiny_game:RULES``.

Rules: Black and White place one stone a turn on any empty site. A colour whose
group (sites joined by adjacency) reaches n + 2 stones on a board of side n wins at
once: the game's goal, ending `goal`. When the board fills first, the colour whose
largest group is larger wins, equal largest groups draw (ending `no-moves`).
Drawn as the points of a triangular grid, with the position key `largest` (each
colour's largest group, written by the rules after every placement) shown under
the board; its rules page, shown by `hexarena play`, is tiny_game.md beside it.
Its ``KNOWLEDGE`` (for the heuristic player and MCTS) sits beside its GameInfo.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

from hexarena.engine.actions import Action, Place
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.engine.errors import IllegalMove
from hexarena.engine.game import GameInfo, StoneState, Variant
from hexarena.engine.geometry import hexagon, iter_bits, nth_bit
from hexarena.engine.position import Position, count_key, pair_key, phase_key
from hexarena.players.games.knowledge import GameKnowledge


class Phase(StrEnum):
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class TinyState(StoneState):
    info: ClassVar[GameInfo]

    def _empty(self) -> int:
        return self.board.mask & ~(self.black | self.white)

    def largest(self, colour: Colour) -> int:
        stones = self.black if colour is Colour.BLACK else self.white
        return max((c.bit_count() for c in self.board.components(stones)), default=0)

    def goal_reached(self) -> bool:
        """The last mover's largest group has the goal's size (only the last placement can make it)."""
        return self.largest(self.to_move.other) >= goal_size(self.variant.size)

    def _open(self) -> int:
        """The empty sites, none once the goal is reached."""
        return 0 if self.goal_reached() else self._empty()

    def legal_cells(self) -> int:
        return self._open()

    def legal_actions(self) -> Iterator[Action]:
        return (Place(bit) for bit in self.board.sorted_sites(iter_bits(self._open())))

    def outcome(self) -> Outcome | None:
        if self.goal_reached():
            return Outcome(self.to_move.other, Termination.GOAL)
        if self._empty():
            return None
        black, white = self.largest(Colour.BLACK), self.largest(Colour.WHITE)
        winner = None if black == white else Colour.BLACK if black > white else Colour.WHITE
        return Outcome(winner, Termination.NO_MOVES)

    def random_action(self, rng: random.Random) -> Action:
        empty = self._open()
        if not empty:
            raise ValueError("the game is over")
        return Place(nth_bit(empty, rng.randrange(empty.bit_count())))

    def play(self, action: Action) -> TinyState:
        if type(action) is not Place or not self._open() >> action.cell & 1:
            raise IllegalMove("Tiny places one stone on an empty site, until a colour reaches the goal")
        bit = 1 << action.cell
        black, white = (self.black | bit, self.white) if self.to_move is Colour.BLACK else (self.black, self.white | bit)
        return type(self)(self.variant, self.to_move.other, self.ply + 1, black, white)

    def to_position(self) -> Position:
        stacks = {b: (Colour.BLACK, 1) for b in iter_bits(self.black)}
        stacks.update({b: (Colour.WHITE, 1) for b in iter_bits(self.white)})
        keys = {"variant": self.variant.balance, "phase": Phase.PLAY.value,
                "largest": f"{self.largest(Colour.BLACK)},{self.largest(Colour.WHITE)}", "ply": str(self.ply)}
        return Position(self.info.id, self.variant.size, self.to_move, stacks, keys)


def new_game(variant: Variant, komi: int = 0) -> TinyState:
    return TinyState(variant, Colour.BLACK, 0, 0, 0)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> TinyState:
    return TinyState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK), pos.bitboard(Colour.WHITE))


def goal_size(n: int) -> int:
    """The stones of one group that win on a board of side `n`."""
    return n + 2


def ply_cap(n: int) -> int:
    return hexagon(n).site_count


RULES = GameInfo(
    id="tiny", title="Tiny", sgf_number=1999, sizes=(3, 4), default_size=3, balances=("nopie",), options=(),
    forms=frozenset({Place}), new_game=new_game, from_position=from_position, ply_cap=ply_cap,
    keys=(phase_key("tiny", Phase, Phase.PLAY), pair_key("largest"), count_key("ply")),
    drawing="points", shown_keys=("largest",), rules_page=Path(__file__).with_name("tiny_game.md"),
)
TinyState.info = RULES


def _advantage(state: TinyState) -> float:
    return float(state.largest(Colour.BLACK) - state.largest(Colour.WHITE))


#: What the heuristic player and MCTS know of Tiny, beside its GameInfo (players/games/__init__.py).
KNOWLEDGE = GameKnowledge(evaluate=_advantage, scale=2.0)
