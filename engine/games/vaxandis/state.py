"""Vaxandis (docs/rules/vaxandis.md): height-1 placements and growing stacks that slide and jump.

Phases (`phase=` in the position string), as in Spelde: `open` — under the
pie, Black's first action (a placement: the board is empty); `swap` — White
may answer `swap` instead of a normal action; `play` — everything after.
After `swap` the colour to move stays White (the referee exchanges the
players' colours; the board is untouched). Rules, geometry and the option
semantics of moves live in ``moves.py``; docs/rules/vaxandis.md
lists the decisions the designer's text leaves open.
"""
from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import accumulate
from typing import Any, ClassVar

from ...actions import Action, Move, Place, Resign, Swap
from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove
from ...game import GameInfo, GameState, StoneState, Variant
from ...geometry import hexagon, iter_bits, nth_bit
from ...position import Position, count_key, phase_key
from .moves import Levels, Tables, apply_move, grow, heights_of, tables, targets, touched_by
from .summary import Summary, frozen_stacks, tallest



class Phase(StrEnum):
    """The phases of Vaxandis (as Spelde's); the values are the protocol's `phase=` words."""

    OPEN = "open"
    SWAP = "swap"
    PLAY = "play"


#: The members as module constants: `Phase.X` is an enum lookup (slow on Python 3.11) in hot paths.
OPEN, SWAP, PLAY = Phase.OPEN, Phase.SWAP, Phase.PLAY

_SETTINGS: dict[int, tuple[Variant, Tables, bool, bool]] = {}


def _settings(variant: Variant) -> tuple[Variant, Tables, bool, bool]:
    """(variant, size tables, freeze=group?, touch=path?), cached by identity (hashing a Variant is slow)."""
    found = _SETTINGS.get(id(variant))
    if found is None or found[0] is not variant:
        found = (variant, tables(variant.size), variant.option("freeze") == "group",
                 variant.option("touch") == "path")
        if len(_SETTINGS) > 256:
            _SETTINGS.clear()
        _SETTINGS[id(variant)] = found
    return found


