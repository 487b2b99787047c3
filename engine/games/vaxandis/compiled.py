"""Vaxandis answered by the compiled core (``hexarena_core``, core/): :class:`CoreVaxandisState`.

The state is a core object (``hexarena_core.VaxandisCore``, core/src/python/vaxandis_step.rs)
with the API and the fields of :class:`VaxandisState`: the position (its stacks' heights
included), its placement cells and whether the mover has a move live in the core, and the hot
calls of the step API go straight to it with no Python frame: ``outcome``, ``legal_cells``,
``random_action`` (drawn, played and kept for ``play`` in one call), ``play`` of a placement,
a move or ``swap`` (checked in the core), ``read`` of such a token (the referee's check of an
engine's answer: ``read`` then ``play``), the fields. ``black``, ``white`` and ``levels``
become Python objects at their first read. Placements and ``swap`` are shared objects
(engine.compiled.places), so they cross the boundary without being built; so are the moves
the core hands out (one ``Move`` per source and landing, built at its first use).

The draws come from the core's own generator, seeded once from the caller's
``random.Random`` and handed from each state to the state it draws
(core/src/python/held.rs): the same seed gives the same game, and a game drawn with one
``rng`` calls back into Python once, not per ply. The distribution is the Python rules':
uniform over every legal action (each placement, move and ``swap`` one choice).

The core also lists the legal actions (``legal_actions``, in ``state.py``'s order) and the
moves (``targets``), counts each side's actions, answers the players' ``summary`` and plays
random playouts. Positions and the
reasons of refusals are those of ``state.py`` and ``moves.py``, the specification, on a
:class:`VaxandisState` of the same position (:meth:`CoreVaxandisState._py`). A core state
equals, hashes and pickles like the Python state of the same position, and counts as a
:class:`VaxandisState` for ``isinstance``. Importing this module needs the core installed.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields
from typing import Any, cast

import hexarena_core as core

from ...actions import Action, Move, Place, Swap
from ...core import Colour, Outcome, Termination
from ...compiled import PythonFields, board_bytes, core_rules, places
from ...game import GameInfo, GameState, StoneState, checked_cap
from ...position import Position
from .moves import Levels, heights_of
from .state import OPEN, PLAY, RULES as PYTHON_RULES, SWAP, Phase, VaxandisState

_FIELDS = tuple(f.name for f in fields(VaxandisState) if f.compare)
_PHASE = {OPEN: 0, SWAP: 1, PLAY: 2}
_PHASES = (OPEN, SWAP, PLAY)
_COLOURS = (Colour.BLACK, Colour.WHITE)

core.VaxandisCore.bind(
    _COLOURS, _PHASES, (Outcome(Colour.BLACK, Termination.NO_MOVES), Outcome(Colour.WHITE, Termination.NO_MOVES)),
    list(places()), Place, Move, Swap, Swap())


class CoreVaxandisState(PythonFields, core.VaxandisCore, GameState):
    """A Vaxandis position held in the core (see the module docstring): a virtual subclass of
    :class:`VaxandisState` and :class:`StoneState`, whose fields are the core's getters."""

    __slots__ = ()
    info = PYTHON_RULES
    _python = VaxandisState
    _fields = _FIELDS
    black: int
    white: int
    levels: Levels
    phase: Phase

    def _py(self) -> VaxandisState:
        """The Python rules' state of this position."""
        return VaxandisState(self.variant, self.to_move, self.ply, self.black, self.white, self.levels, self.phase)

    def _play_python(self, action: Action) -> CoreVaxandisState:
        """``play`` of what the core does not play itself: the Python rules' refusal (an
        AssertionError if they allow an action of the game the core refused)."""
        self._py().play(action)
        raise AssertionError(f"the core refuses {self.format(action)} where the rules allow it ({self.position()})")

    def _read_python(self, token: str) -> tuple[Action, str]:
        """``read`` of a token the core does not read itself (engine/notation.py, with its errors)."""
        return GameState.read(self, token)

    def changes(self, before: GameState | None) -> dict[int, tuple[Colour, int] | None]:
        if not isinstance(before, (VaxandisState, type(None))):
            return GameState.changes(self, before)
        return VaxandisState.changes(cast(VaxandisState, self), before)     # a virtual subclass

    _stack = VaxandisState._stack

    def legal_actions(self) -> Iterator[Action]:
        return iter(self.legal_list())

    def targets(self) -> dict[int, int]:
        """Legal moves of the side to move: source site -> bitboard of landing sites."""
        return dict(self.moves_of(0 if self.to_move is Colour.BLACK else 1))

    def actions(self, colour: Colour) -> int:
        """How many actions `colour` would have here (placements + moves), whoever is to move."""
        return self.legal_cells().bit_count() + sum(bb.bit_count() for _, bb in self.moves_of(_COLOURS.index(colour)))

    def heights(self) -> list[int]:
        """Per-site heights, indexed by bit, 0 when empty."""
        return heights_of(self.levels, self.variant.size)

    def to_position(self) -> Position:
        return self._py().to_position()

    def position_keys(self) -> dict[str, str]:
        return {"variant": self.variant.balance, "freeze": self.variant.option("freeze"),
                "touch": self.variant.option("touch"), "phase": self.phase, "ply": str(self.ply)}

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), checked_cap(cap))
        return end, swaps


VaxandisState.register(CoreVaxandisState)
StoneState.register(CoreVaxandisState)


def _from_fields(variant: Any, to_move: Colour, ply: int, black: int, white: int, levels: Levels,
                 phase: Phase) -> CoreVaxandisState:
    """The core state of these fields (VaxandisState's, in order)."""
    n = variant.size
    k = board_bytes(n)
    return CoreVaxandisState(variant, n, variant.option("freeze") == "group", variant.option("touch") == "path",
                             black.to_bytes(k, "little"), white.to_bytes(k, "little"),
                             [(h, bb.to_bytes(k, "little")) for h, bb in levels], _COLOURS.index(to_move), ply,
                             _PHASE[phase])


def core_playout(state: CoreVaxandisState, seed: int, cap: int) -> tuple[CoreVaxandisState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm."""
    n, group, path, black, white, levels, me = state.core_args()
    b, w, levels, to_move, ply, phase, winner, swaps = core.vaxandis_playout(
        n, group, path, black, white, levels, me, state.ply, _PHASE[state.phase], cap, seed)
    end = CoreVaxandisState(state.variant, n, group, path, b, w, levels, to_move, ply, phase)
    outcome = None if winner < 0 else Outcome(_COLOURS[winner], Termination.NO_MOVES)
    return end, swaps, outcome


def _core(state: VaxandisState) -> CoreVaxandisState:
    """The core state of `state`'s position."""
    if isinstance(state, CoreVaxandisState):
        return state
    return _from_fields(state.variant, state.to_move, state.ply, state.black, state.white, state.levels, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreVaxandisState)

__all__ = ["CoreVaxandisState", "RULES", "core_playout"]
