"""Anda-prison (docs/rules/anda-prison.md): points, liberties, the prison, dual pie, ending by agreement.

Phases (`phase=` in the position string, :class:`Phase`; docs/rules/anda-prison.md):

* `pair`       pie: the mover places a setup pair (Black at the start; White after swapping)
* `pair-swap`  pie: White answers Black's pair with `swap` or its own pair
* `swap`       pie: Black answers White's pair with `swap` or `keep`
* `komi`       pie: Black offers `komi=K` (K black stones into the prison, 0 <= K <= sites)
* `komi-swap`  pie: White answers with `swap` or `keep`
* `corners`    balance `corners`: the mover places two stones on non-adjacent corners
* `play`       normal turns; under `nopie` also the two-stone first turns while `first=` is not `-`
* `proposed`   the mover answers a proposal: `accept` or `decline`
* `declined`   the mover's proposal was declined: it must place or release
* `agreed`     over: the proposal was accepted and the game scored

After `swap` the colour to move is decided by the sequence, not by the swap:
the referee exchanges the players. Placements are resolved by ``board.py``;
two-stone turns are tested and enumerated by ``pairs.py``; the phase sequence
and the agreement score are ``phases.py``'s. This module stays over 300 lines
on purpose: it is one class whose methods share the placement cache
(``_memo["sims"]``, ``"lay"``), which by engine.game's convention no other
module touches. A position is taken
as written: `last` is a field like the others (an absent `last=` is `-`, and
then an agreed ending gives nobody the half point).
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import anda_regions as R
from . import board as board_mod
from . import pairs
from .phases import (AGREED, CORNERS, DECLINED, KOMI, KOMI_SWAP, PAIR, PAIR_PHASES, PAIR_SWAP, PLAY, PROPOSED, SWAP,
                     Phase, after_placement, after_word, agreement_score)
from ...actions import Accept, Action, Decline, Keep, Komi, Pair, Place, Propose, Release, Swap
from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove
from ...game import GameInfo, StoneState, Variant
from ...geometry import hexagon, iter_bits
from ...position import (Position, colour_key, colours_key, count_key, format_colours, komi_key, pair_key,
                         phase_key)

BLACK, WHITE = Colour.BLACK, Colour.WHITE


@dataclass(frozen=True, slots=True)
class AndaPrisonState(StoneState):
    """A position. `prison_black`/`prison_white`: stones of that colour in the prison;
    `first`: colours whose two-stone first turn is still to come; `annihilated`: colours that
    have annihilated; `komi`: the komi put into the prison at the start or by the komi pie;
    `last`: the colour of the last placement (a pair counts) or release, None before any.

    `_memo` (engine.game's convention for derived data): ``"lay"`` the board Analysis (handed over
    by the parent where the board is the same or was resolved), ``"sims"`` placement
    results by site or pair, ``"cells"``, ``"out"``, ``"pair_turn"``."""

    info: ClassVar[GameInfo]

    phase: Phase = PLAY
    first: frozenset[Colour] = frozenset()
    prison_black: int = 0
    prison_white: int = 0
    annihilated: frozenset[Colour] = frozenset()
    komi: int = 0
    last: Colour | None = None
    _memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    # -- derived facts ------------------------------------------------------------------
    @property
    def pairing(self) -> bool:
        """True when the mover's turn is a two-stone first turn or setup pair."""
        return self.phase in PAIR_PHASES or (bool(self.first) and (self.phase is PLAY or self.phase is DECLINED))

    @property
    def normal(self) -> bool:
        """True in a normal turn: a placement or a release is due."""
        return (self.phase is PLAY or self.phase is DECLINED) and not self.first

    def analysis(self) -> board_mod.Analysis:
        lay = self._memo.get("lay")
        if lay is None:
            lay = self._memo["lay"] = board_mod.analyse(self.board, self.black, self.white)
        return lay

    def _can_release(self) -> bool:
        return self.normal and (self.prison_white if self.to_move is BLACK else self.prison_black) > 0

    def _child(self, to_move: Colour, phase: Phase, **changes: Any) -> AndaPrisonState:
        """The next state for an action that leaves the board as it is."""
        keep: dict[str, Any] = {"first": self.first, "prison_black": self.prison_black, "prison_white": self.prison_white,
                "komi": self.komi, "last": self.last}
        keep.update(changes)
        child = type(self)(self.variant, to_move, self.ply + 1, self.black, self.white, phase,
                           keep["first"], keep["prison_black"], keep["prison_white"], self.annihilated,
                           keep["komi"], keep["last"])
        if "lay" in self._memo:
            child._memo["lay"] = self._memo["lay"]
        return child

    # -- placements -----------------------------------------------------------------------
    def _turn(self, cells: tuple[int, ...], lay: board_mod.Analysis) -> AndaPrisonState:
        """Resolve a turn whose stones are already put in `lay`; IllegalMove with the reason."""
        me = 0 if self.to_move is BLACK else 1
        res = board_mod.resolve(self.board, lay, me, cells)
        black, white = res.analysis.stones
        child = self._resolved(cells, black, white, res.jailed)
        child._memo["lay"] = res.analysis
        return child

    def _resolved(self, cells: tuple[int, ...], black: int, white: int, jailed: tuple[int, int]) -> AndaPrisonState:
        """The child of a turn whose board the placement checks passed (`jailed`: stones sent to
        the prison per colour); IllegalMove under the annihilation ban."""
        me = 0 if self.to_move is BLACK else 1
        annihilated = self.annihilated
        if (self.white, self.black)[me] and not (white, black)[me]:
            if self.to_move.other in annihilated:
                raise IllegalMove(f"{self.format(_action(cells))} would annihilate, and "
                                  f"{self.to_move.other.word} has annihilated before")
            annihilated = annihilated | {self.to_move}
        first = self.first - {self.to_move}
        phase = after_placement(self.phase, bool(first))
        return type(self)(self.variant, self.to_move.other, self.ply + 1, black, white, phase, first,
                          self.prison_black + jailed[0], self.prison_white + jailed[1],
                          annihilated, self.komi, self.to_move)

    def _pair_turn(self) -> pairs.PairTurn:
        """This state's two-stone turn, for engine/games/anda_prison/pairs.py (cached)."""
        turn = self._memo.get("pair_turn")
        if turn is None:
            lay = self.analysis()
            me = 0 if self.to_move is BLACK else 1
            occupied = self.black | self.white
            turn = self._memo["pair_turn"] = pairs.PairTurn(
                self.board, occupied, self.phase is CORNERS, me, lay,
                pairs.quiet(self.board, lay, me, occupied), self._pair_legal)
        return turn

    def _pair_legal(self, cells: tuple[int, int], first: board_mod.Analysis | None) -> bool:
        return not isinstance(self._try(cells, first), str)

    def _try(self, cells: tuple[int, ...], lay: board_mod.Analysis | None = None) -> AndaPrisonState | str:
        """The child of placing `cells` (canonical, empty, shape checked), or the reason it is illegal.

        `lay`, when given, is this board with the first of two cells already put (pair enumeration)."""
        sims = self._memo.setdefault("sims", {})
        key = cells[0] if len(cells) == 1 else cells
        got = sims.get(key)
        if got is None:
            board = self.board
            me = 0 if self.to_move is BLACK else 1
            if lay is None:
                lay = self.analysis()
                for s in cells:
                    lay = board_mod.put(board, lay, s, me)
            else:
                lay = board_mod.put(board, lay, cells[1], me)
            try:
                got = self._turn(cells, lay)
            except IllegalMove as exc:
                got = str(exc)
            sims[key] = got
        return got

    def summary(self) -> tuple[int, int, R.Groups, R.Groups]:
        """The board as the players' evaluations read it: ``anda_regions.summary`` (the core's
        state answers it in the core)."""
        return R.summary(self.board, self.black, self.white)

    def legal_cells(self) -> int:
        cells = self._memo.get("cells")
        if cells is None:
            cells = 0
            if self.normal:
                empty = self.board.mask & ~(self.black | self.white)
                sure, unsure = self._quiet_cells(empty)
                cells = sure
                for s in iter_bits(unsure):
                    if not isinstance(self._try((s,)), str):
                        cells |= 1 << s
            self._memo["cells"] = cells
        return cells

    def _quiet_cells(self, empty: int) -> tuple[int, int]:
        """(sites surely legal, sites to resolve) among the `empty` sites, by the quiet test.

        A quiet site (no stone around, no group standing smothered; pairs.quiet) keeps its
        region connected when taken, so its stone's only breath is that region: the placement
        is illegal when one enemy group touches it, legal without any removal when none does
        or when a group of the mover touches it already (no enemy group can become smothered,
        since the region then touches two or more of the mover's groups); else (enemy groups
        but none of the mover's) it is resolved fully, as every non-quiet site is."""
        me = 0 if self.to_move is BLACK else 1
        q = pairs.quiet(self.board, self.analysis(), me, self.black | self.white)
        if q is None:
            return 0, empty
        quiet_sites, regions = q
        sure = 0
        unsure = empty & ~quiet_sites
        for region, own, enemy in regions:
            sites = region & quiet_sites
            if not sites or enemy == 1:
                continue
            if enemy == 0 or own:
                sure |= sites
            else:
                unsure |= sites
        return sure, unsure

    def _has_placement(self) -> bool:
        if "cells" in self._memo:
            return self._memo["cells"] != 0
        sims = self._memo.get("sims", {})
        if any(not isinstance(v, str) for v in sims.values()):
            return True
        for s in iter_bits(self.board.mask & ~(self.black | self.white)):
            if not isinstance(self._try((s,)), str):
                return True
        return False

    # -- the interface ----------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if "out" not in self._memo:
            self._memo["out"] = self._outcome()
        return self._memo["out"]

    def _outcome(self) -> Outcome | None:
        if self.phase is AGREED:
            return self.score(Termination.AGREEMENT)
        if self.normal:
            alive = self._can_release() or self._has_placement()
        elif self.pairing:
            alive = next(pairs.legal_pairs(self._pair_turn()), None) is not None or self.phase is PAIR_SWAP
        else:
            alive = True
        return None if alive else Outcome(self.to_move.other, Termination.NO_MOVES)

    def score(self, termination: Termination) -> Outcome:
        """The agreement score now (phases.agreement_score): a draw on equal scores, which
        needs `last` unset (no placement yet, or a position given without `last=`)."""
        return agreement_score(self.board, self.black, self.white, self.prison_black, self.prison_white,
                               self.last, termination)

    def adjudicate(self) -> Outcome:
        """The referee's verdict at its ply cap: the agreement score as if accepted now."""
        return self.score(Termination.PLY_CAP)

    def legal_actions(self) -> Iterator[Action]:
        if self.outcome() is not None:
            return
        phase = self.phase
        if phase is PROPOSED:
            yield from (Accept(), Decline())
        elif phase is SWAP or phase is KOMI_SWAP:
            yield from (Swap(), Keep())
        elif phase is KOMI:
            yield from (Komi(k) for k in range(self.board.site_count + 1))
        elif self.pairing:
            yield from pairs.legal_pairs(self._pair_turn())
            if phase is PAIR_SWAP:
                yield Swap()
        else:
            for s in self.board.sorted_sites(iter_bits(self.legal_cells())):
                yield Place(s)
            if self._can_release():
                yield Release()
            if phase is PLAY:
                yield Propose()

    def random_action(self, rng: random.Random) -> Action:
        if self.outcome() is not None:
            raise ValueError("the game is over")
        phase = self.phase
        if phase is PROPOSED:
            return rng.choice((Accept(), Decline()))
        if phase is SWAP or phase is KOMI_SWAP:
            return rng.choice((Swap(), Keep()))
        if phase is KOMI:
            return Komi(rng.randrange(self.board.site_count + 1))
        if phase is CORNERS:
            return rng.choice(list(pairs.legal_pairs(self._pair_turn())))
        if self.pairing:
            return pairs.random_pair(self._pair_turn(), rng, (Swap(),) if phase is PAIR_SWAP else ())
        sites = self.board.sites
        n = len(sites)
        occupied = self.black | self.white
        words = ((Release(),) if self._can_release() else ()) + ((Propose(),) if phase is PLAY else ())
        while True:
            r = rng.randrange(n + len(words))
            if r >= n:
                return words[r - n]
            s = sites[r]
            if not occupied >> s & 1 and not isinstance(self._try((s,)), str):
                return Place(s)

    def play(self, action: Action) -> AndaPrisonState:
        phase = self.phase
        if self.outcome() is not None:
            raise IllegalMove("the game is over")
        if isinstance(action, Place):
            if not self.normal:
                raise IllegalMove(f"no single placement in phase {phase}" + (" (first turn: a pair)" if self.first else ""))
            s = action.cell
            if not self.board.is_site(s):
                raise IllegalMove("off the board")
            if (self.black | self.white) >> s & 1:
                raise IllegalMove(f"{self.board.name(s)} is occupied")
            return _checked(self._try((s,)))
        if isinstance(action, Pair):
            if not self.pairing:
                raise IllegalMove(f"no two-stone turn in phase {phase}")
            if not (self.board.is_site(action.a) and self.board.is_site(action.b)):
                raise IllegalMove("off the board")
            a, b = self.board.sorted_sites((action.a, action.b))
            why = pairs.pair_shape(self._pair_turn(), a, b)
            if why:
                raise IllegalMove(why)
            return _checked(self._try((a, b)))
        if isinstance(action, Release):
            if not self._can_release():
                raise IllegalMove("release: the prison holds no enemy-coloured stone"
                                  if self.normal else f"no release in phase {phase}")
            key = "prison_white" if self.to_move is BLACK else "prison_black"
            return self._child(self.to_move.other, PLAY, last=self.to_move,
                               **{key: getattr(self, key) - 1})
        if isinstance(action, (Propose, Accept, Decline, Swap, Keep)):
            nxt = None if isinstance(action, Propose) and self.first else after_word(phase, action, self.to_move)
            if nxt is None:
                if isinstance(action, Propose):
                    raise IllegalMove("propose again only after a placement or release"
                                      if phase is DECLINED else f"no proposal in phase {phase}")
                if isinstance(action, (Accept, Decline)):
                    raise IllegalMove(f"nothing to {type(action).__name__.lower()}: no proposal")
                raise IllegalMove(f"{self.format(action)} is not an action of phase {phase}")
            return self._child(*nxt)
        if isinstance(action, Komi) and phase is KOMI:
            if not 0 <= action.k <= self.board.site_count:
                raise IllegalMove(f"komi={action.k}: expected 0..{self.board.site_count}")
            return self._child(WHITE, KOMI_SWAP, prison_black=self.prison_black + action.k, komi=action.k)
        raise IllegalMove(f"{self.format(action)} is not an action of phase {phase}")

    def to_position(self) -> Position:
        stacks = {b: (BLACK, 1) for b in iter_bits(self.black)}
        stacks.update({b: (WHITE, 1) for b in iter_bits(self.white)})
        return Position("anda-prison", self.variant.size, self.to_move, stacks, self.position_keys())

    def position_keys(self) -> dict[str, str]:
        return {
            "variant": self.variant.balance,
            "phase": self.phase,
            "komi": str(self.komi),
            "prison": f"{self.prison_black},{self.prison_white}",
            "first": format_colours(self.first),
            "annihilated": format_colours(self.annihilated),
            "last": self.last.value if self.last else "-",
            "ply": str(self.ply),
        }


