"""Anda-prison answered by the compiled core (``hexarena_core``, core/): :class:`CorePrisonState`.

The state is a core object (``hexarena_core.PrisonCore``, core/src/python/prison_step.rs,
over ``anda_prison::Prison``: the board, its analysis and every field) with the API and the
fields of :class:`AndaPrisonState`. The whole position and its end live in the core, and
the hot calls of the step API go straight to it with no Python frame: ``outcome``,
``legal_cells``, ``random_action`` (drawn, played and kept for ``play`` in one call),
``play`` of any action of the game (checked in the core), the fields; ``legal_actions`` is
one core call. ``black`` and ``white`` become ints at their first read. Placements and the
words are shared objects (engine.compiled.places), so they cross the boundary without being
built.

The draws come from the core's own generator, seeded once from the caller's
``random.Random`` and handed from each state to the state it draws
(core/src/python/held.rs): the same seed gives the same game, and a game drawn with one
``rng`` calls back into Python once, not per ply. The distribution is the Python rules'
(uniform over the legal actions).

Positions, the reasons of refusals, the board's analysis and the score at an arbitrary
termination are those of ``state.py``, the specification, on an :class:`AndaPrisonState` of
the same position (:meth:`CorePrisonState._py`). A core state equals, hashes and pickles
like the Python state of the same position, and counts as an :class:`AndaPrisonState` for
``isinstance``. Importing this module needs the core installed (ImportError else).
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields

import hexarena_core as core

from ...actions import Accept, Action, Decline, Keep, Komi, Pair, Place, Propose, Release, Swap
from ...core import Colour, Outcome, Termination
from ...compiled import PythonFields, board_bytes, core_rules, places
from ...game import GameInfo, GameState, StoneState, Variant, checked_cap
from ...position import Position
from ..anda_regions import Groups
from . import board as board_mod
from .phases import Phase
from .state import RULES as PYTHON_RULES, AndaPrisonState

_FIELDS = tuple(f.name for f in fields(AndaPrisonState) if f.compare)
#: The core's codes of the phases, the colour sets and the terminations (prison_state.rs).
_PHASES = tuple(Phase)
_TERMINATIONS = (Termination.NO_MOVES, Termination.AGREEMENT, Termination.PLY_CAP)
_SETS: tuple[frozenset[Colour], ...] = (frozenset(), frozenset((Colour.BLACK,)), frozenset((Colour.WHITE,)),
                                        frozenset((Colour.BLACK, Colour.WHITE)))
_WORDS = (Swap, Keep, Release, Propose, Accept, Decline)
CoreFields = tuple[int, int, int, int, int, int, int, int, int]

core.PrisonCore.bind((Colour.BLACK, Colour.WHITE), list(_PHASES), _SETS, _TERMINATIONS, Outcome, list(places()),
                     Place, Pair, Komi, _WORDS, tuple(w() for w in _WORDS))



class CorePrisonState(PythonFields, core.PrisonCore, GameState):
    """An Anda-prison position held in the core (see the module docstring): a virtual subclass
    of :class:`AndaPrisonState` and :class:`StoneState`, whose fields are the core's getters."""

    __slots__ = ()
    info = PYTHON_RULES
    _python = AndaPrisonState
    _fields = _FIELDS
    black: int
    white: int
    phase: Phase
    first: frozenset[Colour]
    prison_black: int
    prison_white: int
    annihilated: frozenset[Colour]
    komi: int
    last: Colour | None

    def _py(self) -> AndaPrisonState:
        """The Python rules' state of this position."""
        return AndaPrisonState(*self._key())

    def _play_python(self, action: Action) -> CorePrisonState:
        """``play`` of what the core does not play itself: the Python rules' refusal (an
        AssertionError if they allow what the core refused)."""
        self._py().play(action)
        raise AssertionError(f"the core refuses {self.format(action)} where the rules allow it ({self.position()})")

    changes = StoneState.changes

    def summary(self) -> tuple[int, int, Groups, Groups]:
        n, black, white, _ = self.core_args()
        return core.anda_summary(n, black, white)

    def analysis(self) -> board_mod.Analysis:
        return self._py().analysis()

    def score(self, termination: Termination) -> Outcome:
        return self._py().score(termination)

    def legal_actions(self) -> Iterator[Action]:
        return iter(self.legal_list())

    def to_position(self) -> Position:
        return self._py().to_position()

    def position_keys(self) -> dict[str, str]:
        return self._py().position_keys()

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), checked_cap(cap))
        return end, swaps


AndaPrisonState.register(CorePrisonState)
StoneState.register(CorePrisonState)


def _colours(colours: frozenset[Colour]) -> int:
    return (1 if Colour.BLACK in colours else 0) | (2 if Colour.WHITE in colours else 0)


def core_state(state: AndaPrisonState | CorePrisonState) -> tuple[int, bytes, bytes, CoreFields]:
    """A state as the core's ``prison_*`` functions take it: (n, black, white, fields)."""
    if isinstance(state, CorePrisonState):
        return state.core_args()
    n = state.variant.size
    k = board_bytes(n)
    last = -1 if state.last is None else (0 if state.last is Colour.BLACK else 1)
    return n, state.black.to_bytes(k, "little"), state.white.to_bytes(k, "little"), (
        0 if state.to_move is Colour.BLACK else 1, state.ply, _PHASES.index(state.phase), _colours(state.first),
        state.prison_black, state.prison_white, _colours(state.annihilated), state.komi, last)


def from_core(variant: Variant, black: bytes, white: bytes, f: CoreFields) -> CorePrisonState:
    """The state the core returned as (black, white, fields)."""
    return CorePrisonState(variant, variant.size, black, white, f)


def core_outcome(got: tuple[int, int, int]) -> Outcome:
    """An outcome the core returned as (winner, termination, twice the margin): scored
    (with its margin) when it is not a draw or an end by no moves."""
    winner, why, margin2 = got
    if winner < 0:
        return Outcome(None, _TERMINATIONS[why])
    return Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, _TERMINATIONS[why], margin2 / 2 if why else None)


def core_playout(state: AndaPrisonState | CorePrisonState, seed: int, cap: int) -> tuple[CorePrisonState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm.
    A state that is over, or at the cap, is its own last state."""
    n, black, white, f = core_state(state)
    (b, w, g), got, swaps = core.prison_playout(n, black, white, f, cap, seed)
    return from_core(state.variant, b, w, g), swaps, None if got[1] == 2 else core_outcome(got)


def _core(state: AndaPrisonState | CorePrisonState) -> CorePrisonState:
    """The core state of `state`'s position."""
    if isinstance(state, CorePrisonState):
        return state
    n, black, white, f = core_state(state)
    return CorePrisonState(state.variant, n, black, white, f)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CorePrisonState)
