"""Anda-prison answered by the compiled core (``hexarena_core``, core/): :class:`CorePrisonState`.

The state is :class:`AndaPrisonState` with the same fields and API; the board work of a
placement or a two-stone turn (put the stones, check (2), the one removal step, check (3))
the legal single placements, the players' board summary (``summary``) and random playouts
(``playout``, the whole state in the core: ``anda_prison::Prison``) run in the core. Phases,
the annihilation ban, releases, proposals, pairs' shapes and the score stay those of
``state.py``, the specification. A core state equals and hashes like the Python state of
the same position. Importing this module needs the core installed (ImportError else).
"""
from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import hexarena_core as core

from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove
from ...compiled import core_rules
from ...game import GameInfo, GameState, Variant
from ..anda_regions import Groups
from .phases import Phase
from .state import RULES as PYTHON_RULES, AndaPrisonState

_FIELDS = tuple(f.name for f in fields(AndaPrisonState) if f.compare)


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


class CorePrisonState(AndaPrisonState):
    """An Anda-prison position whose board work runs in the core (see the module docstring)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AndaPrisonState):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    __hash__ = AndaPrisonState.__hash__

    def _args(self) -> tuple[int, bytes, bytes, int]:
        """The board as the core's functions take it (built once per state)."""
        args = self._memo.get("args")
        if args is None:
            n = self.variant.size
            k = core.board_bytes(n)
            args = self._memo["args"] = (n, self.black.to_bytes(k, "little"), self.white.to_bytes(k, "little"),
                                         0 if self.to_move is Colour.BLACK else 1)
        return args

    def summary(self) -> tuple[int, int, Groups, Groups]:
        return core.anda_summary(*self._args()[:3])

    def _try(self, cells: tuple[int, ...], lay: Any = None) -> AndaPrisonState | str:
        sims = self._memo.setdefault("sims", {})
        key = cells[0] if len(cells) == 1 else cells
        got = sims.get(key)
        if got is None:
            code, black, white, jailed_black, jailed_white = core.prison_place(*self._args(), list(cells))
            names = ",".join(self.board.names(sum(1 << s for s in cells)))
            if code == 1:
                got = f"{names}: the placed group would be smothered"
            elif code == 2:
                got = f"{names}: the placed group would be smothered at the end of the turn"
            else:
                try:
                    got = self._resolved(cells, _int(black), _int(white), (jailed_black, jailed_white))
                except IllegalMove as exc:
                    got = str(exc)
            sims[key] = got
        return got

    def legal_cells(self) -> int:
        cells = self._memo.get("cells")
        if cells is None:
            cells = 0
            if self.normal:
                ban = self.to_move.other in self.annihilated
                cells = _int(core.prison_legal_cells(*self._args(), ban))
            self._memo["cells"] = cells
        return cells

    def _has_placement(self) -> bool:
        if "cells" in self._memo:
            return self._memo["cells"] != 0
        if any(not isinstance(v, str) for v in self._memo.get("sims", {}).values()):
            return True
        return core.prison_has_placement(*self._args(), self.to_move.other in self.annihilated)


    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), cap)
        return end, swaps


#: The core's codes of the phases, the colour sets and the terminations (python_prison.rs).
_PHASES = tuple(Phase)
_TERMINATIONS = (Termination.NO_MOVES, Termination.AGREEMENT, Termination.PLY_CAP)
CoreFields = tuple[int, int, int, int, int, int, int, int, int]


def _colours(colours: frozenset[Colour]) -> int:
    return (1 if Colour.BLACK in colours else 0) | (2 if Colour.WHITE in colours else 0)


def core_state(state: AndaPrisonState) -> tuple[int, bytes, bytes, CoreFields]:
    """A state as the core's ``prison_*`` functions take it: (n, black, white, fields)."""
    n = state.variant.size
    k = core.board_bytes(n)
    last = -1 if state.last is None else (0 if state.last is Colour.BLACK else 1)
    return n, state.black.to_bytes(k, "little"), state.white.to_bytes(k, "little"), (
        0 if state.to_move is Colour.BLACK else 1, state.ply, _PHASES.index(state.phase), _colours(state.first),
        state.prison_black, state.prison_white, _colours(state.annihilated), state.komi, last)


def from_core(variant: Variant, black: bytes, white: bytes, f: CoreFields) -> CorePrisonState:
    """The state the core returned as (black, white, fields)."""
    colour = (Colour.BLACK, Colour.WHITE)
    colours = lambda bits: frozenset(c for c, bit in zip(colour, (1, 2)) if bits & bit)  # noqa: E731
    return CorePrisonState(variant, colour[f[0]], f[1], _int(black), _int(white), _PHASES[f[2]], colours(f[3]),
                           f[4], f[5], colours(f[6]), f[7], None if f[8] < 0 else colour[f[8]])


def core_outcome(got: tuple[int, int, int]) -> Outcome:
    """An outcome the core returned as (winner, termination, twice the margin): scored
    (with its margin) when it is not a draw or an end by no moves."""
    winner, why, margin2 = got
    if winner < 0:
        return Outcome(None, _TERMINATIONS[why])
    return Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, _TERMINATIONS[why], margin2 / 2 if why else None)


def core_playout(state: AndaPrisonState, seed: int, cap: int) -> tuple[CorePrisonState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm.
    A state that is over, or at the cap, is its own last state."""
    n, black, white, f = core_state(state)
    (b, w, g), got, swaps = core.prison_playout(n, black, white, f, cap, seed)
    return from_core(state.variant, b, w, g), swaps, None if got[1] == 2 else core_outcome(got)


def _core(state: AndaPrisonState) -> CorePrisonState:
    return CorePrisonState(**{f: getattr(state, f) for f in _FIELDS})


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CorePrisonState)
