"""Tournaments on a real Dask cluster (scheduler and workers as processes on localhost).

Skipped when `distributed` (the `cluster` extra, part of `test`) is not installed.
"""
from __future__ import annotations

import json
import re
import os
import signal
import subprocess
import sys
import tempfile
import uuid
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster tests need Dask's distributed: "
                                          "pip install 'hexarena[test]' (or 'hexarena[cluster]')")

from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.schedule import schedule
from hexarena.results.page.replay_cache import CACHE_NAME, replay_file

from tests.support.realcluster import (RUN_TIMEOUT, finish, hexarena, journal, local_dask, processes_with,
                                       wait_until, write_config)

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


def moves(out: Path, record: dict) -> list[str]:
    """The move nodes of a game's SGF (the header, with its date, left out; think times and clocks too)."""
    nodes = [n for n in (out / record["sgf"]).read_text().split("\n") if n.startswith(";")]
    return [re.sub(r"(XT|BL|WL)\[[^\]]*\]", "", n) for n in nodes]


def test_a_worker_killed_mid_game_loses_that_game_only_and_results_match_a_local_run(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker)
    ids = [g.id for g in schedule(config_mod.load(cfg_path))]
    out = tmp_path / "on-cluster"
    # allowed_failures=0: the scheduler gives the lost game up at once (KilledWorker) and
    # hexarena's own resubmission plays it again (Dask's default moves it itself, up to 3 deaths)
    with local_dask(tmp_path, 2, allowed_failures=0) as dask:
        victim = dask.workers[0]
        run = hexarena("tournament", str(cfg_path), "--out", str(out), "--cluster", dask.address, cwd=tmp_path)
        # a game is in flight on the victim: one of its engines is the worker's child; and one game is journaled
        wait_until(lambda: journal(out) and victim.pid in processes_with(marker).values(), RUN_TIMEOUT,
                   "a journaled game and an engine running under worker 0")
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        code, stdout, stderr = finish(run)
    assert code == 0, stderr
    assert "lost on the cluster" in stderr and "playing it again" in stderr      # the victim's game
    records = journal(out)
    assert Counter(r["id"] for r in records) == Counter(ids)           # every id exactly once
    assert not [r for r in records if r["result"] == "Void"]
    assert sorted(p.relative_to(out / "games").as_posix() for p in (out / "games").rglob("*.sgf")) == \
        sorted(f"{i}.sgf" for i in ids)
    wait_until(lambda: not processes_with(marker), 30, "the engines of the killed worker to exit")
    # the coordinator's replay check wrote each game's report-cache entry: what a replay of its SGF gives
    cached = {}
    for line in (out / CACHE_NAME).read_text().splitlines():
        entry = json.loads(line)
        cached[entry["k"][0]] = entry["d"]
    assert sorted(cached) == sorted(r["sgf"] for r in records)
    for r in records:
        assert cached[r["sgf"]] == replay_file(out / r["sgf"]), r["id"]

    local = tmp_path / "local"
    code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(local), "-j", "2", "-q",
                                      cwd=tmp_path))
    assert code == 0, stderr
    here = {r["id"]: r for r in journal(local)}
    for r in records:
        same = ("first", "second", "black", "white", "winner", "result", "termination", "plies")
        assert {k: r[k] for k in same} == {k: here[r["id"]][k] for k in same}, r["id"]
        assert moves(out, r) == moves(local, here[r["id"]]), r["id"]
    assert not processes_with(marker)


def test_an_engine_deep_in_a_move_dies_with_its_worker(tmp_path):
    """Without the worker's engine guard, an engine sleeping in `genmove` would outlive a SIGKILLed worker."""
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=1, delay=600)     # every genmove hangs

    flag = Path(tempfile.gettempdir()) / f"{marker}.thinking"

    def thinking() -> bool:
        return flag.exists() and bool(processes_with(marker))
    with local_dask(tmp_path, 1) as dask:
        run = hexarena("tournament", str(cfg_path), "--out", str(tmp_path / "out"), "--cluster", dask.address,
                       cwd=tmp_path)
        wait_until(thinking, RUN_TIMEOUT, "an engine thinking on the worker")
        dask.workers[0].send_signal(signal.SIGKILL)
        dask.workers[0].wait()
        wait_until(lambda: not processes_with(marker), 30, "the engines of the killed worker to be killed")
        run.send_signal(signal.SIGTERM)         # no worker is left to play: stop the run
        code, _, stderr = finish(run)
    assert code == 130 and "--resume" in stderr, stderr


