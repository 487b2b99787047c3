"""Anda (docs/rules/anda.md): cells, breaths, territory, smothering, the komi pie.

Phases (position key ``phase=``, :class:`Phase`):

* ``offer``  -- pie only: Black offers ``komi=K``, 0 <= K <= sites;
* ``answer`` -- pie only: White answers ``swap`` or ``keep`` (the referee exchanges
  the players after a swap; the state is the same either way);
* ``play``   -- the two-stone first turns (colours still owing one are in ``first``),
  then placements and White's komi passes (``komi`` = passes left).

The board mechanics (placement, the two removal steps, incremental groups and
regions) live in ``board.py``; this module holds the turn structure. It is a
little over 300 lines on purpose: one class whose placement cache
(``_memo["an"]``, ``"next"``) its methods share and no other module may touch.

Positions are taken as written (docs/protocol.md): where a position no play reaches
leaves the mover without any legal action (a first turn with no free pair, no
stone next to an empty site and no legal placement), the mover has lost
(``Termination.NO_MOVES``), as in the other games; play never reaches one.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar

from .. import anda_regions as R
from ...actions import Action, Keep, Komi, Pair, Pass, Place, Swap
from .board import Analysis, analyse, place, place_pair, placeable, region_of
from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove
from ...game import GameInfo, StoneState, Variant
from ...geometry import hexagon, iter_bits
from ...position import Position, colours_key, count_key, format_colours, komi_key, phase_key

BOTH = frozenset((Colour.BLACK, Colour.WHITE))


class Phase(StrEnum):
    """The phases of Anda; the values are the protocol's `phase=` words."""

    OFFER = "offer"
    ANSWER = "answer"
    PLAY = "play"


#: The members as module constants: `Phase.X` is an enum lookup (slow on Python 3.11) in hot paths.
OFFER, ANSWER, PLAY = Phase.OFFER, Phase.ANSWER, Phase.PLAY

@lru_cache(maxsize=None)
def opening_pairs(n: int, opening: str) -> tuple[tuple[int, int], ...]:
    """Every first-turn pair of the empty board, canonical (a before b), in canonical order.

    `features`: two perimeter sites on distinct, non-adjacent features;
    `cells`: two perimeter sites that are not neighbours.
    """
    board = hexagon(n)
    rim = board.sorted_sites(iter_bits(board.perimeter))
    feature = {s: board.feature(s) for s in rim}
    out = []
    for i, a in enumerate(rim):
        for b in rim[i + 1:]:
            if opening == "cells":
                ok = not board.neighbour_mask[a] >> b & 1
            else:
                fa, fb = feature[a], feature[b]
                assert fa is not None and fb is not None   # every perimeter site lies on a feature
                ok = fa != fb and not board.features_adjacent(fa, fb)
            if ok:
                out.append((a, b))
    return tuple(out)


@lru_cache(maxsize=None)
def _pair_set(n: int, opening: str) -> frozenset[tuple[int, int]]:
    return frozenset(opening_pairs(n, opening))


