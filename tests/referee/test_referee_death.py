"""However the referee ends, its engines end too: real `hexarena tournament` processes.

`kill -9` of the referee while an engine that ignores stdin EOF, `quit` and
SIGTERM is thinking (and has forked a child): both must be gone soon after
(the bound here is generous; bench/bench_faults.py measures it). Ctrl-C
(SIGINT) ends the run without a traceback, exit status 130 and the resume hint.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from hexarena.results.record.journal import read_journal
from hexarena.referee.engines.leftovers import LiveEngines, end_leftovers, start_time
from tests.support.fakes import alive, pids_in
from tests.support.referee_run import PATIENCE, logs_with, start_referee, wait_for, write_config


@pytest.mark.slow
def test_a_referee_killed_with_sigkill_takes_a_hung_engine_and_its_child_with_it(tmp_path):
    out = tmp_path / "out"
    referee = start_referee(write_config(tmp_path / "t.toml", "deaf-hang"), out)
    try:
        wait_for(lambda: logs_with(out, "hung"), "the engine to hang")
        [log] = logs_with(out, "hung")
        pids = pids_in(log)
        assert len(pids) == 2 and all(alive(p) for p in pids)      # the engine and the child it forked
        referee.kill()
        referee.wait()
        wait_for(lambda: not any(alive(p) for p in pids), "the engine and its child to die")
    finally:
        referee.kill()
        referee.communicate()


@pytest.mark.slow
def test_kept_engines_die_with_a_referee_killed_with_sigkill(tmp_path):
    out = tmp_path / "out"       # `bad` hangs at its 40th genmove: in a later game of the same process
    referee = start_referee(write_config(tmp_path / "t.toml", "deaf-hang", games_per_pair=6, restart="fault",
                                         bad_at=40), out)
    try:
        wait_for(lambda: logs_with(out, "hung"), "the engine to hang")
        pids = [p for log in (out / "logs").rglob("*.log") for p in pids_in(log)]
        assert len(pids) == 3 and all(alive(p) for p in pids)      # both kept engines and the hung one's child
        referee.kill()
        referee.wait()
        wait_for(lambda: not any(alive(p) for p in pids), "the kept engines and the child to die")
    finally:
        referee.kill()
        referee.communicate()


@pytest.mark.slow
def test_sigint_ends_the_run_without_a_traceback_with_status_130_and_the_resume_hint(tmp_path):
    out = tmp_path / "out"
    referee = start_referee(write_config(tmp_path / "t.toml", "hang", move=3.0), out)
    try:
        wait_for(lambda: logs_with(out, "hung"), "a game in flight")
        referee.send_signal(signal.SIGINT)
        _, err = referee.communicate(timeout=PATIENCE)
    finally:
        referee.kill()
    assert referee.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err, err
    assert f"hexarena tournament --resume --out {out}" in err
    [record] = read_journal(out)                    # the game in flight finished (on time) and was journaled
    assert record.termination == "time" and record.faulty == "bad"
    assert not any(alive(p) for log in (out / "logs").rglob("*.log") for p in pids_in(log))


def test_leftovers_of_a_dead_run_are_ended_only_when_still_ours(tmp_path):
    record = tmp_path / "engines.live"
    ours = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    try:
        wait_for(lambda: start_time(ours.pid) is not None and start_time(other.pid) is not None, "start")
        live = LiveEngines(record)
        live.add(ours.pid)
        lines = record.read_text().splitlines()
        lines.append(f"{other.pid} {int(start_time(other.pid)) + 1}")    # a reused pid: not ours
        record.write_text("\n".join(lines) + "\n")
        assert end_leftovers(record) == [ours.pid]
        assert ours.wait(timeout=PATIENCE) == -signal.SIGKILL
        assert other.poll() is None and not record.exists()
    finally:
        for p in (ours, other):
            p.kill()
            p.wait()


@pytest.mark.slow
def test_a_run_ends_the_leftover_engines_recorded_in_its_folder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    leftover = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    try:
        wait_for(lambda: start_time(leftover.pid) is not None, "start")
        LiveEngines(out / "engines.live").add(leftover.pid)
        config = write_config(tmp_path / "t.toml", "good", move=5.0)
        done = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out),
                               "--no-preflight", "-q"], capture_output=True, text=True, timeout=PATIENCE * 2)
        assert done.returncode == 0, done.stderr
        assert leftover.wait(timeout=PATIENCE) == -signal.SIGKILL
    finally:
        leftover.kill()
        leftover.wait()
    assert os.path.exists(out / "journal.jsonl")