def _action(cells: tuple[int, ...]) -> Action:
    return Place(cells[0]) if len(cells) == 1 else Pair(*cells)


def _checked(got: AndaPrisonState | str) -> AndaPrisonState:
    if isinstance(got, str):
        raise IllegalMove(got)
    return got


def new_game(variant: Variant, komi: int = 0) -> AndaPrisonState:
    """The initial state; the komi setting applies to `nopie` and `corners` (the pie sets its own).
    A setting above the board's sites counts as the sites (docs/rules.md); ValueError when negative."""
    if komi < 0:
        raise ValueError(f"komi {komi} is negative")
    komi = min(komi, hexagon(variant.size).site_count)
    if variant.balance == "pie":
        return AndaPrisonState(variant, BLACK, 0, 0, 0, PAIR, frozenset((BLACK, WHITE)))
    phase = CORNERS if variant.balance == "corners" else PLAY
    return AndaPrisonState(variant, BLACK, 0, 0, 0, phase, frozenset((BLACK, WHITE)), komi, 0, frozenset(), komi)


def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> AndaPrisonState:
    """The state a well-formed position describes, as written (no judgement of reachability)."""
    prison_black, prison_white = keys["prison"]
    return AndaPrisonState(variant, pos.to_move, keys["ply"], pos.bitboard(BLACK), pos.bitboard(WHITE),
                           keys["phase"], keys["first"], prison_black, prison_white, keys["annihilated"],
                           keys["komi"], keys["last"])


def ply_cap(n: int) -> int:
    """The referee's cap: 10 x sites, adjudged by the agreement score."""
    return 10 * hexagon(n).site_count


RULES = GameInfo(
    id="anda-prison",
    title="Anda-prison",
    sgf_number=1002,
    sizes=(7, 9, 11),
    default_size=9,
    balances=("pie", "nopie", "corners"),
    options=(),
    forms=frozenset({Place, Pair, Komi, Swap, Keep, Release, Propose, Accept, Decline}),
    new_game=new_game,
    from_position=from_position,
    ply_cap=ply_cap,
    keys=(phase_key("anda-prison", Phase, PLAY), komi_key(), pair_key("prison"), colours_key("first"),
          colours_key("annihilated"), colour_key("last"), count_key("ply")),
    uses_komi=True,
    komi_words=("Komi: black stones put in the prison at the start (each counts for White at the end). "
                "After the offer the other side keeps its colour or swaps, so offer what makes the game even."),
    drawing="points",
    shown_keys=("prison",),
)
AndaPrisonState.info = RULES
