"""The serving loop's clock arithmetic: what the engine was told -> seconds for one move.

Pure functions of values (hexarena.protocol.clock): no bot reads a clock; the
serving loop (players/sdk.py) turns `time_settings` / `kgs-time_settings` /
`time_left` into ``Budget.move_seconds`` with :func:`move_budget`.

The share: the time left in the current stage over the moves still expected
(:func:`moves_ahead`), plus what comes back after each move (Fischer's
increment, at most ``FISCHER_CAP`` times that share; a byo-yomi period; a
Canadian period over its stones). In
overtime the share is the current period (byo-yomi) or the period's time
over the stones still due (Canadian). The budget is ``SAFETY`` times the
share, and never more than what can be spent without losing (the time left,
plus one period in byo-yomi's main time), less a margin for process and pipe
overhead: ``LATENCY`` seconds, or ``LATENCY_SHARE`` of the budget when that is
less (so a clock of a second, told in HGP 1.2's decimals, still leaves time
to think); never negative.
"""
from __future__ import annotations

from hexarena.engine.game import GameState
from hexarena.protocol.clock import ClockKind, MoveClock, TimeControl, TimeLeft

#: The fraction of the computed share a move may use.
SAFETY = 0.8
#: Seconds kept back for start-up, pipes and the referee's bookkeeping ...
LATENCY = 0.15
#: ... or this fraction of the budget, when that is less (sub-second budgets).
LATENCY_SHARE = 0.3
#: Fischer: the increment counts at most up to this many times the share of the time left
#: (``left / moves``). GTP's words are whole seconds, so an increment of 0.1 s is told as
#: `1` (referee/game/clock.py); spending the told second every move would drain the clock to
#: nothing. Capped, a real increment is banked until the time left covers it.
FISCHER_CAP = 2.0
#: The fewest and most own moves expected to remain in a game.
MIN_MOVES_AHEAD = 8
MAX_MOVES_AHEAD = 40


def moves_ahead(state: GameState) -> int:
    """Own moves still expected: half the empty sites, at most half the plies to the cap, clamped."""
    occupied = (getattr(state, "black", 0) | getattr(state, "white", 0)).bit_count()
    empty = state.board.site_count - occupied
    to_cap = state.info.ply_cap(state.variant.size) - state.ply
    guess = min(empty, to_cap) // 2
    return max(MIN_MOVES_AHEAD, min(MAX_MOVES_AHEAD, guess))


def _stage(control: TimeControl, left: TimeLeft | None) -> tuple[float, int]:
    """(seconds left in the current stage, count): from `time_left`, else the control's start."""
    if left is not None:
        return max(0.0, left.seconds), left.count
    if control.main > 0 or control.kind in (ClockKind.ABSOLUTE, ClockKind.FISCHER):
        return control.main, 0
    if control.kind is ClockKind.BYOYOMI:
        return control.period, control.periods
    return control.period, control.stones          # Canadian with no main time


def move_budget(clock: MoveClock, moves: int = MAX_MOVES_AHEAD) -> float | None:
    """Seconds for this move, `moves` own moves being expected; None when no clock is known.

    Never above the time that can be spent without losing on time.
    """
    control, left = clock.control, clock.left
    if control is None:
        if left is None:
            return None
        control = TimeControl(ClockKind.ABSOLUTE, main=left.seconds)
    if control.kind is ClockKind.NONE:
        return None if left is None else _finish(left.seconds / moves, left.seconds)
    seconds, count = _stage(control, left)
    moves = max(1, moves)
    kind = control.kind
    if kind is ClockKind.ABSOLUTE:
        return _finish(seconds / moves, seconds)
    if kind is ClockKind.FISCHER:
        share = seconds / moves
        return _finish(min(share + control.increment, FISCHER_CAP * share), seconds)
    if kind is ClockKind.BYOYOMI:
        if count > 0:                                    # in a period
            return _finish(seconds, seconds)
        reserve = control.period if control.periods > 0 else 0.0
        return _finish(seconds / moves + reserve, seconds + reserve)
    # Canadian
    if count > 0:                                    # overtime: stones still due
        return _finish(seconds / count, seconds)
    per_stone = control.period / control.stones if control.stones > 0 else 0.0
    return _finish(seconds / moves + per_stone, seconds)


def _finish(share: float, spendable: float) -> float:
    budget = min(share * SAFETY, spendable)
    return max(0.0, budget - min(LATENCY, LATENCY_SHARE * budget))


__all__ = ["move_budget", "moves_ahead", "SAFETY", "LATENCY", "LATENCY_SHARE", "FISCHER_CAP"]
