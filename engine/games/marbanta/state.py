"""Marbanta (docs/rules/marbanta.md): line of sight, new groups of N stones, misère end.

Sight and shapes are ``moves.py``'s, random draws ``sample.py``'s; this module
(a little over 300 lines, one class sharing its ``_memo``) holds the turns.

Phases (the ``phase=`` key of the position string):

* ``pie``  Black places one black and one white stone (``PieStones``; token
  ``e5,c3``, black first). Then, balance ``pie``: phase ``swap``; balance
  ``nopie``: phase ``play`` with Black still to move (two Black actions in a
  row).
* ``swap`` White answers ``swap`` or ``keep``; both lead to ``play`` with
  Black to move and an unchanged board (after a swap the referee exchanges
  the players' colours).
* ``play`` (default) the normal turns: ``Place(root)`` when the root sees one
  friendly group, ``Grow(root, branches)`` when it sees N >= 2. The player to
  move with no legal turn wins (``RULES.no_move_wins``).

The state keeps, besides the compared fields, in ``_memo`` (engine.game's
convention for derived data): ``"owner"``, a list mapping each stone's bit to
its group's bitboard (a turn's new group never merges with another, so it is handed from
parent to child; after the pie, whose stones may join groups on a set position, it is found
afresh), and the
derived sets of the side to move; both are caches excluded from equality.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import permutations
from typing import Any, ClassVar

from ...actions import Action, Grow, Keep, PieStones, Place, Resign, Swap
from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove
from ...game import GameInfo, StoneState, Variant
from ...geometry import hexagon, iter_bits
from .moves import free_sites, groups_seen, legal_roots, new_groups, root_size, sighted, tables
from .sample import random_bit, sample_group
from ...position import Position, count_key, phase_key


class Phase(StrEnum):
    """The phases of Marbanta; the values are the protocol's `phase=` words."""

    PIE = "pie"
    SWAP = "swap"
    PLAY = "play"


#: The members as module constants: `Phase.X` is an enum lookup (slow on Python 3.11) in hot paths.
PIE, SWAP, PLAY = Phase.PIE, Phase.SWAP, Phase.PLAY

def _owner_list(n: int, black: int, white: int) -> list[int]:
    """The group bitboard of every stone, indexed by bit (0 on empty sites)."""
    board = hexagon(n)
    owner = [0] * len(board.rays)
    for colour_bb in (black, white):
        for comp in board.components(colour_bb):
            for b in iter_bits(comp):
                owner[b] = comp
    return owner


