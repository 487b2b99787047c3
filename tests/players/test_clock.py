"""The serving loop's clock arithmetic: pure, and never above what can be spent."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import registry
from hexarena.players.clock import FISCHER_CAP, LATENCY, LATENCY_SHARE, MAX_MOVES_AHEAD, MIN_MOVES_AHEAD, SAFETY, move_budget, moves_ahead
from hexarena.protocol.clock import ClockKind, MoveClock, TimeControl, TimeLeft

K = ClockKind


def net(budget: float) -> float:
    """A budget less the margin the player keeps back."""
    return budget - min(LATENCY, LATENCY_SHARE * budget)


def test_no_clock_no_budget() -> None:
    assert move_budget(MoveClock()) is None
    assert move_budget(MoveClock(TimeControl(K.NONE))) is None


def test_absolute_is_the_time_left_over_the_moves_ahead() -> None:
    clock = MoveClock(TimeControl(K.ABSOLUTE, main=300), TimeLeft(100.0))
    assert move_budget(clock, 20) == pytest.approx(net(100 / 20 * SAFETY))
    # before any time_left, the main time is what is left
    assert move_budget(MoveClock(TimeControl(K.ABSOLUTE, main=300)), 30) == pytest.approx(net(10 * SAFETY))


def test_fischer_adds_the_increment() -> None:
    clock = MoveClock(TimeControl(K.FISCHER, main=10, increment=0.1), TimeLeft(10.0))
    assert move_budget(clock, 40) == pytest.approx(net((10 / 40 + 0.1) * SAFETY))


def test_a_clock_of_a_second_told_in_decimals_leaves_time_to_think() -> None:
    """Fischer 1 s + 0.1 s with 0.95 s left: a share of tens of milliseconds, less a margin in
    proportion, never the whole 0.15 s that would leave nothing."""
    clock = MoveClock(TimeControl(K.FISCHER, main=1, increment=0.1), TimeLeft(0.95))
    budget = move_budget(clock, 20)
    expected = min(0.95 / 20 + 0.1, FISCHER_CAP * 0.95 / 20) * SAFETY
    assert budget == pytest.approx(expected * (1 - LATENCY_SHARE)) and 0.04 < budget < 0.95


def test_fischer_counts_a_told_increment_at_most_up_to_the_cap() -> None:
    """GTP's whole seconds tell an increment of 0.1 s as 1: spending a second a move would
    drain 10 s in a dozen moves; capped, the budget stays a share of the time left."""
    clock = MoveClock(TimeControl(K.FISCHER, main=10, increment=1), TimeLeft(9.0))
    assert move_budget(clock, 40) == pytest.approx(net(FISCHER_CAP * 9 / 40 * SAFETY))
    banked = MoveClock(TimeControl(K.FISCHER, main=10, increment=1), TimeLeft(200.0))
    assert move_budget(banked, 40) == pytest.approx(net((200 / 40 + 1) * SAFETY))


def test_byoyomi_in_main_time_adds_a_period_and_in_a_period_spends_it() -> None:
    control = TimeControl(K.BYOYOMI, main=60, period=5, periods=3)
    assert move_budget(MoveClock(control, TimeLeft(60.0, 0)), 30) == pytest.approx(net((2 + 5) * SAFETY))
    assert move_budget(MoveClock(control, TimeLeft(4.0, 2)), 30) == pytest.approx(net(4 * SAFETY))


def test_canadian_overtime_shares_the_period_over_the_stones_due() -> None:
    control = TimeControl(K.CANADIAN, main=0, period=30, stones=10)
    assert move_budget(MoveClock(control, TimeLeft(12.0, 4)), 30) == pytest.approx(net(3 * SAFETY))
    # the referee's per-move limit: `time_settings 0 MOVE 1`, no time_left
    per_move = MoveClock(TimeControl(K.CANADIAN, main=0, period=10, stones=1))
    assert move_budget(per_move) == pytest.approx(net(10 * SAFETY))


def test_time_left_without_settings_is_absolute() -> None:
    assert move_budget(MoveClock(None, TimeLeft(50.0)), 10) == pytest.approx(net(5 * SAFETY))


@pytest.mark.parametrize("kind", list(K))
def test_never_above_what_is_left_and_never_negative(kind: ClockKind) -> None:
    rng = random.Random(kind.value)
    for _ in range(500):
        control = TimeControl(kind, main=rng.choice([0, 1, 30, 600]), increment=rng.choice([0, 0.1, 5]),
                              period=rng.choice([0, 1, 10]), periods=rng.choice([0, 1, 5]),
                              stones=rng.choice([0, 1, 25]))
        left = TimeLeft(rng.choice([0.0, 0.01, 0.3, 2.0, 50.0]), rng.choice([0, 1, 3]))
        budget = move_budget(MoveClock(control, left), rng.randint(1, 60))
        if budget is None:
            assert kind is K.NONE
            continue
        assert budget >= 0
        spendable = left.seconds
        if kind is K.BYOYOMI and left.count == 0 and control.periods > 0:
            spendable += control.period
        assert budget <= max(spendable - LATENCY, spendable * (1 - LATENCY_SHARE)) + 1e-9, (control, left)


def test_moves_ahead_is_clamped_and_shrinks_as_the_board_fills() -> None:
    info = registry.get("spelde")
    state = info.new_game(info.variant(7), 0)
    first = moves_ahead(state)
    assert MIN_MOVES_AHEAD <= first <= MAX_MOVES_AHEAD
    rng = random.Random(0)
    while state.outcome() is None:
        assert MIN_MOVES_AHEAD <= moves_ahead(state) <= first
        state = state.play(state.random_action(rng))
