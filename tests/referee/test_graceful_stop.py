"""Graceful stop and one runner per folder, with real signals to a real `hexarena tournament` process.

Ctrl-C once: no new game starts, the games in flight finish and are
journaled, exit 130 with the resume hint. Twice, or SIGTERM: the games in
flight are abandoned (not journaled), exit 130. Never a traceback.
"""
from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from hexarena.results.record.journal import read_journal
from tests.support.fakes import alive, pids_in
from tests.support.referee_run import PATIENCE, start_referee, wait_for, write_config


def in_flight(out) -> set[str]:
    """Ids of the games whose engines have started (their logs exist)."""
    return {f"{p.parent.name}/{p.name.split('.')[0]}" for p in (out / "logs").rglob("*.log")} \
        if (out / "logs").is_dir() else set()


def start_two_slow_games(tmp_path, **options):
    out = tmp_path / "out"
    config = write_config(tmp_path / "t.toml", "slow", games_per_pair=4, good_mode="slow", **options)
    referee = start_referee(config, out, "-j", "2")
    wait_for(lambda: len(in_flight(out)) == 2, "two games in flight")
    return referee, out


def finish(referee) -> str:
    try:
        _, err = referee.communicate(timeout=PATIENCE)
    finally:
        referee.kill()
    return err


def assert_clean_exit(referee, err: str, out) -> None:
    assert referee.returncode == 130, err
    assert "Traceback" not in err, err
    assert f"hexarena tournament --resume --out {out}" in err
    assert not any(alive(p) for log in (out / "logs").rglob("*.log") for p in pids_in(log))


@pytest.mark.slow
def test_ctrl_c_once_lets_the_games_in_flight_finish_and_journals_them(tmp_path):
    referee, out = start_two_slow_games(tmp_path)
    started = in_flight(out)
    referee.send_signal(signal.SIGINT)
    err = finish(referee)
    assert_clean_exit(referee, err, out)
    records = read_journal(out)
    assert {r.id for r in records} == started and all(not r.void for r in records)
    assert all(r.termination == "no-moves" for r in records)      # played to the end
    assert in_flight(out) == started                               # and no new game started
    assert "the games in flight finish" in err


@pytest.mark.slow
@pytest.mark.parametrize("how", ["twice", "sigterm"])
def test_ctrl_c_twice_or_sigterm_abandons_the_games_in_flight(tmp_path, how):
    referee, out = start_two_slow_games(tmp_path)
    if how == "twice":
        referee.send_signal(signal.SIGINT)
        seen = ""
        while "the games in flight finish" not in seen:      # two quick signals could be read as one
            line = referee.stderr.readline()
            assert line, "the referee ended before saying it was stopping"
            seen += line
        referee.send_signal(signal.SIGINT)
    else:
        referee.send_signal(signal.SIGTERM)
    err = finish(referee)
    assert_clean_exit(referee, err, out)
    assert read_journal(out) == []                  # abandoned: the games in flight were not journaled


@pytest.mark.slow
def test_a_second_runner_on_a_folder_in_use_is_refused_with_the_first_ones_pid(tmp_path):
    out = tmp_path / "out"
    first = start_referee(write_config(tmp_path / "t.toml", "hang"), out)
    try:
        wait_for(lambda: (out / "logs").is_dir() and any((out / "logs").rglob("*.log")), "the first run")
        second = subprocess.run([sys.executable, "-m", "hexarena", "tournament", "--resume", "--out", str(out),
                                 "--no-preflight"], capture_output=True, text=True, timeout=PATIENCE)
        assert second.returncode == 1
        assert f"in use by another hexarena run (pid {first.pid})" in second.stderr, second.stderr
        assert "Traceback" not in second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        finish(first)
    assert first.returncode == 130


def test_resume_of_a_folder_that_holds_no_tournament_is_an_error_naming_it(tmp_path):
    typo = tmp_path / "no-such-run"
    done = subprocess.run([sys.executable, "-m", "hexarena", "tournament", "--resume", "--out", str(typo)],
                          capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 1 and f"{typo} holds no tournament" in done.stderr, done.stderr
    assert not typo.exists()
