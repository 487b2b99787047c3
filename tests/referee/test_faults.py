"""Misbehaving engines as real child processes: each gets the right result, none outlives its game."""
from __future__ import annotations

import os
import signal
import sys
from functools import partial
from pathlib import Path

import pytest
import trio

from hexarena.engine.core import Termination
from hexarena.engine.numbers import SHOWN
from hexarena.protocol.controller import FAILURE_SHOWN
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.engines.process import EngineProcess, EngineStartFailed, open_engine
from tests.support.fakes import alive, fake_argv, pids_in

LIMITS = Limits(move=1.0, start=10.0, command=5.0)


def play(tmp_path: Path, mode: str, at: int = 0, first_is_fake: bool = False):
    """One Spelde n=5 game between a good fake and a misbehaving one; checks no process survives."""
    logs = [tmp_path / "good.log", tmp_path / f"{mode}.log"]
    good = Seat("good", partial(open_engine, fake_argv("good"), logs[0], "good"))
    bad = Seat(mode, partial(open_engine, fake_argv(mode, at), logs[1], mode))
    pair = (bad, good) if first_is_fake else (good, bad)
    report = trio.run(play_game, Setup("spelde", 5), pair, LIMITS)
    pids = pids_in(logs[0]) + pids_in(logs[1])
    assert pids, "the fakes report their pids"
    assert [p for p in pids if alive(p)] == [], f"left behind: {pids}"
    return report


@pytest.mark.parametrize("mode, at, termination, result", [
    ("crash", 3, Termination.CRASH, "+F"),
    ("close", 2, Termination.CRASH, "+F"),
    ("hang", 2, Termination.TIME, "+T"),
    ("illegal", 3, Termination.ILLEGAL, "+F"),
    ("malformed", 2, Termination.MALFORMED, "+F"),
    ("huge-number", 2, Termination.MALFORMED, "+F"),
    ("refuse", 1, Termination.MALFORMED, "+F"),
    ("wrong-id", 2, Termination.CRASH, "+F"),
    ("garbage", 1, Termination.CRASH, "+F"),
    ("refuse-play", 4, Termination.CRASH, "+F"),
    ("resign", 2, Termination.RESIGN, "+R"),
])
def test_a_fault_in_play_forfeits_the_game_of_the_faulty_engine(tmp_path, mode, at, termination, result):
    report = play(tmp_path, mode, at)
    assert report.termination == termination.value, report.reason
    assert report.result.endswith(result)
    assert report.winner == "good"
    assert report.faulty == (None if mode == "resign" else mode)
    assert report.loser == mode and report.forfeit == (None if mode == "resign" else termination.value)


def test_an_answer_without_its_empty_line_loses_on_time_saying_what_came(tmp_path):
    report = play(tmp_path, "noblank", 2)
    assert report.forfeit == "time" and report.faulty == "noblank"
    assert "noblank: no move within 1 s (no answer " in report.reason, report.reason
    assert report.reason.endswith("e5\\n' and no empty line after it (an answer ends with an empty line)"), \
        report.reason


def test_endless_empty_lines_forfeit_as_a_crash_saying_what_came(tmp_path):
    report = play(tmp_path, "empty-lines", 2)
    assert report.forfeit == "crash" and report.faulty == "empty-lines" and report.winner == "good"
    assert "empty-lines: " in report.reason and report.reason.endswith(
        " bytes of empty lines and carriage returns and no response (over 1000000; "
        "a response ends with one empty line)"), report.reason


def test_a_number_of_thousands_of_digits_forfeits_as_malformed_with_a_short_reason(tmp_path):
    report = play(tmp_path, "huge-number", 1, first_is_fake=True)
    assert report.result == "W+F" and report.termination == Termination.MALFORMED.value
    assert report.forfeit == "malformed" and not report.void
    assert report.reason == (f"huge-number answered 'a{'9' * (SHOWN - 1)}'... (5001 characters): row of site a "
                             f"{'9' * SHOWN!r}... (5000 characters) has more than 20 digits")


