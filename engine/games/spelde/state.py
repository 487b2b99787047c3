"""Spelde (RULES.md section 4): placements that split adjacent enemy groups by flipping.

Phases (`phase=` in the position string): `open` — under the pie, Black's
first stone; `swap` — White may answer `swap` instead of placing; `play` —
everything after. After `swap` the colour to move stays White: the players
have exchanged colours, and the referee now asks the other engine.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from . import flips as flips_mod
from ...actions import Action, Place, Resign, Split, Swap
from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove, InvalidPosition
from ...game import GameInfo, StoneState, Variant
from ...geometry import iter_bits, nth_bit
from ...position import Position, parse_count

PHASES = ("open", "swap", "play")


@dataclass(frozen=True, slots=True)
class SpeldeState(StoneState):
    info: ClassVar[GameInfo]

    phase: str = "play"
    _memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    # -- helpers ------------------------------------------------------------------
    @property
    def rule(self) -> str:
        return self.variant.options[0][1]

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

    def outcome(self) -> Outcome | None:
        if self.legal_cells():
            return None
        return Outcome(self.to_move.other, Termination.NO_MOVES)

    def legal_actions(self) -> Iterator[Action]:
        cells = self.legal_cells()
        if not cells:
            return
        if self.phase == "swap":
            yield Swap()
        board = self.board
        for c in board.sorted_sites(iter_bits(cells)):
            groups = self._adjacent_groups(c)
            if not groups:
                yield Place(c)
                continue
            for f in flips_mod.combined_flip_sets(board, self.rule, groups, c):
                yield Split(c, f)

    def random_action(self, rng: random.Random) -> Action:
        cells = self.legal_cells()
        if not cells:
            raise ValueError("the game is over")
        count = cells.bit_count()
        k = rng.randrange(count + (self.phase == "swap"))
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
            if self.phase != "swap":
                raise IllegalMove("swap is only allowed as White's answer to the pie stone")
            return SpeldeState(self.variant, self.to_move, self.ply + 1, self.black, self.white, "play")
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
        phase = "swap" if self.phase == "open" else "play"
        return SpeldeState(self.variant, self.to_move.other, self.ply + 1, black, white, phase)

    def _check(self, cell: int, named: int) -> None:
        """IllegalMove unless placing on `cell` and flipping `named` is legal now."""
        board = self.board
        if not board.is_site(cell):
            raise IllegalMove("off the board")
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
        keys = {"variant": self.variant.balance, "flips": self.rule, "phase": self.phase, "ply": str(self.ply)}
        return Position("spelde", self.variant.size, self.to_move, stacks, keys)


def _pick(sites: tuple[int, ...], cells: int, k: int, rng: random.Random) -> int:
    """A uniform member of `cells`: one rejection draw over all sites while at least half
    of them are legal (cheap), else the k-th member (k uniform, drawn by the caller)."""
    if 2 * cells.bit_count() >= len(sites):
        c = sites[rng.randrange(len(sites))]
        if cells >> c & 1:
            return c
    return nth_bit(cells, k)


def _new_game(variant: Variant, komi: int = 0) -> SpeldeState:
    phase = "open" if variant.balance == "pie" else "play"
    return SpeldeState(variant, Colour.BLACK, 0, 0, 0, phase)


def _from_position(variant: Variant, pos: Position) -> SpeldeState:
    extra = set(pos.keys) - {"variant", "flips", "phase", "ply"}
    if extra:
        raise InvalidPosition(f"spelde has no key {sorted(extra)[0]!r}")
    if any(h != 1 for _, h in pos.stacks.values()):
        raise InvalidPosition("spelde stones have no height")
    phase = pos.key("phase")
    if phase not in PHASES:
        raise InvalidPosition(f"phase={phase}: spelde phases are {', '.join(PHASES)}")
    if phase != "play" and variant.balance != "pie":
        raise InvalidPosition(f"phase={phase} needs variant=pie")
    if phase == "open" and pos.to_move is not Colour.BLACK or phase == "swap" and pos.to_move is not Colour.WHITE:
        raise InvalidPosition(f"phase={phase} does not fit {pos.to_move.name.lower()} to move")
    ply = parse_count(pos.key("ply"), "ply")
    return SpeldeState(variant, pos.to_move, ply, pos.bitboard(Colour.BLACK), pos.bitboard(Colour.WHITE), phase)


RULES = GameInfo(
    id="spelde",
    title="Spelde",
    sgf_number=1003,
    sizes=(5, 6, 7),
    default_size=6,
    balances=("pie", "nopie"),
    options=(("flips", ("literal", "dense", "standard")),),
    forms=frozenset({Place, Split, Swap}),
    new_game=_new_game,
    from_position=_from_position,
    ply_cap=lambda n: 3 * n * (n - 1) + 1 + 2,
)
SpeldeState.info = RULES
