"""The fault suite (docs/tournament.md, "Fault table"): real misbehaving processes, one game each.

Every case asserts the termination, the engine at fault, and that no process
of either engine (children included) is left. Deadlines are short; timings
live in bench/bench_faults.py, not here.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import trio

from hexarena.engine.core import Termination
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.engines.process import open_engine
from hexarena.referee.engines.spawn import ResourceLimits
from tests.support.fakes import alive, fake_argv, pids_in

SLOW_MOVE = Limits(move=60.0, start=10.0, command=10.0)     # a wait for the move deadline would show


def play(tmp_path: Path, mode: str, at: int, limits: Limits = SLOW_MOVE, **engine_options):
    logs = [tmp_path / "good.log", tmp_path / f"{mode}.log"]
    good = Seat("good", partial(open_engine, fake_argv("good"), logs[0], "good"))
    bad = Seat(mode, partial(open_engine, fake_argv(mode, at), logs[1], mode, **engine_options))
    report = trio.run(play_game, Setup("spelde", 5), (good, bad), limits)
    pids = pids_in(logs[0]) + pids_in(logs[1])
    assert pids, "the fakes report their pids"
    assert [p for p in pids if alive(p)] == [], f"left behind: {pids}"
    return report, logs[1]


def assert_forfeit(report, mode: str, termination: Termination) -> None:
    assert not report.void and report.termination == termination.value, report.reason
    assert report.winner == "good" and report.faulty == mode


def test_an_engine_that_exits_while_its_child_holds_the_pipes_crashes_at_once(tmp_path):
    report, log = play(tmp_path, "fork-exit", 2)
    assert_forfeit(report, "fork-exit", Termination.CRASH)
    assert "exited with status 7" in report.reason and "genmove" in report.reason
    assert len(pids_in(log)) == 2          # the engine and its child, both gone


def test_an_engine_that_forks_then_hangs_loses_on_time_and_its_child_dies_too(tmp_path):
    report, log = play(tmp_path, "fork-hang", 2, Limits(move=0.5, start=10.0, command=10.0))
    assert_forfeit(report, "fork-hang", Termination.TIME)
    assert len(pids_in(log)) == 2


def test_a_crash_names_its_exit_status(tmp_path):
    report, _ = play(tmp_path, "crash", 2)
    assert_forfeit(report, "crash", Termination.CRASH)
    assert "exited with status 5" in report.reason


def test_a_10_mb_line_is_a_protocol_violation(tmp_path):
    report, _ = play(tmp_path, "bigline", 1)
    assert_forfeit(report, "bigline", Termination.CRASH)


def test_a_stderr_flood_is_capped_head_and_tail_kept_and_the_game_goes_on(tmp_path):
    cap = 256 * 1024
    report, log = play(tmp_path, "flood", 1, log_cap=cap)
    assert not report.void and report.termination == Termination.NO_MOVES.value, report.reason
    text = log.read_text()
    assert len(text) < cap + 200                         # 20 MB written
    assert text.startswith("pid ") and text.rstrip().endswith("last words")
    assert "bytes of this log dropped here" in text


@pytest.mark.slow
def test_exceeding_the_cpu_limit_is_a_crash_with_that_reason(tmp_path):
    report, _ = play(tmp_path, "burn", 1, SLOW_MOVE, resources=ResourceLimits(cpu_seconds=1))
    assert_forfeit(report, "burn", Termination.CRASH)
    assert "CPU time limit of 1 s exceeded" in report.reason


@pytest.mark.slow
def test_an_engine_that_ignores_sigxcpu_is_killed_at_the_hard_limit_and_the_reason_names_the_limit(tmp_path):
    report, _ = play(tmp_path, "burn-deaf", 1, SLOW_MOVE, resources=ResourceLimits(cpu_seconds=1))
    assert_forfeit(report, "burn-deaf", Termination.CRASH)
    assert "killed by signal 9 (SIGKILL): CPU time limit of 1 s exceeded" in report.reason


def test_a_sigkill_from_elsewhere_is_not_blamed_on_the_cpu_or_memory_limit(tmp_path):
    report, _ = play(tmp_path, "self-kill", 2, SLOW_MOVE, resources=ResourceLimits(cpu_seconds=100, memory_mb=4000))
    assert_forfeit(report, "self-kill", Termination.CRASH)
    assert "killed by signal 9 (SIGKILL)" in report.reason
    assert "CPU time limit" not in report.reason and "memory limit" not in report.reason, report.reason


def test_exceeding_the_memory_limit_is_a_crash_that_names_the_limit(tmp_path):
    report, _ = play(tmp_path, "hog", 1, SLOW_MOVE, resources=ResourceLimits(memory_mb=600))
    assert_forfeit(report, "hog", Termination.CRASH)
    assert "memory limit is 600 MB" in report.reason


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["stubborn", "deaf"])
def test_an_engine_that_ignores_quit_and_sigterm_is_killed(tmp_path, mode):
    report, _ = play(tmp_path, mode, 0, Limits(move=2.0, start=10.0, command=10.0))
    assert not report.void and report.termination == Termination.NO_MOVES.value


@pytest.mark.parametrize("eager", [True, False])
def test_a_game_plays_the_same_with_and_without_the_pipe_fast_path(tmp_path, eager):
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    seats = tuple(Seat(n, partial(open_engine, fake_argv("good"), log, n, eager=eager))
                  for n, log in zip("ab", logs))
    report = trio.run(play_game, Setup("spelde", 5), seats, SLOW_MOVE)
    assert not report.void and report.termination == Termination.NO_MOVES.value
    assert len(report.tokens) > 10