@dataclass(frozen=True, slots=True)
class VaxandisState(StoneState):
    """A Vaxandis position. `levels` is the height table of ``moves.py``."""

    info: ClassVar[GameInfo]

    levels: Levels
    phase: Phase = PLAY
    _memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    # -- helpers ------------------------------------------------------------------
    def _sides(self) -> tuple[int, int]:
        """(own, enemy) bitboards of the side to move."""
        return (self.black, self.white) if self.to_move is Colour.BLACK else (self.white, self.black)

    def targets(self) -> dict[int, int]:
        """Legal moves of the side to move: source site -> bitboard of landing sites (cached)."""
        found = self._memo.get("targets")
        if found is None:
            own, enemy = self._sides()
            _, tb, group, path = _settings(self.variant)
            found = targets(own, enemy, self.levels, tb, group, path)
            self._memo["targets"] = found
        return found

    def actions(self, colour: Colour) -> int:
        """How many actions `colour` would have here (placements + moves), whoever is to move."""
        side = self if colour is self.to_move else type(self)(self.variant, colour, self.ply, self.black,
                                                             self.white, self.levels, self.phase)
        return self.legal_cells().bit_count() + sum(bb.bit_count() for bb in side.targets().values())

    def summary(self, ranks: int) -> Summary:
        """The board as the players' evaluations read it (``summary.Summary``, with each colour's
        `ranks` tallest heights; the core's state answers it in the core)."""
        found: Summary | None = self._memo.get(("summary", ranks))
        if found is None:
            frozen_b, frozen_w = frozen_stacks(self.board, self.black, self.white, self.levels)
            found = self._memo[("summary", ranks)] = (
                frozen_b.bit_count(), frozen_w.bit_count(), tallest(self.levels, self.black, ranks),
                tallest(self.levels, self.white, ranks), self.actions(Colour.BLACK), self.actions(Colour.WHITE))
        return found

    def heights(self) -> list[int]:
        """Per-site heights, indexed by bit, 0 when empty (cached; callers must not mutate it)."""
        found = self._memo.get("heights")
        if found is None:
            found = self._memo["heights"] = heights_of(self.levels, self.variant.size)
        return found

    # -- the interface --------------------------------------------------------------
    def legal_cells(self) -> int:
        """Empty sites with no stack adjacent (every phase: the pie answer may be a placement)."""
        cells = self._memo.get("cells")
        if cells is None:
            geo = _settings(self.variant)[1].geo
            cells = self._memo["cells"] = geo.mask & ~geo.expand(self.black | self.white)
        return cells

    def has_move(self) -> bool:
        """Whether the side to move has a legal move (stops at the first one found; cached)."""
        found = self._memo.get("targets")
        if found is not None:
            return bool(found)
        some = self._memo.get("some")
        if some is None:
            own, enemy = self._sides()
            _, tb, group, path = _settings(self.variant)
            some = self._memo["some"] = bool(targets(own, enemy, self.levels, tb, group, path, first_only=True))
        return some

    def outcome(self) -> Outcome | None:
        if self.phase is SWAP or self.legal_cells() or self.has_move():
            return None
        return Outcome(self.to_move.other, Termination.NO_MOVES)

    def legal_actions(self) -> Iterator[Action]:
        if self.phase is SWAP:
            yield Swap()
        board = self.board
        for c in board.sorted_sites(iter_bits(self.legal_cells())):
            yield Place(c)
        for src, dsts in sorted(self.targets().items(), key=lambda kv: board.order_key(kv[0])):
            for dst in board.sorted_sites(iter_bits(dsts)):
                yield Move(src, dst)

    def random_action(self, rng: random.Random) -> Action:
        """Uniform over every legal action (each placement, move and `swap` is one choice).

        Unless the move list is already known, by rejection: draw uniformly from
        the placements, `swap` and every pair (own stack, empty site on one of
        its six lines), a superset holding each legal action once, until a draw
        is legal (at most 64 draws, then from the exact list). The accepted
        move's effect is kept for :meth:`play`.
        """
        if self.outcome() is not None:
            raise ValueError("the game is over")
        cells = self.legal_cells()
        ncells = cells.bit_count()
        swap = self.phase is SWAP
        if "targets" not in self._memo:
            own, enemy = self._sides()
            _, tb, group, path = _settings(self.variant)
            empty = tb.geo.mask & ~(own | enemy)
            reach = tb.reach
            srcs = list(iter_bits(own))
            counts = [(reach[b] & empty).bit_count() for b in srcs]
            cum = list(accumulate(counts))
            heights = self.heights()
            for _ in range(64):
                k = rng.randrange(ncells + swap + (cum[-1] if cum else 0))
                if k < ncells:
                    return Place(nth_bit(cells, k))
                k -= ncells + swap
                if k < 0:
                    return Swap()
                i = bisect_right(cum, k)
                src = srcs[i]
                dst = nth_bit(reach[src] & empty, k - cum[i] + counts[i])
                touched = touched_by(own, enemy, self.levels, heights, tb, src, dst, group, path)
                if touched > 0:
                    move = Move(src, dst)
                    self._memo["next"] = (move, grow(own, self.levels, heights, tb.geo, src, dst, touched))
                    return move
                if touched < 0:                 # src cannot move: drop its lines (still a superset)
                    del srcs[i], counts[i]
                    cum = list(accumulate(counts))
        found = self.targets()
        counts = [ncells, *(bb.bit_count() for bb in found.values())]
        k = rng.randrange(sum(counts) + swap)
        if k < ncells:
            return Place(nth_bit(cells, k))
        k -= ncells
        for (src, dsts), count in zip(found.items(), counts[1:]):
            if k < count:
                return Move(src, nth_bit(dsts, k))
            k -= count
        return Swap()

    def play(self, action: Action) -> VaxandisState:
        if isinstance(action, Move):
            return self._play_move(action)
        if isinstance(action, Place):
            return self._play_place(action.cell)
        if isinstance(action, Swap):
            if self.phase is not SWAP:
                raise IllegalMove("swap is only allowed as White's answer to the pie stack")
            return type(self)(self.variant, self.to_move, self.ply + 1, self.black, self.white,
                              self.levels, PLAY)
        if isinstance(action, Resign):
            raise IllegalMove("resign is not an action on the board")
        raise IllegalMove(f"{type(action).__name__.lower()} is not a Vaxandis action")

    def _play_place(self, cell: int) -> VaxandisState:
        geo = _settings(self.variant)[1].geo
        if not geo.is_site(cell):
            raise IllegalMove("off the board")
        occ = self.black | self.white
        if occ >> cell & 1:
            raise IllegalMove(f"{geo.name(cell)} is occupied")
        near = geo.neighbour_mask[cell] & occ
        if near:
            raise IllegalMove(f"{geo.name(cell)} is next to a stack ({','.join(geo.names(near))})")
        bit = 1 << cell
        levels = dict(self.levels)
        levels[1] = levels.get(1, 0) | bit
        black, white = (self.black | bit, self.white) if self.to_move is Colour.BLACK else (self.black, self.white | bit)
        phase = SWAP if self.phase is OPEN else PLAY
        child = type(self)(self.variant, self.to_move.other, self.ply + 1, black, white,
                           tuple(sorted(levels.items())), phase)
        heights = self._memo.get("heights")
        if heights is not None:
            heights = heights.copy()
            heights[cell] = 1
            child._memo["heights"] = heights
        return child

    def _play_move(self, move: Move) -> VaxandisState:
        _, tb, group, path = _settings(self.variant)
        if not (tb.geo.is_site(move.src) and tb.geo.is_site(move.dst)):
            raise IllegalMove("off the board")
        own, enemy = self._sides()
        pending = self._memo.get("next")
        if pending is not None and pending[0] == move:
            new_own, levels, heights = pending[1]
        else:
            new_own, levels, heights = apply_move(own, enemy, self.levels, self.heights(), tb, move.src,
                                                  move.dst, group, path)
        black, white = (new_own, enemy) if self.to_move is Colour.BLACK else (enemy, new_own)
        child = type(self)(self.variant, self.to_move.other, self.ply + 1, black, white, levels, PLAY)
        child._memo["heights"] = heights
        return child

    def changes(self, before: GameState | None) -> dict[int, tuple[Colour, int] | None]:
        if not isinstance(before, (VaxandisState, type(None))):
            return super().changes(before)
        black, white, levels = (0, 0, ()) if before is None else (before.black, before.white, before.levels)
        moved = (self.black ^ black) | (self.white ^ white)
        old = dict(levels)
        for h, bb in self.levels:                   # a stack that kept its colour and changed height
            moved |= bb ^ old.pop(h, 0)
        for bb in old.values():
            moved |= bb
        out: dict[int, tuple[Colour, int] | None] = {}
        for bit in iter_bits(moved):
            now = self._stack(bit)
            if now != (None if before is None else before._stack(bit)):
                out[bit] = now
        return out

    def _stack(self, bit: int) -> tuple[Colour, int] | None:
        """The site's entry in ``to_position().stacks`` (its last level holding it), or None."""
        for h, bb in reversed(self.levels):
            if bb >> bit & 1:
                return Colour.BLACK if self.black >> bit & 1 else Colour.WHITE, h
        return None

    def to_position(self) -> Position:
        stacks: dict[int, tuple[Colour, int]] = {}
        for h, bb in self.levels:
            for b in iter_bits(bb):
                stacks[b] = (Colour.BLACK if self.black >> b & 1 else Colour.WHITE, h)
        return Position("vaxandis", self.variant.size, self.to_move, stacks, self.position_keys())

    def position_keys(self) -> dict[str, str]:
        return {"variant": self.variant.balance, "freeze": self.variant.option("freeze"),
                "touch": self.variant.option("touch"), "phase": self.phase, "ply": str(self.ply)}