@dataclass(frozen=True, slots=True)
class AndaState(StoneState):
    """An Anda position.

    `_memo` (engine.game's convention for derived data): ``"an"`` the board's Analysis
    (computed lazily, or handed over by the parent that built this state), ``"next"``
    (site, child) the last placement random_action resolved, reused by play, ``"out"``
    the outcome."""

    info: ClassVar[GameInfo]
    komi: int                        # White's passes left
    first: frozenset[Colour]         # colours whose two-stone first turn is still to come
    phase: Phase = PLAY
    _memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    # -- helpers ------------------------------------------------------------------------
    def _analysis(self) -> Analysis:
        an = self._memo.get("an")
        if an is None:
            an = self._memo["an"] = analyse(self.board, self.black, self.white)
        return an

    def _stones(self) -> tuple[int, int]:
        """(mover's stones, opponent's stones)."""
        if self.to_move is Colour.BLACK:
            return self.black, self.white
        return self.white, self.black

    def _with(self, **changes: Any) -> AndaState:
        """The next state for an action other than a single placement (the board may change)."""
        values: dict[str, Any] = {"variant": self.variant, "to_move": self.to_move.other, "ply": self.ply + 1,
                  "black": self.black, "white": self.white, "komi": self.komi,
                  "first": self.first, "phase": self.phase}
        values.update(changes)
        return type(self)(**values)

    def _placing(self) -> bool:
        """A normal turn: single placements (and White's passes)."""
        return self.phase is PLAY and self.to_move not in self.first and self._eliminated() is None

    def can_pass(self) -> bool:
        """White may spend a komi point now."""
        return self.to_move is Colour.WHITE and self.komi > 0 and self._placing()

    def enemy_territory(self) -> int:
        """The empty sites that are the opponent's territory (where the mover may not place)."""
        own, other = self._stones()
        return R.territory(self.board, other, own, self.board.mask & ~(own | other))

    # -- the rules ----------------------------------------------------------------------
    def _eliminated(self) -> Outcome | None:
        """The end by elimination, checked only after both first turns."""
        if self.phase is not PLAY or self.first:
            return None
        if not self.black:
            return Outcome(Colour.WHITE, Termination.ELIMINATED)
        if not self.white:
            return Outcome(Colour.BLACK, Termination.ELIMINATED)
        return None

    def outcome(self) -> Outcome | None:
        memo = self._memo
        if "out" in memo:
            return memo["out"]
        out = None
        if self.phase is PLAY:
            out = self._eliminated()
            if out is None and not self._has_action():
                out = Outcome(self.to_move.other, Termination.NO_MOVES)
        memo["out"] = out
        return out

    def _has_action(self) -> bool:
        """Whether the mover has a legal action (phase play, no elimination). Cheap in play:
        a stone of the mover next to an empty site always gives a legal placement (placing
        there removes either nothing of the placed stone's group or more than that stone)."""
        if self.to_move in self.first:
            return next(self._free_pairs(), None) is not None
        own, other = self._stones()
        board = self.board
        empty = board.mask & ~(own | other)
        if own and board.neighbour_mask[(own & -own).bit_length() - 1] & empty:
            return True                          # the usual case, cheaper than the full ring
        if board.expand(own) & empty:
            return True
        return self.can_pass() or self.legal_cells() != 0

    def _free_pairs(self) -> Iterator[Pair]:
        taken = self.black | self.white
        for a, b in opening_pairs(self.board.n, self.variant.option("opening")):
            if not (taken >> a & 1 or taken >> b & 1):
                yield Pair(a, b)

    def _try_place(self, s: int) -> AndaState | str:
        """The state after placing on s, or the reason it is illegal (the turn is a placing turn)."""
        nxt = self._memo.get("next")
        if nxt is not None and nxt[0] == s:
            return nxt[1]
        own, other = self._stones()
        bit = 1 << s
        if (own | other) & bit:
            return "is occupied"
        an = self._analysis()
        board = self.board
        at = region_of(an, s)
        near = board.expand(an.regions[at])
        if near & other and not near & own:
            return f"is {self.to_move.other.word} territory"
        me = 0 if self.to_move is Colour.BLACK else 1
        res = place(board, an, own, other, me, s, at)
        if res.removed_own == bit and not res.removed_other:
            return "would remove only the stone placed"
        groups = (res.own_groups, res.other_groups) if me == 0 else (res.other_groups, res.own_groups)
        smothered = (0, res.other_smothered) if me == 0 else (res.other_smothered, 0)
        black, white = (res.own, res.other) if me == 0 else (res.other, res.own)
        child = AndaState(self.variant, self.to_move.other, self.ply + 1, black, white, self.komi,
                          self.first, PLAY)
        child._memo["an"] = Analysis(res.regions, groups, smothered)
        return child

    def _place(self, s: int) -> AndaState:
        if self.phase is not PLAY or self._eliminated() is not None:
            raise IllegalMove("no placement now" if self.phase is not PLAY else "the game is over")
        if self.to_move in self.first:
            raise IllegalMove("the first turn places two stones (a pair such as a1,i9)")
        try:
            out = self._try_place(s)
        except (ValueError, OverflowError):     # a bit that is no site: found out only when it fails
            if self.board.is_site(s):
                raise
            raise IllegalMove(f"site {s} is off the board") from None
        if isinstance(out, str):
            raise IllegalMove(f"{self.board.name(s)} {out}")
        return out

    def _pair(self, a: int, b: int) -> AndaState:
        if self.phase is not PLAY or self.to_move not in self.first:
            raise IllegalMove("a pair is only a first turn")
        board = self.board
        for s in (a, b):
            if not board.is_site(s):
                raise IllegalMove(f"site {s} is off the board")
            if (self.black | self.white) >> s & 1:
                raise IllegalMove(f"{board.name(s)} is occupied")
            if not board.perimeter >> s & 1:
                raise IllegalMove(f"{board.name(s)} is not on the perimeter")
        a, b = board.sorted_sites((a, b))
        opening = self.variant.option("opening")
        if (a, b) not in _pair_set(board.n, opening):
            what = "neighbours" if opening == "cells" else "on the same or adjacent features"
            raise IllegalMove(f"{board.name(a)} and {board.name(b)} are {what}")
        own, other = self._stones()
        own, other = self._place_pair(own, other, a, b)
        black, white = (own, other) if self.to_move is Colour.BLACK else (other, own)
        return self._with(black=black, white=white, first=self.first - {self.to_move})

    def _place_pair(self, own: int, other: int, a: int, b: int) -> tuple[int, int]:
        """The mover's and the opponent's stones after a first-turn pair on empty a, b."""
        return place_pair(self.board, own, other, a, b)

    def play(self, action: Action) -> AndaState:
        if type(action) is Place:
            return self._place(action.cell)
        if type(action) is Pair:
            return self._pair(action.a, action.b)
        kind = type(action)
        if kind is Pass:
            if self.to_move is Colour.BLACK:
                raise IllegalMove("only White passes")
            if not self.can_pass():
                raise IllegalMove("no komi left to pass" if self.komi == 0 else "no pass now")
            child = self._with(komi=self.komi - 1)
            if "an" in self._memo:
                child._memo["an"] = self._memo["an"]
            return child
        if type(action) is Komi:
            if self.phase is not OFFER:
                raise IllegalMove("no komi offer now")
            sites = self.board.site_count
            if not 0 <= action.k <= sites:
                raise IllegalMove(f"komi {action.k} outside 0..{sites}")
            return self._with(komi=action.k, phase=ANSWER)
        if kind is Swap or kind is Keep:
            if self.phase is not ANSWER:
                raise IllegalMove("no swap decision now")
            return self._with(phase=PLAY)
        raise IllegalMove(f"{self.format(action)} is not an action of Anda")

    def summary(self) -> tuple[int, int, R.Groups, R.Groups]:
        """The board as the players' evaluations read it: ``anda_regions.summary`` (the core's
        state answers it in the core)."""
        return R.summary(self.board, self.black, self.white)

    def legal_cells(self) -> int:
        if not self._placing():
            return 0
        own, other = self._stones()
        me = 0 if self.to_move is Colour.BLACK else 1
        cells, unsure = placeable(self.board, self._analysis(), own, other, me)
        for s in iter_bits(unsure):
            if not isinstance(self._try_place(s), str):
                cells |= 1 << s
        return cells

    def legal_actions(self) -> Iterator[Action]:
        board = self.board
        if self.phase is OFFER:
            yield from (Komi(k) for k in range(board.site_count + 1))
        elif self.phase is ANSWER:
            yield Swap()
            yield Keep()
        elif self.to_move in self.first:
            yield from self._free_pairs()
        elif self._eliminated() is None:
            for s in board.sorted_sites(iter_bits(self.legal_cells())):
                yield Place(s)
            if self.can_pass():
                yield Pass()

    def random_action(self, rng: random.Random) -> Action:
        if self.outcome() is not None:
            raise ValueError("the game is over")
        board = self.board
        if self.phase is OFFER:
            return Komi(rng.randrange(board.site_count + 1))
        if self.phase is ANSWER:
            return rng.choice((Swap(), Keep()))
        if self.to_move in self.first:
            pairs = opening_pairs(board.n, self.variant.option("opening"))
            taken = self.black | self.white
            for _ in range(1000):
                a, b = pairs[rng.randrange(len(pairs))]
                if not (taken >> a & 1 or taken >> b & 1):
                    return Pair(a, b)
            return rng.choice(list(self.legal_actions()))
        # rejection sampling over sites (+ the pass): uniform over the legal actions
        sites = board.sites
        n = len(sites)
        total = n + (1 if self.can_pass() else 0)
        taken = self.black | self.white
        for _ in range(50 * total):
            k = int(rng.random() * total)       # uniform up to 2**-53
            if k == n:
                return Pass()
            s = sites[k]
            if taken >> s & 1:
                continue
            out = self._try_place(s)
            if not isinstance(out, str):
                self._memo["next"] = (s, out)
                return Place(s)
        return rng.choice(list(self.legal_actions()))

    def to_position(self) -> Position:
        stacks = {s: (Colour.BLACK, 1) for s in iter_bits(self.black)}
        stacks.update({s: (Colour.WHITE, 1) for s in iter_bits(self.white)})
        return Position("anda", self.variant.size, self.to_move, stacks, self.position_keys())

    def position_keys(self) -> dict[str, str]:
        return {"variant": self.variant.balance, "opening": self.variant.option("opening"),
                "phase": self.phase, "komi": str(self.komi), "first": format_colours(self.first),
                "ply": str(self.ply)}


