"""Anda answered by the compiled core (``hexarena_core``, core/): :class:`CoreAndaState`.

The state is :class:`AndaState` with the same fields and the same API; the board work
(placements with their removals, the legal placements, first-turn pairs, random playouts,
the players' board summary ``summary``)
runs in the core. The turn structure, the positions and the error messages stay those of
``state.py``, the specification. A core state equals and hashes like the Python state of
the same position. Importing this module needs the core installed (ImportError else).

A random ply of a placing turn is one call of the core (``AndaBoard.random_step``, on the
analysed board the state keeps in the core, ``"core"``): the draw, seeded from the caller's
``random.Random``, the placement and the outcome of the state it leads to, which the child keeps
(``"out"``) along with its board as the core takes it (``"args"``) and its analysed board; the
action is a shared :class:`Place` per site, which ``play`` recognises without checks (``"next"``).
A child is built by setting its slots (:func:`_state`), not through the frozen dataclass's
``__init__``.

`_memo` keys beyond AndaState's: ``"cells"`` the legal placements, ``"args"`` the board as the core
takes it, ``"core"`` the core's analysed board (``hexarena_core.AndaBoard``) of a placing turn.
"""
from __future__ import annotations

from typing import Any

import random
from dataclasses import fields
from collections.abc import Iterator

import hexarena_core as core

from ...actions import Action, Pair, Pass, Place
from ...core import Colour, Outcome, Termination
from ...compiled import core_rules
from ...game import GameInfo, GameState
from ...geometry import hexagon, iter_bits
from ..anda_regions import Groups
from .state import PLAY, RULES as PYTHON_RULES, AndaState, Phase

_PHASE = {Phase.OFFER: 0, Phase.ANSWER: 1, Phase.PLAY: 2}
_PHASES = (Phase.OFFER, Phase.ANSWER, Phase.PLAY)
_TERMINATION = {1: Termination.NO_MOVES, 2: Termination.ELIMINATED}
_BYTES: dict[int, int] = {}
#: One shared Place per bit of the largest board.
_PLACE = tuple(Place(s) for s in range(max(hexagon(n).mask.bit_length() for n in PYTHON_RULES.sizes + (13,))))
_OUTCOME: dict[tuple[int, int], Outcome | None] = {
    (w, why): Outcome(c, t) for w, c in ((0, Colour.BLACK), (1, Colour.WHITE)) for why, t in _TERMINATION.items()}
_OUTCOME[(-1, 0)] = None
#: The first turns still to come as the core takes them (bit 0 Black's, bit 1 White's).
_OWE = {frozenset(): 0, frozenset((Colour.BLACK,)): 1, frozenset((Colour.WHITE,)): 2,
        frozenset((Colour.BLACK, Colour.WHITE)): 3}
_BLACK, _WHITE = Colour.BLACK, Colour.WHITE


def _bytes(n: int) -> int:
    k = _BYTES.get(n)
    if k is None:
        k = _BYTES[n] = core.board_bytes(n)
    return k


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