def test_the_preflight_runs_on_the_workers_and_stops_before_any_game(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=1, extra_cmd="/no/such/engine-on-workers")
    out = tmp_path / "out"
    with local_dask(tmp_path, 1) as dask:
        code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(out),
                                          "--cluster", dask.address, cwd=tmp_path))
    assert code == 1
    assert "pre-flight" in stderr and "/no/such/engine-on-workers" in stderr and "on " in stderr
    assert "Traceback" not in stderr
    assert not (out / "journal.jsonl").exists()
    assert not processes_with(marker)


def test_losing_the_scheduler_stops_cleanly_and_resume_finishes_on_a_new_one(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=4)
    ids = [g.id for g in schedule(config_mod.load(cfg_path))]
    out = tmp_path / "out"
    with local_dask(tmp_path, 2) as dask:
        run = hexarena("tournament", str(cfg_path), "--out", str(out), "--cluster", dask.address, cwd=tmp_path)
        # two games in flight: an engine's guard is the child of each worker
        wait_until(lambda: journal(out) and {w.pid for w in dask.workers} <= set(processes_with(marker).values()),
                   RUN_TIMEOUT, "a first journaled game and a game on each worker")
        dask.scheduler.send_signal(signal.SIGKILL)
        code, _, stderr = finish(run)
    assert code == 130, stderr
    assert "lost the Dask scheduler" in stderr and "--resume" in stderr and "Traceback" not in stderr
    assert stderr.count("lost the Dask scheduler") == 1, stderr       # once, not once per game in flight
    # the pre-flight's logs came back from the worker (when it wrote any), not its folder's lock file
    assert not list(out.glob("logs/**/.*"))
    done = journal(out)
    assert 1 <= len(done) < len(ids) and len({r["id"] for r in done}) == len(done)
    wait_until(lambda: not processes_with(marker), 30, "the engines of the lost run to exit")

    with local_dask(tmp_path, 2, "--resources", "games=1") as dask:      # one game per `games` resource
        code, _, stderr = finish(hexarena("tournament", "--resume", "--out", str(out), "--cluster", dask.address,
                                          "-q", cwd=tmp_path))
    assert code == 0, stderr
    assert "2 games at once (one per 'games' resource)" in stderr
    assert Counter(r["id"] for r in journal(out) if r["result"] != "Void") == Counter(ids)


def test_a_coordinator_killed_with_sigkill_resumes_on_the_cluster(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    # four games on two workers: the first two run side by side and may both be journaled before the
    # kill lands (with two games in all, the run could finish first: CI saw it); the last two cannot be
    cfg_path = write_config(tmp_path, marker, games_per_pair=4)
    ids = [g.id for g in schedule(config_mod.load(cfg_path))]
    out = tmp_path / "out"
    with local_dask(tmp_path, 2) as dask:
        run = hexarena("tournament", str(cfg_path), "--out", str(out), "--cluster", dask.address, cwd=tmp_path)
        wait_until(lambda: journal(out), RUN_TIMEOUT, "a first journaled game")
        run.send_signal(signal.SIGKILL)
        finish(run)
        first = journal(out)
        assert 1 <= len(first) < len(ids)
        code, _, stderr = finish(hexarena("tournament", "--resume", "--out", str(out), "--cluster", dask.address,
                                          "-q", cwd=tmp_path))
    assert code == 0, stderr
    records = journal(out)
    assert records[:len(first)] == first
    assert Counter(r["id"] for r in records) == Counter(ids) and not [r for r in records if r["result"] == "Void"]
    wait_until(lambda: not processes_with(marker), 30, "every engine to exit")


def test_without_distributed_cluster_names_the_extra_to_install(tmp_path):
    code = ("import sys; sys.modules['distributed'] = None; from hexarena.cli import main; "
            "main(['tournament', '--out', 'x', '--cluster', 'local:1'])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=RUN_TIMEOUT)
    assert proc.returncode == 1
    assert "pip install 'hexarena[cluster]'" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "x" / "journal.jsonl").exists()


@pytest.mark.parametrize("spec", ["local:0", "local:99999999", "local:\u0663", "local:" + "9" * 5000])
def test_local_n_needs_a_sane_number_of_workers(tmp_path, spec):
    proc = subprocess.run([sys.executable, "-m", "hexarena", "tournament", "--out", "x", "--cluster", spec],
                          cwd=tmp_path, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          env=dict(os.environ))
    assert proc.returncode == 1 and "local:N with N from 1 to 256" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr) < 400