def test_a_failure_text_of_any_length_is_journaled_cut(tmp_path):
    report = play(tmp_path, "refuse-long", 2)
    assert report.forfeit == "malformed" and report.faulty == "refuse-long"
    assert report.reason.endswith(f"genmove failed: {'x' * FAILURE_SHOWN}... (100000 characters)")
    assert len(report.reason) < FAILURE_SHOWN + 100


@pytest.mark.parametrize("mode, cause", [("crash-start", "start"), ("hang-start", "start"), ("v1", "unsupported"),
                                         ("nogame", "unsupported"), ("nosize", "unsupported")])
def test_an_engine_that_cannot_start_or_cannot_play_this_game_voids_it(tmp_path, mode, cause):
    global LIMITS
    saved, LIMITS = LIMITS, Limits(move=1.0, start=1.0, command=5.0)
    try:
        report = play(tmp_path, mode, first_is_fake=True)
    finally:
        LIMITS = saved
    assert report.void and report.result == "Void" and report.termination == "void"
    assert report.faulty == mode and report.winner is None and report.moves == ()
    assert report.void_cause == cause and report.forfeit is None


def test_a_program_that_does_not_exist_voids_the_game(tmp_path):
    missing = Seat("ghost", partial(open_engine, [str(tmp_path / "no-such-engine")], tmp_path / "g.log", "ghost"))
    good = Seat("good", partial(open_engine, fake_argv("good"), tmp_path / "good.log", "good"))
    report = trio.run(play_game, Setup("spelde", 5), (good, missing), LIMITS)
    assert report.result == "Void" and report.faulty == "ghost" and "cannot start" in report.reason
    assert not any(alive(p) for p in pids_in(tmp_path / "good.log"))


@pytest.mark.slow
def test_an_engine_deaf_to_quit_and_sigterm_is_killed_and_so_are_its_children(tmp_path):
    report = play(tmp_path, "stubborn")
    assert report.termination == Termination.NO_MOVES.value
    report = play(tmp_path, "child")          # the grandchild sleeps 600 s: it dies with the group
    assert report.termination == Termination.NO_MOVES.value
    assert len(pids_in(tmp_path / "child.log")) == 2


@pytest.mark.slow
def test_cancelling_a_game_kills_both_engines(tmp_path):
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    seats = (Seat("a", partial(open_engine, fake_argv("hang", 1), logs[0], "a")),
             Seat("b", partial(open_engine, fake_argv("good"), logs[1], "b")))

    async def main():
        with trio.move_on_after(2):
            await play_game(Setup("spelde", 5), seats, Limits(move=60))
            raise AssertionError("the game should still be running")
    trio.run(main)
    pids = pids_in(logs[0]) + pids_in(logs[1])
    assert len(pids) == 2 and not any(alive(p) for p in pids)


def test_engine_process_refuses_a_shell_string_and_reports_spawn_errors(tmp_path):
    async def main():
        async with trio.open_nursery() as nursery:
            with pytest.raises(EngineStartFailed, match="list of words"):
                await EngineProcess.start(nursery, "python -m hexarena.players random", tmp_path / "x.log", "x")
            with pytest.raises(EngineStartFailed, match="cannot start"):
                await EngineProcess.start(nursery, [str(tmp_path)], tmp_path / "x.log", "x")
    trio.run(main)


def test_aclose_is_idempotent_and_stderr_goes_to_the_log(tmp_path):
    code = "import sys; sys.stderr.write('hello log\\n'); sys.stderr.flush(); sys.stdin.read()"

    async def main():
        async with trio.open_nursery() as nursery:
            engine = await EngineProcess.start(nursery, [sys.executable, "-c", code], tmp_path / "e.log", "e")
            pid = engine.pid
            await engine.aclose()
            await engine.aclose()
            assert engine.process.returncode is not None
        return pid
    pid = trio.run(main)
    assert not alive(pid)
    assert "hello log" in (tmp_path / "e.log").read_text()


def test_no_zombie_helpers_the_check_itself_works():
    assert alive(os.getpid())
    # a reaped child is not alive
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    assert not alive(pid)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