class CoreAndaState(AndaState):
    """An Anda position whose board work runs in the core (see the module docstring)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AndaState):
            return NotImplemented
        return (self.variant, self.to_move, self.ply, self.black, self.white, self.komi, self.first,
                self.phase) == (other.variant, other.to_move, other.ply, other.black, other.white,
                                other.komi, other.first, other.phase)

    __hash__ = AndaState.__hash__

    def __getstate__(self) -> list:
        """The fields for pickling, the memo left empty (the core's board does not pickle)."""
        return [{} if f.name == "_memo" else getattr(self, f.name) for f in fields(self)]

    def _args(self) -> tuple[int, bytes, bytes]:
        """The board as the core's functions take it (built once per state)."""
        args = self._memo.get("args")
        if args is None:
            n = self.variant.size
            k = _bytes(n)
            args = self._memo["args"] = (n, self.black.to_bytes(k, "little"), self.white.to_bytes(k, "little"))
        return args

    def summary(self) -> tuple[int, int, Groups, Groups]:
        return core.anda_summary(*self._args())

    def play(self, action: Action) -> AndaState:
        nxt = self._memo.get("next")
        if nxt is not None and action is _PLACE[nxt[0]]:
            return nxt[1]
        return AndaState.play(self, action)

    def legal_actions(self) -> Iterator[Action]:
        if self.phase is not PLAY or self.to_move in self.first or self._eliminated() is not None:
            yield from AndaState.legal_actions(self)
            return
        yield from map(_PLACE.__getitem__, self.board.sorted_sites(iter_bits(self.legal_cells())))
        if self.can_pass():
            yield Pass()

    def random_action(self, rng: random.Random) -> Action:
        memo = self._memo
        board = memo.get("core")
        if board is None:
            if self.phase is not PLAY or self.to_move in self.first:
                return AndaState.random_action(self, rng)
            if self.outcome() is not None:
                raise ValueError("the game is over")
            n, black, white = self._args()
            board = memo["core"] = core.AndaBoard(n, black, white, self._me(), self.komi, _OWE[self.first])
        elif memo["out"] is not None:
            raise ValueError("the game is over")
        s, child_board, b, w, winner, why = board.random_step(rng.getrandbits(64))
        if s < 0:
            if s == -1:
                return Pass()
            raise ValueError(f"no action in {self.position()}")   # the outcome above says there is one
        first = self.first
        cm: dict[str, Any] = {"args": (self.variant.size, b, w), "out": _OUTCOME[winner, why]}
        if not first:
            cm["core"] = child_board
        child = _state(self.variant, _WHITE if self.to_move is _BLACK else _BLACK, self.ply + 1, _int(b), _int(w),
                       self.komi, first, PLAY, cm)
        memo["next"] = (s, child)
        return _PLACE[s]

    def _me(self) -> int:
        return 0 if self.to_move is Colour.BLACK else 1

    def legal_cells(self) -> int:
        if not self._placing():
            return 0
        cells = self._memo.get("cells")
        if cells is None:
            cells = self._memo["cells"] = _int(core.anda_legal_cells(*self._args(), self._me()))
        return cells

    def _try_place(self, s: int) -> AndaState | str:
        nxt = self._memo.get("next")
        if nxt is not None and nxt[0] == s:
            return nxt[1]
        if (self.black | self.white) >> s & 1:
            return "is occupied"
        code, black, white = core.anda_place(*self._args(), self._me(), s)
        if code == 2:
            return f"is {self.to_move.other.word} territory"
        if code == 3:
            return "would remove only the stone placed"
        child = _state(self.variant, self.to_move.other, self.ply + 1, _int(black), _int(white),
                       self.komi, self.first, PLAY)
        child._memo["args"] = (self.variant.size, black, white)
        return child

    def _place_pair(self, own: int, other: int, a: int, b: int) -> tuple[int, int]:
        black, white = core.anda_pair(*self._args(), self._me(), a, b)
        if self.to_move is Colour.BLACK:
            return _int(black), _int(white)
        return _int(white), _int(black)

    def _free_pairs(self) -> Iterator[Pair]:
        n = self.variant.size
        taken = (self.black | self.white).to_bytes(_bytes(n), "little")
        for a, b in core.anda_free_pairs(n, self.variant.option("opening") == "cells", taken):
            yield Pair(a, b)

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), cap)
        return end, swaps


_SET = tuple(getattr(CoreAndaState, f.name).__set__ for f in fields(CoreAndaState))
assert [f.name for f in fields(CoreAndaState)] == ["variant", "to_move", "ply", "black", "white", "komi",
                                                   "first", "phase", "_memo"]


def _state(variant: object, to_move: Colour, ply: int, black: int, white: int, komi: int,
           first: frozenset[Colour], phase: Phase, memo: dict | None = None) -> CoreAndaState:
    """``CoreAndaState(...)`` of these fields and `memo` (else an empty one), its slots set directly (the
    frozen dataclass's ``__init__`` costs about three times as much)."""
    s0, s1, s2, s3, s4, s5, s6, s7, s8 = _SET
    state = _new(CoreAndaState)
    s0(state, variant)
    s1(state, to_move)
    s2(state, ply)
    s3(state, black)
    s4(state, white)
    s5(state, komi)
    s6(state, first)
    s7(state, phase)
    s8(state, {} if memo is None else memo)
    return state


_new = object.__new__


def core_playout(state: CoreAndaState, seed: int, cap: int) -> tuple[CoreAndaState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm.
    A state that is over, or at the cap, is its own last state."""
    first = (1 if Colour.BLACK in state.first else 0) | (2 if Colour.WHITE in state.first else 0)
    n, black, white = state._args()
    b, w, to_move, ply, komi, left, phase, winner, why, swaps = core.anda_playout(
        n, state.variant.option("opening") == "cells", black, white, state._me(), state.ply, state.komi,
        first, _PHASE[state.phase], cap, seed)
    owe = frozenset(c for c, bit in ((Colour.BLACK, 1), (Colour.WHITE, 2)) if left & bit)
    end = _state(state.variant, Colour.BLACK if to_move == 0 else Colour.WHITE, ply, _int(b), _int(w),
                        komi, owe, _PHASES[phase])
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, _TERMINATION[why])
    return end, swaps, outcome


def _core(state: AndaState) -> CoreAndaState:
    return CoreAndaState(state.variant, state.to_move, state.ply, state.black, state.white, state.komi,
                         state.first, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreAndaState)
