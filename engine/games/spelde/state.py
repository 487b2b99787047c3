"""Spelde (docs/rules/spelde.md): placements that split adjacent enemy groups by flipping.

Phases (`phase=` in the position string, :class:`Phase`): `open` — under the
pie, Black's first stone; `swap` — White may answer `swap` instead of placing
(even where White has no legal placement: the pie decision is not a
placement); `play` — everything after. After `swap` the colour to move stays
White: the players have exchanged colours, and the referee now asks the other
engine.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from . import flips as flips_mod
from ...actions import Action, Place, Resign, Split, Swap
from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove
from ...game import GameInfo, StoneState, Variant
from ...geometry import iter_bits, nth_bit
from ...geometry import hexagon
from ...position import Position, count_key, phase_key


class Phase(StrEnum):
    """The phases of Spelde; the values are the protocol's `phase=` words."""

    OPEN = "open"
    SWAP = "swap"
    PLAY = "play"


#: The members as module constants: `Phase.X` is an enum lookup (slow on Python 3.11) in hot paths.
OPEN, SWAP, PLAY = Phase.OPEN, Phase.SWAP, Phase.PLAY

@dataclass(frozen=True, slots=True)
class SpeldeState(StoneState):
    info: ClassVar[GameInfo]

    phase: Phase = PLAY
    _memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    # -- helpers ------------------------------------------------------------------
    @property
    def rule(self) -> str:
        return self.variant.option("flips")

    def _stones(self, colour: Colour) -> int:
        return self.black if colour is Colour.BLACK else self.white

    def _adjacent_groups(self, cell: int) -> list[int]:
        """The enemy groups touching a site, each once, in a fixed order."""
        memo = self._memo.get(cell)
        if memo is not None:
            return memo
        board = self.board
        enemy = self.white if self.to_move is Colour.BLACK else self.black
        touching = board.neighbour_mask[cell] & enemy
        groups = []
        while touching:
            g = board.flood(touching & -touching, enemy)
            touching &= ~g
            groups.append(g)
        self._memo[cell] = groups
        return groups

    # -- the interface --------------------------------------------------------------
    def legal_cells(self) -> int:
        cached = self._memo.get("cells")
        if cached is not None:
            return cached
        board = self.board
        empty = board.mask & ~(self.black | self.white)
        enemy = self._stones(self.to_move.other)
        cells = empty & ~board.expand(flips_mod.bad_stones(board, enemy))
        if self.rule != "literal":
            touching = cells & board.adjacent(enemy)
            for c in iter_bits(touching):
                if not all(flips_mod.can_split(board, self.rule, g, c) for g in self._adjacent_groups(c)):
                    cells &= ~(1 << c)
        self._memo["cells"] = cells
        return cells

    def open_sites(self) -> tuple[int, int]:
        """(Black's, White's) open sites: empty, and next to no enemy group that no flip set
        can split (a singleton, a pair or a triangle; the test of rule 3, whatever `flips=`)."""
        board = self.board
        empty = board.mask & ~(self.black | self.white)
        return (empty & ~board.expand(flips_mod.bad_stones(board, self.white)),
                empty & ~board.expand(flips_mod.bad_stones(board, self.black)))

    def outcome(self) -> Outcome | None:
        if self.phase is SWAP or self.legal_cells():
            return None
        return Outcome(self.to_move.other, Termination.NO_MOVES)

    def legal_actions(self) -> Iterator[Action]:
        if self.phase is SWAP:
            yield Swap()
        cells = self.legal_cells()
        board = self.board
        for c in board.sorted_sites(iter_bits(cells)):
            groups = self._adjacent_groups(c)
            if not groups:
                yield Place(c)
                continue
            for f in flips_mod.combined_flip_sets(board, self.rule, groups, c):
                yield Split(c, f)

    def random_action(self, rng: random.Random) -> Action:
        if self.outcome() is not None:
            raise ValueError("the game is over")
        cells = self.legal_cells()
        count = cells.bit_count()
        k = rng.randrange(count + (self.phase is SWAP))
        if k == count:
            return Swap()
        c = _pick(self.board.sites, cells, k, rng)
        groups = self._adjacent_groups(c)
        if not groups:
            action: Action = Place(c)
        else:
            f = 0
            for g in groups:
                f |= flips_mod.random_flip_set(self.board, self.rule, g, c, rng)
            action = Split(c, f)
        self._memo["drawn"] = action        # legal by construction: play need not check it again
        return action

    def play(self, action: Action) -> SpeldeState:
        if isinstance(action, Swap):
            if self.phase is not SWAP:
                raise IllegalMove("swap is only allowed as White's answer to the pie stone")
            return type(self)(self.variant, self.to_move, self.ply + 1, self.black, self.white, PLAY)
        if isinstance(action, Place):
            cell, named = action.cell, 0
        elif isinstance(action, Split):
            cell, named = action.cell, action.flips
            if not named:
                raise IllegalMove("a split names at least one stone to flip")
        elif isinstance(action, Resign):
            raise IllegalMove("resign is not an action on the board")
        else:
            raise IllegalMove(f"{type(action).__name__.lower()} is not a Spelde action")
        if self._memo.get("drawn") != action:
            self._check(cell, named)
        mover = self._stones(self.to_move) | 1 << cell | named
        enemy = self._stones(self.to_move.other) & ~named
        black, white = (mover, enemy) if self.to_move is Colour.BLACK else (enemy, mover)
        phase = SWAP if self.phase is OPEN else PLAY
        return type(self)(self.variant, self.to_move.other, self.ply + 1, black, white, phase)

    def _check(self, cell: int, named: int) -> None:
        """IllegalMove unless placing on `cell` and flipping `named` is legal now."""
        board = self.board
        if not board.is_site(cell):
            raise IllegalMove("off the board")
        if named < 0 or named & ~board.mask:
            raise IllegalMove("a flip names a site off the board")
        if (self.black | self.white) >> cell & 1:
            raise IllegalMove(f"{board.name(cell)} is occupied")
        if self.outcome() is not None:
            raise IllegalMove("the game is over")
        groups = self._adjacent_groups(cell)
        covered = 0
        for g in groups:
            part = named & g
            if not part:
                raise IllegalMove(f"the enemy group at {board.name((g & -g).bit_length() - 1)} must be split")
            if not flips_mod.is_valid(board, self.rule, g, part, cell):
                raise IllegalMove(f"flipping {','.join(board.names(part))} does not split its group"
                                  + ("" if self.rule == "literal" else f" under flips={self.rule}"))
            covered |= part
        if named & ~covered:
            raise IllegalMove(f"{','.join(board.names(named & ~covered))} not in an adjacent enemy group")

    def to_position(self) -> Position:
        stacks = {b: (Colour.BLACK, 1) for b in iter_bits(self.black)}
        stacks.update({b: (Colour.WHITE, 1) for b in iter_bits(self.white)})
        return Position("spelde", self.variant.size, self.to_move, stacks, self.position_keys())

    def position_keys(self) -> dict[str, str]:
        return {"variant": self.variant.balance, "flips": self.rule, "phase": self.phase, "ply": str(self.ply)}


