"""Vaxandis answered by the compiled core (``hexarena_core``, core/): :class:`CoreVaxandisState`.

The state is :class:`VaxandisState` with the same fields and API; the legal moves, a
move's effect, random playouts (uniform over every legal action) and the players'
``summary`` run in the core. A random ply stays with the Python rules' draw (whether a move
exists stops at the first one; a drawn move's effect is kept for ``play``), which costs
less than listing every move in the core and converting it.
Placements, the pie, positions and the reasons of refusals stay those of ``state.py``
and ``moves.py``, the specification. A core state equals and hashes like the Python
state of the same position. Importing this module needs the core installed.
"""
from __future__ import annotations

import random

import hexarena_core as core

from ...actions import Move
from ...core import Colour, Outcome, Termination
from ...errors import IllegalMove
from ...compiled import board_bytes, core_rules, from_le
from ...game import GameInfo, GameState
from .moves import Levels, why_illegal
from .state import PLAY, RULES as PYTHON_RULES, Phase, VaxandisState, _settings
from .summary import Summary

_PHASE = {Phase.OPEN: 0, Phase.SWAP: 1, Phase.PLAY: 2}
_PHASES = (Phase.OPEN, Phase.SWAP, Phase.PLAY)
#: The position as the core's functions take it: (n, freeze=group, touch=path, black, white,
#: levels, to_move).
Args = tuple[int, bool, bool, bytes, bytes, list[tuple[int, bytes]], int]



def _levels(levels: list[tuple[int, bytes]]) -> Levels:
    return tuple((h, from_le(bb)) for h, bb in levels)


class CoreVaxandisState(VaxandisState):
    """A Vaxandis position whose moves and playouts run in the core (see the module docstring)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VaxandisState):
            return NotImplemented
        return (self.variant, self.to_move, self.ply, self.black, self.white, self.levels, self.phase) == (
            other.variant, other.to_move, other.ply, other.black, other.white, other.levels, other.phase)

    __hash__ = VaxandisState.__hash__

    def _args(self) -> Args:
        """The position as the core's functions take it (built once per state)."""
        args: Args | None = self._memo.get("args")
        if args is None:
            n = self.variant.size
            k = board_bytes(n)
            _, _, group, path = _settings(self.variant)
            args = self._memo["args"] = (n, group, path, self.black.to_bytes(k, "little"),
                                         self.white.to_bytes(k, "little"),
                                         [(h, bb.to_bytes(k, "little")) for h, bb in self.levels],
                                         0 if self.to_move is Colour.BLACK else 1)
        return args

    def summary(self, ranks: int) -> Summary:
        found: Summary | None = self._memo.get(("summary", ranks))
        if found is None:
            found = self._memo[("summary", ranks)] = core.vaxandis_summary(*self._args(), ranks)
        return found

    def targets(self) -> dict[int, int]:
        found = self._memo.get("targets")
        if found is None:
            found = self._memo["targets"] = {src: from_le(dsts) for src, dsts in core.vaxandis_moves(*self._args())}
        return found

    def _play_move(self, move: Move) -> VaxandisState:
        pending = self._memo.get("next")
        if pending is not None and pending[0] == move:     # random_action's draw, already played out
            return VaxandisState._play_move(self, move)
        _, tb, group, _ = _settings(self.variant)
        if not (tb.geo.is_site(move.src) and tb.geo.is_site(move.dst)):
            raise IllegalMove("off the board")
        got = core.vaxandis_move(*self._args(), move.src, move.dst)
        if got is None:
            own, enemy = self._sides()
            raise IllegalMove(why_illegal(own, enemy, self.levels, self.heights(), tb, move.src, move.dst, group))
        black, white, levels = got
        nxt = CoreVaxandisState(self.variant, self.to_move.other, self.ply + 1, from_le(black), from_le(white),
                                _levels(levels), PLAY)
        n, group, path, _, _, _, me = self._args()
        nxt._memo["args"] = (n, group, path, black, white, levels, 1 - me)      # the core's bytes, as they came
        return nxt

    def playout(self, rng: random.Random, cap: int) -> tuple[GameState, int]:
        end, swaps, _ = core_playout(self, rng.getrandbits(64), cap)
        return end, swaps


def core_playout(state: CoreVaxandisState, seed: int, cap: int) -> tuple[CoreVaxandisState, int, Outcome | None]:
    """A random playout in the core from `state` (seeded): the last state, the number of swaps,
    and the end the core found (None at the cap), which the rules of the last state confirm."""
    b, w, levels, to_move, ply, phase, winner, swaps = core.vaxandis_playout(
        *state._args()[:-1], 0 if state.to_move is Colour.BLACK else 1, state.ply, _PHASE[state.phase], cap, seed)
    end = CoreVaxandisState(state.variant, Colour.BLACK if to_move == 0 else Colour.WHITE, ply, from_le(b), from_le(w),
                            _levels(levels), _PHASES[phase])
    n, group, path = state._args()[:3]
    end._memo["args"] = (n, group, path, b, w, levels, to_move)     # the core's bytes, as they came
    outcome = None if winner < 0 else Outcome(Colour.BLACK if winner == 0 else Colour.WHITE, Termination.NO_MOVES)
    return end, swaps, outcome


def _core(state: VaxandisState) -> CoreVaxandisState:
    return CoreVaxandisState(state.variant, state.to_move, state.ply, state.black, state.white, state.levels,
                             state.phase)


RULES: GameInfo = core_rules(PYTHON_RULES, _core, CoreVaxandisState)
