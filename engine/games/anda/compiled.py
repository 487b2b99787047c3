"""Anda answered by the compiled core (``hexarena_core``, core/): :class:`CoreAndaState`.

The state is :class:`AndaState` with the same fields and the same API; the board work
(placements with their removals, the legal placements, first-turn pairs, random playouts,
the players' board summary ``summary``)
runs in the core. The turn structure, the positions and the error messages stay those of
``state.py``, the specification. A core state equals and hashes like the Python state of
the same position. Importing this module needs the core installed (ImportError else).

`_memo` keys beyond AndaState's: ``"cells"`` the legal placements, ``"args"`` the board as the core takes it.
"""
from __future__ import annotations

import random
from collections.abc import Iterator

import hexarena_core as core

from ...actions import Pair
from ...core import Colour, Outcome, Termination
from ...compiled import core_rules
from ...game import GameInfo, GameState
from ..anda_regions import Groups
from .state import PLAY, RULES as PYTHON_RULES, AndaState, Phase

_PHASE = {Phase.OFFER: 0, Phase.ANSWER: 1, Phase.PLAY: 2}
_PHASES = (Phase.OFFER, Phase.ANSWER, Phase.PLAY)
_TERMINATION = {1: Termination.NO_MOVES, 2: Termination.ELIMINATED}
_BYTES: dict[int, int] = {}


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
        return CoreAndaState(self.variant, self.to_move.other, self.ply + 1, _int(black), _int(white),
                             self.komi, self.first, PLAY)

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
    end = CoreAndaState(state.variant, Colour.BLACK if to_move == 0 else Colour.WHITE, ply, _int(b), _int(w),
                        komi, owe, _PHASES[phase])
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, _TERMINATION[why])
    return end, swaps, outcome


def _core(state: AndaState) -> CoreAndaState:
    return CoreAndaState(state.variant, state.to_move, state.ply, state.black, state.white, state.komi,
                         state.first, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreAndaState)
