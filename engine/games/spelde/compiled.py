"""Spelde answered by the compiled core (``hexarena_core``, core/): :class:`CoreSpeldeState`.

The state is :class:`SpeldeState` with the same fields and API; the legal cells (with the
path searches of ``flips=dense|standard``), whether an action is legal, random actions,
random playouts and the open sites (the players' evaluation) run in the core. So does
the listing of legal actions under ``flips=literal`` (its first ``LISTED``, in
``flips.py``'s order). The listing under ``dense`` and ``standard`` (whose path sets come
in Python's set order), the effect of an action, positions and the reasons of refusals
stay those of ``state.py``, the specification.
A core state equals and hashes like the Python state of the same position. Importing
this module needs the core installed.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

import hexarena_core as core

from ...actions import Action, Place, Split, Swap
from ...core import Colour, Outcome, Termination
from ...compiled import core_rules
from ...game import GameInfo, GameState
from .state import PLAY, RULES as PYTHON_RULES, SWAP, Phase, SpeldeState

_PHASE = {Phase.OPEN: 0, Phase.SWAP: 1, Phase.PLAY: 2}
_PHASES = (Phase.OPEN, Phase.SWAP, Phase.PLAY)
_RULE = {"literal": 0, "dense": 1, "standard": 2}
#: Placements listed by one call to the core (``flips=literal``); state.py lists any beyond.
LISTED = 1024


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


class CoreSpeldeState(SpeldeState):
    """A Spelde position whose cells, checks and playouts run in the core (see the module docstring)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SpeldeState):
            return NotImplemented
        return (self.variant, self.to_move, self.ply, self.black, self.white, self.phase) == (
            other.variant, other.to_move, other.ply, other.black, other.white, other.phase)

    __hash__ = SpeldeState.__hash__

    def _args(self) -> tuple[int, int, bytes, bytes, int]:
        """The position as the core's functions take it (built once per state)."""
        args = self._memo.get("args")
        if args is None:
            n = self.variant.size
            k = core.board_bytes(n)
            args = self._memo["args"] = (n, _RULE[self.rule], self.black.to_bytes(k, "little"),
                                         self.white.to_bytes(k, "little"), 0 if self.to_move is Colour.BLACK else 1)
        return args

    def legal_cells(self) -> int:
        cached = self._memo.get("cells")
        if cached is None:
            cached = self._memo["cells"] = _int(core.spelde_legal_cells(*self._args()))
        return cached

    def legal_actions(self) -> Iterator[Action]:
        if self.rule != "literal":
            yield from super().legal_actions()
            return
        swap = self.phase is SWAP
        if swap:
            yield Swap()
        n, _, black, white, me = self._args()
        listed = core.spelde_literal_actions(n, black, white, me, LISTED)
        for cell, flips in listed:
            f = _int(flips)
            yield Split(cell, f) if f else Place(cell)
        if len(listed) == LISTED:
            yield from islice(super().legal_actions(), LISTED + swap, None)

    def open_sites(self) -> tuple[int, int]:
        n, _, black, white, _ = self._args()
        ob, ow = core.spelde_open_sites(n, black, white)
        return _int(ob), _int(ow)

    def random_action(self, rng: random.Random) -> Action:
        drawn = core.spelde_random_action(*self._args(), _PHASE[self.phase], rng.getrandbits(64))
        if drawn is None:
            raise ValueError("the game is over")
        cell, flips = drawn
        action: Action = Swap() if cell < 0 else Split(cell, _int(flips)) if any(flips) else Place(cell)
        self._memo["drawn"] = action        # legal by construction: play need not check it again
        return action

    def _check(self, cell: int, named: int) -> None:
        board = self.board
        if board.is_site(cell) and not named & ~board.mask:
            k = core.board_bytes(self.variant.size)
            if core.spelde_allows(*self._args(), _PHASE[self.phase], cell,
                                                             named.to_bytes(k, "little")):
                return
        super()._check(cell, named)          # the reason, in the rules' words
        raise AssertionError(f"the core refuses {cell}/{named} where the rules allow it")

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), cap)
        return end, swaps


def core_playout(state: CoreSpeldeState, seed: int, cap: int) -> tuple[CoreSpeldeState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm."""
    b, w, to_move, ply, phase, winner, swaps = core.spelde_playout(
        *state._args()[:-1], 0 if state.to_move is Colour.BLACK else 1, state.ply, _PHASE[state.phase], cap, seed)
    end = CoreSpeldeState(state.variant, Colour.BLACK if to_move == 0 else Colour.WHITE, ply, _int(b), _int(w),
                          _PHASES[phase])
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, Termination.NO_MOVES)
    return end, swaps, outcome


def _core(state: SpeldeState) -> CoreSpeldeState:
    return CoreSpeldeState(state.variant, state.to_move, state.ply, state.black, state.white, state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreSpeldeState)

__all__ = ["CoreSpeldeState", "RULES", "PLAY", "core_playout"]
