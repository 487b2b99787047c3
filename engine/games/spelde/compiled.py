"""Spelde answered by the compiled core (``hexarena_core``, core/): :class:`CoreSpeldeState`.

The state is a core object (``hexarena_core.SpeldeCore``, core/src/python/spelde_step.rs)
with the API and the fields of :class:`SpeldeState`: the position and its legal cells (with
the path searches of ``flips=dense|standard``) live in the core, and the hot calls of the
step API go straight to it with no Python frame: ``outcome``, ``legal_cells``,
``random_action`` (drawn, played and kept for ``play`` in one call), ``play`` of a
placement, a split or ``swap`` (checked in the core), ``read`` of such a token (the
referee's check of an engine's answer: ``read`` then ``play``), the fields. ``black`` and ``white``
become ints at their first read. Placements are shared :class:`Place` objects
(engine.compiled.places), so they cross the boundary without being built.

The draws come from the core's own generator, seeded once from the caller's
``random.Random`` and handed from each state to the state it draws
(core/src/python/held.rs): the same seed gives the same game, and a game drawn with one
``rng`` calls back into Python once, not per ply. The distribution is the Python rules'.

The core also lists the legal actions under ``flips=literal`` (its first ``LISTED``, in
``flips.py``'s order) and finds the open sites (the players' evaluation), and plays random
playouts. The listing under ``dense`` and ``standard`` (whose path sets come in Python's set
order), positions and the reasons of refusals are those of ``state.py``, the specification,
on a :class:`SpeldeState` of the same position (:meth:`CoreSpeldeState._py`). A core state
equals, hashes and pickles like the Python state of the same position, and counts as a
:class:`SpeldeState` for ``isinstance``. Importing this module needs the core installed.
"""
from __future__ import annotations

import random
from dataclasses import fields
from collections.abc import Iterator
from itertools import islice
from typing import Any

import hexarena_core as core

from ...actions import Action, Place, Split, Swap
from ...core import Colour, Outcome, Termination
from ...compiled import PythonFields, board_bytes, core_rules, from_le, places
from ...game import GameInfo, GameState, StoneState, checked_cap
from ...position import Position
from .state import OPEN, PLAY, RULES as PYTHON_RULES, SWAP, Phase, SpeldeState

_FIELDS = tuple(f.name for f in fields(SpeldeState) if f.compare)
_PHASE = {OPEN: 0, SWAP: 1, PLAY: 2}
_PHASES = (OPEN, SWAP, PLAY)
_RULE = {"literal": 0, "dense": 1, "standard": 2}
#: Placements listed by one call to the core (``flips=literal``); state.py lists any beyond.
LISTED = 1024

core.SpeldeCore.bind(
    (Colour.BLACK, Colour.WHITE), _PHASES,
    (Outcome(Colour.BLACK, Termination.NO_MOVES), Outcome(Colour.WHITE, Termination.NO_MOVES)),
    list(places()), Place, Split, Swap, Swap())




class CoreSpeldeState(PythonFields, core.SpeldeCore, GameState):
    """A Spelde position held in the core (see the module docstring): a virtual subclass of
    :class:`SpeldeState` and :class:`StoneState`, whose fields are the core's getters."""

    __slots__ = ()
    info = PYTHON_RULES
    _python = SpeldeState
    _fields = _FIELDS
    black: int
    white: int
    phase: Phase

    @property
    def rule(self) -> str:
        return self.variant.option("flips")

    def _py(self) -> SpeldeState:
        """The Python rules' state of this position."""
        return SpeldeState(self.variant, self.to_move, self.ply, self.black, self.white, self.phase)

    def _play_python(self, action: Action) -> CoreSpeldeState:
        """``play`` of what the core does not play itself: the Python rules' refusal (an
        AssertionError if they allow an action of the game the core refused)."""
        after = self._py().play(action)
        if isinstance(action, (Place, Split, Swap)):
            raise AssertionError(f"the core refuses {self.format(action)} where the rules allow it "
                                 f"({self.position()})")
        return _core(after)

    def _read_python(self, token: str) -> tuple[Action, str]:
        """``read`` of a token the core does not read itself (engine/notation.py, with its errors)."""
        return GameState.read(self, token)

    changes = StoneState.changes

    def legal_actions(self) -> Iterator[Action]:
        if self.rule != "literal":
            return self._py().legal_actions()
        return self._literal_actions()

    def _literal_actions(self) -> Iterator[Action]:
        swap = self.phase is SWAP
        if swap:
            yield Swap()
        listed = self.literal_list(LISTED)
        yield from listed
        if len(listed) == LISTED:
            yield from islice(self._py().legal_actions(), LISTED + swap, None)

    def open_sites(self) -> tuple[int, int]:
        n, _, black, white, _ = self.core_args()
        ob, ow = core.spelde_open_sites(n, black, white)
        return from_le(ob), from_le(ow)

    def to_position(self) -> Position:
        return self._py().to_position()

    def position_keys(self) -> dict[str, str]:
        return {"variant": self.variant.balance, "flips": self.rule, "phase": self.phase, "ply": str(self.ply)}

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), checked_cap(cap))
        return end, swaps


SpeldeState.register(CoreSpeldeState)
StoneState.register(CoreSpeldeState)


def _from_fields(variant: Any, to_move: Colour, ply: int, black: int, white: int, phase: Phase) -> CoreSpeldeState:
    """The core state of these fields (SpeldeState's, in order)."""
    n = variant.size
    k = board_bytes(n)
    return CoreSpeldeState(variant, n, _RULE[variant.option("flips")], black.to_bytes(k, "little"),
                           white.to_bytes(k, "little"), 0 if to_move is Colour.BLACK else 1, ply, _PHASE[phase])


def core_playout(state: CoreSpeldeState, seed: int, cap: int) -> tuple[CoreSpeldeState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm."""
    n, rule, black, white, to_move = state.core_args()
    b, w, to_move, ply, phase, winner, swaps = core.spelde_playout(
        n, rule, black, white, to_move, state.ply, _PHASE[state.phase], cap, seed)
    end = CoreSpeldeState(state.variant, n, rule, b, w, to_move, ply, phase)
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, Termination.NO_MOVES)
    return end, swaps, outcome


def _core(state: SpeldeState) -> CoreSpeldeState:
    """The core state of `state`'s position."""
    if isinstance(state, CoreSpeldeState):
        return state
    return _from_fields(state.variant, state.to_move, state.ply, state.black, state.white, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreSpeldeState)

__all__ = ["CoreSpeldeState", "RULES", "PLAY", "core_playout"]