def new_game(variant: Variant, komi: int = 0) -> VaxandisState:
    """The empty board; `komi` is ignored (Vaxandis has none)."""
    phase = OPEN if variant.balance == "pie" else PLAY
    return VaxandisState(variant, Colour.BLACK, 0, 0, 0, (), phase)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> VaxandisState:
    """The state a well-formed position describes, as written (no judgement of reachability)."""
    by_height: dict[int, int] = {}
    for bit, (_, h) in pos.stacks.items():
        by_height[h] = by_height.get(h, 0) | 1 << bit
    return VaxandisState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK),
                         pos.bitboard(Colour.WHITE), tuple(sorted(by_height.items())), keys["phase"])


def ply_cap(n: int) -> int:
    """The referee's default cap: 8 x sites rounded up to a hundred (300, 500, 800 at n = 4, 5, 6)."""
    return math.ceil(8 * hexagon(n).site_count / 100) * 100


RULES = GameInfo(
    id="vaxandis",
    title="Vaxandis",
    sgf_number=1004,
    sizes=(4, 5, 6),
    default_size=5,
    first_run_size=3,       # at side 4 random and greedy play to the 300-ply cap; at 3 they end by the rules
    balances=("pie", "nopie"),
    options=(("freeze", ("stack", "group")), ("touch", ("path", "landing"))),
    forms=frozenset({Place, Move, Swap}),
    new_game=new_game,
    from_position=from_position,
    ply_cap=ply_cap,
    keys=(phase_key("vaxandis", Phase, PLAY), count_key("ply")),
    stacks=True,
    drawing="points",
)
VaxandisState.info = RULES