def new_game(variant: Variant, komi: int = 0) -> AndaState:
    """The initial state. `komi` (the `komi` setting) counts only under `nopie`; the pie offers its own.
    A setting above the board's sites counts as the sites (docs/rules.md); ValueError when negative."""
    if komi < 0:
        raise ValueError(f"komi {komi} is negative")
    komi = min(komi, hexagon(variant.size).site_count)
    if variant.balance == "pie":
        return AndaState(variant, Colour.BLACK, 0, 0, 0, 0, BOTH, OFFER)
    return AndaState(variant, Colour.BLACK, 0, 0, 0, komi, BOTH, PLAY)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> AndaState:
    """The state a well-formed position describes, as written (no judgement of reachability)."""
    return AndaState(variant, pos.to_move, keys["ply"], pos.bitboard(Colour.BLACK),
                     pos.bitboard(Colour.WHITE), keys["komi"], keys["first"], keys["phase"])


def ply_cap(n: int) -> int:
    """The referee's cap: 10 x sites, adjudged a draw."""
    return 10 * hexagon(n).site_count


RULES = GameInfo(
    id="anda", title="Anda", sgf_number=1001, sizes=(7, 9, 11), default_size=9,
    balances=("pie", "nopie"), options=(("opening", ("features", "cells")),),
    forms=frozenset({Place, Pair, Komi, Swap, Keep, Pass}),
    new_game=new_game, from_position=from_position, ply_cap=ply_cap, uses_komi=True,
    komi_words=("Komi: the passes White may make during the game (each pass spends one and skips White's "
                "turn). After the offer the other side keeps its colour or swaps, so offer what makes the "
                "game even."),
    keys=(phase_key("anda", Phase, PLAY), komi_key(), colours_key("first"), count_key("ply")))
AndaState.info = RULES
