"""Anda answered by the compiled core (``hexarena_core``, core/): :class:`CoreAndaState`.

The state is a core object (``hexarena_core.AndaCore``, core/src/python/step.rs) with the API
and the fields of :class:`AndaState`: the whole position, its analysed board included, lives
in the core, and the hot calls of the step API go straight to it with no Python frame:
``outcome``, ``random_action`` (drawn, played and kept for ``play`` in one call), ``play`` of
a placement or a pass, ``legal_cells``, the fields. ``black`` and ``white`` become ints at
their first read. The actions are shared objects (one :class:`Place` per site, one
:class:`Pass`), so they cross the boundary without parsing.

The draws come from the core's own generator, seeded once from the caller's
``random.Random`` and handed from each state to the state it draws (core/src/python/step.rs):
the same seed gives the same game, and a game drawn with one ``rng`` calls back into Python
once, not per ply. The distribution is the Python rules' (uniform over the listed actions).

Whatever the core does not answer itself (the pie's offer and answer, refusals with their
reasons, positions, first-turn listings) goes to the Python rules, ``state.py``, the
specification, on an :class:`AndaState` of the same position (:meth:`CoreAndaState._py`).
A core state equals, hashes and pickles like the Python state of the same position, and
counts as an :class:`AndaState` for ``isinstance``. Importing this module needs the core
installed (ImportError else).
"""
from __future__ import annotations

import random
from dataclasses import fields
from collections.abc import Iterator
from typing import Any

import hexarena_core as core

from ...actions import Action, Pair, Pass, Place
from ...core import Colour, Outcome, Termination
from ...compiled import PythonFields, board_bytes, core_rules, places
from ...game import GameInfo, GameState, StoneState, checked_cap
from ...position import Position
from ..anda_regions import Groups
from .state import BOTH, OFFER, ANSWER, PLAY, RULES as PYTHON_RULES, AndaState, Phase

_FIELDS = tuple(f.name for f in fields(AndaState) if f.compare)
_PHASE = {OFFER: 0, ANSWER: 1, PLAY: 2}
_PHASES = (OFFER, ANSWER, PLAY)
_TERMINATION = {1: Termination.NO_MOVES, 2: Termination.ELIMINATED}
#: One shared Place per bit of the largest board.
_PLACE = places()
#: The first turns still to come as the core takes them (bit 0 Black's, bit 1 White's), and back.
_FIRSTS: tuple[frozenset[Colour], ...] = (frozenset(), frozenset((Colour.BLACK,)), frozenset((Colour.WHITE,)), BOTH)
_OWE = {f: k for k, f in enumerate(_FIRSTS)}

core.AndaCore.bind(
    (Colour.BLACK, Colour.WHITE), _PHASES, _FIRSTS,
    tuple((Outcome(c, Termination.NO_MOVES), Outcome(c, Termination.ELIMINATED)) for c in (Colour.BLACK, Colour.WHITE)),
    list(_PLACE), Place, Pass, Pair, Pass())



class CoreAndaState(PythonFields, core.AndaCore, GameState):
    """An Anda position held in the core (see the module docstring): a virtual subclass of
    :class:`AndaState` and :class:`StoneState`, whose fields are the core's getters."""

    __slots__ = ()
    info = PYTHON_RULES
    _python = AndaState
    _fields = _FIELDS
    black: int
    white: int
    komi: int
    first: frozenset[Colour]
    phase: Phase

    def _py(self) -> AndaState:
        """The Python rules' state of this position."""
        return AndaState(self.variant, self.to_move, self.ply, self.black, self.white, self.komi,
                         self.first, self.phase)

    def _play_python(self, action: Action) -> CoreAndaState:
        """``play`` of what the core does not play itself, by the Python rules."""
        return _core(self._py().play(action))

    def _random_python(self, rng: random.Random) -> Action:
        """``random_action`` of the pie's offer and answer, by the Python rules."""
        return self._py().random_action(rng)

    changes = StoneState.changes

    def summary(self) -> tuple[int, int, Groups, Groups]:
        return core.anda_summary(*self.core_args())

    def enemy_territory(self) -> int:
        return self._py().enemy_territory()

    def legal_actions(self) -> Iterator[Action]:
        if self.placing():
            return iter(self.legal_list())
        return self._py().legal_actions()

    def to_position(self) -> Position:
        return self._py().to_position()

    def position_keys(self) -> dict[str, str]:
        return self._py().position_keys()

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), checked_cap(cap))
        return end, swaps


AndaState.register(CoreAndaState)
StoneState.register(CoreAndaState)


def _from_fields(variant: Any, to_move: Colour, ply: int, black: int, white: int, komi: int,
                 first: frozenset[Colour], phase: Phase) -> CoreAndaState:
    """The core state of these fields (AndaState's, in order)."""
    n = variant.size
    k = board_bytes(n)
    return CoreAndaState(variant, n, variant.option("opening") == "cells", black.to_bytes(k, "little"),
                         white.to_bytes(k, "little"), 0 if to_move is Colour.BLACK else 1, ply, komi,
                         _OWE[first], _PHASE[phase])


def core_playout(state: CoreAndaState, seed: int, cap: int) -> tuple[CoreAndaState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm.
    A state that is over, or at the cap, is its own last state."""
    n, black, white = state.core_args()
    b, w, to_move, ply, komi, left, phase, winner, why, swaps = core.anda_playout(
        n, state.variant.option("opening") == "cells", black, white, 0 if state.to_move is Colour.BLACK else 1,
        state.ply, state.komi, _OWE[state.first], _PHASE[state.phase], cap, seed)
    end = CoreAndaState(state.variant, n, state.variant.option("opening") == "cells", b, w, to_move, ply, komi,
                        left, phase)
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, _TERMINATION[why])
    return end, swaps, outcome


def _core(state: AndaState) -> CoreAndaState:
    """The core state of `state`'s position."""
    if isinstance(state, CoreAndaState):
        return state
    return _from_fields(state.variant, state.to_move, state.ply, state.black, state.white, state.komi,
                        state.first, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreAndaState)