def _pick(sites: tuple[int, ...], cells: int, k: int, rng: random.Random) -> int:
    """A uniform member of `cells`: one rejection draw over all sites while at least half
    of them are legal (cheap), else the k-th member (k uniform, drawn by the caller)."""
    if 2 * cells.bit_count() >= len(sites):
        c = sites[rng.randrange(len(sites))]
        if cells >> c & 1:
            return c
    return nth_bit(cells, k)


def new_game(variant: Variant, komi: int = 0) -> SpeldeState:
    """The empty board; `komi` means nothing in Spelde and is ignored."""
    phase = OPEN if variant.balance == "pie" else PLAY
    return SpeldeState(variant, Colour.BLACK, 0, 0, 0, phase)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> SpeldeState:
    """The state a well-formed position describes, as written (no judgement of reachability)."""
    return SpeldeState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK),
                       pos.bitboard(Colour.WHITE), keys["phase"])


def ply_cap(n: int) -> int:
    """The referee's default cap: sites + 2 (a game places one stone a turn, plus the pie)."""
    return hexagon(n).site_count + 2


RULES = GameInfo(
    id="spelde",
    title="Spelde",
    sgf_number=1003,
    sizes=(5, 6, 7),
    default_size=6,
    balances=("pie", "nopie"),
    options=(("flips", ("literal", "dense", "standard")),),
    forms=frozenset({Place, Split, Swap}),
    new_game=new_game,
    from_position=from_position,
    ply_cap=ply_cap,
    keys=(phase_key("spelde", Phase, PLAY), count_key("ply")),
)
SpeldeState.info = RULES
