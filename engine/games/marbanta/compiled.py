"""Marbanta answered by the compiled core (``hexarena_core``, core/): :class:`CoreMarbantaState`.

The state is a core object (``hexarena_core.MarbantaCore``, core/src/python/marbanta_step.rs)
with the API and the fields of :class:`MarbantaState`: the position, its groups and whether
the mover has a turn live in the core, and the hot calls of the step API go straight to it
with no Python frame: ``outcome``, ``legal_cells`` (the legal roots), ``random_action``
(uniform root, then a uniform new group as ``sample.py`` draws it; drawn, played and kept for
``play`` in one call), ``play`` of the pie stones, ``swap``, ``keep``, a placement or a new
group (checked in the core), the fields. ``black`` and ``white`` become ints at their first
read. Placements, ``swap`` and ``keep`` are shared objects (engine.compiled.places), so they
cross the boundary without being built.

The draws come from the core's own generator, seeded once from the caller's
``random.Random`` and handed from each state to the state it draws
(core/src/python/held.rs): the same seed gives the same game, and a game drawn with one
``rng`` calls back into Python once, not per ply.

The core also lists the first ``LISTED`` actions of a turn and plays random playouts (traced
for RAVE too). The pie's listing, the new groups beyond the first ``LISTED``, positions and
the reasons of refusals are those of ``state.py``, the specification, on a
:class:`MarbantaState` of the same position (:meth:`CoreMarbantaState._py`). A core state
equals, hashes and pickles like the Python state of the same position, and counts as a
:class:`MarbantaState` for ``isinstance``. Importing this module needs the core installed
(ImportError else).
"""
from __future__ import annotations

import random
from dataclasses import fields
from collections.abc import Iterator
from itertools import islice
from typing import Any

import hexarena_core as core

from ...actions import Action, Grow, Keep, PieStones, Place, Swap
from ...core import Colour, Outcome, Termination
from ...compiled import PythonFields, board_bytes, core_rules, places
from ...game import GameInfo, GameState, StoneState, checked_cap
from ...position import Position
from .state import PIE, PLAY, RULES as PYTHON_RULES, SWAP, MarbantaState, Phase

_FIELDS = tuple(f.name for f in fields(MarbantaState) if f.compare)
_PHASE = {PIE: 0, SWAP: 1, PLAY: 2}
_PHASES = (PIE, SWAP, PLAY)
_COLOURS = (Colour.BLACK, Colour.WHITE)
#: Actions of a turn listed by the core in one call (the rest, if any, by state.py).
LISTED = 512

core.MarbantaCore.bind(
    _COLOURS, _PHASES, (Outcome(Colour.BLACK, Termination.NO_MOVES), Outcome(Colour.WHITE, Termination.NO_MOVES)),
    list(places()), Place, Grow, PieStones, Swap, Keep, Swap(), Keep())




class CoreMarbantaState(PythonFields, core.MarbantaCore, GameState):
    """A Marbanta position held in the core (see the module docstring): a virtual subclass of
    :class:`MarbantaState` and :class:`StoneState`, whose fields are the core's getters."""

    __slots__ = ()
    info = PYTHON_RULES
    _python = MarbantaState
    _fields = _FIELDS
    black: int
    white: int
    phase: Phase

    def _py(self) -> MarbantaState:
        """The Python rules' state of this position."""
        return MarbantaState(self.variant, self.to_move, self.ply, self.black, self.white, self.phase)

    def _play_python(self, action: Action) -> CoreMarbantaState:
        """``play`` of what the core does not play itself: the Python rules' refusal (an
        AssertionError if they allow an action of the game the core refused)."""
        self._py().play(action)
        raise AssertionError(f"the core refuses {self.format(action)} where the rules allow it ({self.position()})")

    changes = StoneState.changes

    @property
    def owner(self) -> list[int]:
        """The group bitboard of every stone, indexed by bit (the Python rules')."""
        return self._py().owner

    def legal_actions(self) -> Iterator[Action]:
        if self.phase is not PLAY:
            return self._py().legal_actions()
        return self._listed()

    def _listed(self) -> Iterator[Action]:
        listed = core.marbanta_actions(*self.core_args(), LISTED)
        for root, branches in listed:
            yield Grow(root, tuple(branches)) if branches else Place(root)
        if len(listed) == LISTED:
            yield from islice(self._py().legal_actions(), LISTED, None)

    def listed_actions(self, cap: int) -> list[Action] | None:
        if self.phase is not PLAY or cap >= LISTED:
            return GameState.listed_actions(self, cap)
        listed = core.marbanta_actions(*self.core_args(), cap + 1)
        if len(listed) > cap:
            return None
        return [Grow(root, tuple(branches)) if branches else Place(root) for root, branches in listed]

    def to_position(self) -> Position:
        return self._py().to_position()

    def position_keys(self) -> dict[str, str]:
        return {"variant": self.variant.balance, "phase": self.phase, "ply": str(self.ply)}

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), checked_cap(cap))
        return end, swaps

    def traced_playout(self, rng: random.Random, cap: int) -> tuple[GameState, int, list[tuple[Colour, Action]]]:
        checked_cap(cap)
        n, black, white, me = self.core_args()
        b, w, to_move, ply, phase, _, swaps, steps = core.marbanta_traced_playout(
            n, self.variant.balance == "pie", black, white, me, self.ply, _PHASE[self.phase], cap,
            rng.getrandbits(64))
        end = _end(self, b, w, to_move, ply, phase)
        return end, swaps, [(_COLOURS[mover], _action(kind, a, c, branches)) for mover, kind, a, c, branches in steps]


MarbantaState.register(CoreMarbantaState)
StoneState.register(CoreMarbantaState)


def _from_fields(variant: Any, to_move: Colour, ply: int, black: int, white: int, phase: Phase) -> CoreMarbantaState:
    """The core state of these fields (MarbantaState's, in order)."""
    n = variant.size
    k = board_bytes(n)
    return CoreMarbantaState(variant, n, variant.balance == "pie", black.to_bytes(k, "little"),
                             white.to_bytes(k, "little"), 0 if to_move is Colour.BLACK else 1, ply, _PHASE[phase])


def _end(state: CoreMarbantaState, black: bytes, white: bytes, to_move: int, ply: int, phase: int) -> CoreMarbantaState:
    """The core state a playout from `state` ended in."""
    variant = state.variant
    return CoreMarbantaState(variant, variant.size, variant.balance == "pie", black, white, to_move, ply, phase)


def _action(kind: int, a: int, b: int, branches: list[int]) -> Action:
    """An action of the core's trace (core/src/python/evaluation.rs, `Step`)."""
    if kind == 3:
        return Grow(a, tuple(branches)) if branches else Place(a)
    if kind == 0:
        return PieStones(a, b)
    return Swap() if kind == 1 else Keep()


def core_playout(state: CoreMarbantaState, seed: int, cap: int) -> tuple[CoreMarbantaState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm."""
    n, black, white, me = state.core_args()
    b, w, to_move, ply, phase, winner, swaps = core.marbanta_playout(
        n, state.variant.balance == "pie", black, white, me, state.ply, _PHASE[state.phase], cap, seed)
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, Termination.NO_MOVES)
    return _end(state, b, w, to_move, ply, phase), swaps, outcome


def _core(state: MarbantaState) -> CoreMarbantaState:
    """The core state of `state`'s position."""
    if isinstance(state, CoreMarbantaState):
        return state
    return _from_fields(state.variant, state.to_move, state.ply, state.black, state.white, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreMarbantaState)
