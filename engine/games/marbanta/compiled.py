"""Marbanta answered by the compiled core (``hexarena_core``, core/): :class:`CoreMarbantaState`.

The state is :class:`MarbantaState` with the same fields and API; the legal roots (sight,
N, room), whether there is one, the first ``LISTED`` actions of a turn, and random playouts
(uniform root, then a uniform new group as ``sample.py`` draws it; traced for RAVE too) run
in the core. Turn checks, messages, the pie and the new groups beyond the first ``LISTED``
stay those of ``state.py``, the specification. A core state equals and hashes like the
Python state of the same position. Importing this module needs the core installed
(ImportError else).
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

import hexarena_core as core

from ...actions import Action, Grow, Keep, PieStones, Place, Swap
from ...core import Colour, Outcome, Termination
from ...compiled import core_rules
from ...game import GameInfo, GameState
from .state import PLAY, RULES as PYTHON_RULES, MarbantaState, Phase

_PHASE = {Phase.PIE: 0, Phase.SWAP: 1, Phase.PLAY: 2}
_PHASES = (Phase.PIE, Phase.SWAP, Phase.PLAY)
_COLOURS = (Colour.BLACK, Colour.WHITE)
#: Actions of a turn listed by the core in one call (the rest, if any, by state.py).
LISTED = 512


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


class CoreMarbantaState(MarbantaState):
    """A Marbanta position whose roots and playouts run in the core (see the module docstring)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MarbantaState):
            return NotImplemented
        return (self.variant, self.to_move, self.ply, self.black, self.white, self.phase) == (
            other.variant, other.to_move, other.ply, other.black, other.white, other.phase)

    __hash__ = MarbantaState.__hash__

    def _args(self) -> tuple[int, bytes, bytes, int]:
        n = self.variant.size
        k = core.board_bytes(n)
        return (n, self.black.to_bytes(k, "little"), self.white.to_bytes(k, "little"),
                0 if self.to_move is Colour.BLACK else 1)

    def _roots(self) -> dict[int, int]:
        got = self._memo.get("roots")
        if got is None:
            got = self._memo["roots"] = dict(core.marbanta_roots(*self._args()))
        return got

    def _has_turn(self) -> bool:
        if self.phase is not PLAY:
            return super()._has_turn()
        if "roots" in self._memo:
            return bool(self._memo["roots"])
        got = self._memo.get("has_turn")
        if got is None:
            got = self._memo["has_turn"] = core.marbanta_has_turn(*self._args())
        return got

    def legal_actions(self) -> Iterator[Action]:
        if self.phase is not PLAY:
            yield from super().legal_actions()
            return
        listed = core.marbanta_actions(*self._args(), LISTED)
        for root, branches in listed:
            yield Grow(root, tuple(branches)) if branches else Place(root)
        if len(listed) == LISTED:
            yield from islice(super().legal_actions(), LISTED, None)

    def listed_actions(self, cap: int) -> list[Action] | None:
        if self.phase is not PLAY or cap >= LISTED:
            return super().listed_actions(cap)
        listed = core.marbanta_actions(*self._args(), cap + 1)
        if len(listed) > cap:
            return None
        return [Grow(root, tuple(branches)) if branches else Place(root) for root, branches in listed]

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), cap)
        return end, swaps

    def traced_playout(self, rng: random.Random, cap: int) -> tuple[GameState, int, list[tuple[Colour, Action]]]:
        n, black, white, me = self._args()
        b, w, to_move, ply, phase, _, swaps, steps = core.marbanta_traced_playout(
            n, self.variant.balance == "pie", black, white, me, self.ply, _PHASE[self.phase], cap,
            rng.getrandbits(64))
        end = CoreMarbantaState(self.variant, _COLOURS[to_move], ply, _int(b), _int(w), _PHASES[phase])
        return end, swaps, [(_COLOURS[mover], _action(kind, a, c, branches)) for mover, kind, a, c, branches in steps]


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
    n, black, white, me = state._args()
    b, w, to_move, ply, phase, winner, swaps = core.marbanta_playout(
        n, state.variant.balance == "pie", black, white, me, state.ply, _PHASE[state.phase], cap, seed)
    end = CoreMarbantaState(state.variant, Colour.BLACK if to_move == 0 else Colour.WHITE, ply, _int(b), _int(w),
                            _PHASES[phase])
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, Termination.NO_MOVES)
    return end, swaps, outcome


def _core(state: MarbantaState) -> CoreMarbantaState:
    return CoreMarbantaState(state.variant, state.to_move, state.ply, state.black, state.white, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreMarbantaState)