@dataclass(frozen=True, slots=True)
class MarbantaState(StoneState):
    """A Marbanta position. `black`/`white` are bitboards; see the module docstring for phases."""

    info: ClassVar[GameInfo]
    phase: Phase = PLAY
    _memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def owner(self) -> list[int]:
        """The group bitboard of every stone, indexed by bit (callers must not mutate it)."""
        got = self._memo.get("owner")
        if got is None:
            got = self._memo["owner"] = _owner_list(self.variant.size, self.black, self.white)
        return got

    # -- derived sets of the side to move (memoised) -----------------------------
    def _sides(self) -> tuple[int, int]:
        if self.to_move is Colour.BLACK:
            return self.black, self.white
        return self.white, self.black

    def _free_and_candidates(self) -> tuple[int, int]:
        """(free sites, free sites that see a friendly stone): roots lie in the second."""
        got = self._memo.get("cand")
        if got is None:
            t = tables(self.variant.size)
            friendly, enemy = self._sides()
            free = free_sites(t, friendly, enemy)
            got = (free, free & sighted(t, friendly, enemy))
            self._memo["cand"] = got
        return got

    def _roots(self) -> dict[int, int]:
        got = self._memo.get("roots")
        if got is None:
            friendly, enemy = self._sides()
            got = legal_roots(tables(self.variant.size), friendly, enemy, self.owner)
            self._memo["roots"] = got
        return got

    def _has_turn(self) -> bool:
        got = self._memo.get("has_turn")
        if got is None:
            if self.phase is PIE:          # two empty sites for the pie stones
                got = (self.board.mask & ~(self.black | self.white)).bit_count() >= 2
            elif "roots" in self._memo:
                got = bool(self._memo["roots"])
            else:
                t = tables(self.variant.size)
                friendly, enemy = self._sides()
                free, cand = self._free_and_candidates()
                got = False
                while cand and not got:
                    low = cand & -cand
                    cand ^= low
                    got = root_size(t, low.bit_length() - 1, friendly, enemy, self.owner, free) > 0
            self._memo["has_turn"] = got
        return got

    # -- the generic interface ---------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.phase is SWAP or self._has_turn():
            return None
        return Outcome(self.to_move, Termination.NO_MOVES)

    def legal_cells(self) -> int:
        if self.phase is not PLAY:
            return 0
        cells = 0
        for r in self._roots():
            cells |= 1 << r
        return cells

    def legal_actions(self) -> Iterator[Action]:
        board = self.board
        if self.phase is PIE:
            empty = [s for s in board.sites if not (self.black | self.white) >> s & 1]
            if len(empty) >= 2:
                for black, white in permutations(empty, 2):
                    yield PieStones(black, white)
            return
        if self.phase is SWAP:
            yield Swap()
            yield Keep()
            return
        roots = self._roots()
        free = self._free_and_candidates()[0]
        t = tables(self.variant.size)
        for r in board.sorted_sites(roots):
            n = roots[r]
            if n == 1:
                yield Place(r)
                continue
            for group in new_groups(t, free, r, n):
                yield Grow(r, tuple(board.sorted_sites(iter_bits(group & ~(1 << r)))))

    def random_action(self, rng: random.Random) -> Action:
        """Pie: a uniform ordered pair; swap: `swap` or `keep`; play: a uniform legal
        root (drawn among the candidates without replacement until one has room), then
        a uniform new group for it (:func:`.sample.sample_group`)."""
        board = self.board
        if self.phase is PIE:
            if not self._has_turn():
                raise ValueError("the game is over: no two empty sites for the pie")
            taken = self.black | self.white       # empty on every board reached in play
            black = board.sites[rng.randrange(len(board.sites))]
            while taken >> black & 1:
                black = board.sites[rng.randrange(len(board.sites))]
            white = black
            while white == black or taken >> white & 1:
                white = board.sites[rng.randrange(len(board.sites))]
            return PieStones(black, white)
        if self.phase is SWAP:
            return Swap() if rng.randrange(2) else Keep()
        t = tables(self.variant.size)
        friendly, enemy = self._sides()
        free, cand = self._free_and_candidates()
        while cand:
            r = random_bit(cand, rng)
            n = root_size(t, r, friendly, enemy, self.owner, free)
            if n == 1:
                return Place(r)
            if n:
                group = sample_group(t, free, r, n, rng) & ~(1 << r)
                return Grow(r, tuple(board.sorted_sites(iter_bits(group))))
            cand &= ~(1 << r)
        raise ValueError("the game is over: no legal turn")

    def play(self, action: Action) -> MarbantaState:
        """The next state; IllegalMove naming the reason (phase, occupied, touch, sight, shape)."""
        if isinstance(action, Resign):
            raise IllegalMove("resign is not played into the rules")
        board = self.board
        if self.phase is PIE:
            if not isinstance(action, PieStones):
                raise IllegalMove("the pie comes first: a black and a white stone, e.g. e5,c3")
            b, w = action.black, action.white
            for x in (b, w):
                if not board.is_site(x):
                    raise IllegalMove(f"site {x} is off the board")
            if b == w:
                raise IllegalMove(f"{board.name(b)} is named twice")
            for x in (b, w):
                if (self.black | self.white) >> x & 1:
                    raise IllegalMove(f"{board.name(x)} is occupied")
            nxt_phase = SWAP if self.variant.balance == "pie" else PLAY
            mover = Colour.WHITE if nxt_phase is SWAP else Colour.BLACK
            return self._next(mover, 1 << b, 1 << w, nxt_phase)
        if self.phase is SWAP:
            if not isinstance(action, (Swap, Keep)):
                raise IllegalMove("White must answer the pie with swap or keep")
            return self._next(Colour.BLACK, 0, 0, PLAY)
        branches: tuple[int, ...]
        if isinstance(action, Place):
            root, branches = action.cell, ()
        elif isinstance(action, Grow):
            root, branches = action.root, action.branches
            if not branches:
                raise IllegalMove("a grow needs at least one branched stone")
        elif isinstance(action, PieStones):
            raise IllegalMove("the pie stones are already on the board")
        elif isinstance(action, (Swap, Keep)):
            raise IllegalMove("there is no pie decision now")
        else:
            raise IllegalMove(f"{type(action).__name__} is not a Marbanta action")
        group = self._check_turn(root, branches)
        if self.to_move is Colour.BLACK:
            return self._next(Colour.WHITE, group, 0, PLAY)
        return self._next(Colour.BLACK, 0, group, PLAY)

    def _check_turn(self, root: int, branches: tuple[int, ...]) -> int:
        """The new group's bitboard, or IllegalMove saying what is wrong."""
        board = self.board
        t = tables(self.variant.size)
        friendly, enemy = self._sides()
        group = 0
        for x in (root, *branches):
            if not board.is_site(x):
                raise IllegalMove(f"site {x} is off the board")
            if group >> x & 1:
                raise IllegalMove(f"{board.name(x)} is named twice")
            group |= 1 << x
        colour = self.to_move.word
        free = self._free_and_candidates()[0]
        for x in (root, *branches):
            if (friendly | enemy) >> x & 1:
                raise IllegalMove(f"{board.name(x)} is occupied")
            if not free >> x & 1:
                raise IllegalMove(f"{board.name(x)} touches a {colour} stone")
        n = groups_seen(t, root, friendly, enemy, self.owner)
        if n == 0:
            raise IllegalMove(f"{board.name(root)} sees no {colour} group")
        if len(branches) != n - 1:
            raise IllegalMove(f"{board.name(root)} sees {n} {colour} group{'s' * (n > 1)}: "
                              f"the new group needs {n} stone{'s' * (n > 1)}, not {len(branches) + 1}")
        if not board.is_connected(group):
            raise IllegalMove(f"the new group {', '.join(board.names(group))} is not connected")
        return group

    def _next(self, mover: Colour, add_black: int, add_white: int, phase: Phase) -> MarbantaState:
        child = type(self)(self.variant, mover, self.ply + 1, self.black | add_black,
                           self.white | add_white, phase)
        if add_black and add_white:
            return child        # the pie: on a set position its stones may join groups; found afresh
        owner = self.owner
        added = add_black | add_white
        if added:               # a new group, which touches no stone of its colour: no merge
            owner = owner.copy()
            rest = added
            while rest:
                low = rest & -rest
                owner[low.bit_length() - 1] = added
                rest ^= low
        child._memo["owner"] = owner
        return child

    def to_position(self) -> Position:
        stacks = {b: (Colour.BLACK, 1) for b in iter_bits(self.black)}
        stacks.update({b: (Colour.WHITE, 1) for b in iter_bits(self.white)})
        return Position("marbanta", self.variant.size, self.to_move, stacks, self.position_keys())

    def position_keys(self) -> dict[str, str]:
        return {"variant": self.variant.balance, "phase": self.phase, "ply": str(self.ply)}


def new_game(variant: Variant, komi: int = 0) -> MarbantaState:
    """The empty board, Black to place the pie stones. `komi` means nothing here and is ignored."""
    return MarbantaState(variant, Colour.BLACK, 0, 0, 0, PIE)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> MarbantaState:
    """The state a well-formed position describes, as written (no judgement of reachability:
    an empty board in phase play is over, Black cannot place and wins)."""
    return MarbantaState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK),
                         pos.bitboard(Colour.WHITE), keys["phase"])


def ply_cap(n: int) -> int:
    """Twice the sites plus 4: a game has at most sites + 2 actions (pie, swap, >= 1 stone a turn)."""
    return 2 * hexagon(n).site_count + 4


RULES = GameInfo(
    id="marbanta",
    title="Marbanta",
    sgf_number=1005,
    sizes=(7, 9, 11),
    default_size=9,
    balances=("pie", "nopie"),
    options=(),
    forms=frozenset({Place, Grow, PieStones, Swap, Keep}),
    new_game=new_game,
    from_position=from_position,
    ply_cap=ply_cap,
    keys=(phase_key("marbanta", Phase, PLAY), count_key("ply")),
    no_move_wins=True,
    uses_komi=False,
)
MarbantaState.info = RULES
