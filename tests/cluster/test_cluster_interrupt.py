"""Ctrl-C under `--cluster local:N`: the terminal's SIGINT goes to the whole process group
(coordinator and its local Dask workers), as a terminal sends it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster tests need Dask's distributed: "
                                          "pip install 'hexarena[test]' (or 'hexarena[cluster]')")

from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.schedule import schedule

from tests.support.realcluster import RUN_TIMEOUT, finish, journal, processes_with, wait_until, write_config

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


def in_own_group(*args: str, cwd: Path) -> subprocess.Popen:
    """`hexarena ARGS...` leading its own process group, as a shell runs a foreground command."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "hexarena", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_under_local_cluster_stops_after_the_running_games(tmp_path, presses):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=8, delay=0.15)     # 8 games, 2 workers
    ids = [g.id for g in schedule(config_mod.load(cfg_path))]
    out = tmp_path / "out"
    flag = Path(tempfile.gettempdir()) / f"{marker}.thinking"
    run = in_own_group("tournament", str(cfg_path), "--out", str(out), "--cluster", "local:2", cwd=tmp_path)
    try:
        wait_until(flag.exists, RUN_TIMEOUT, "an engine thinking on a local worker")
        os.killpg(run.pid, signal.SIGINT)               # the terminal's Ctrl-C: coordinator and workers
        if presses == 2:
            time.sleep(1)           # two presses, not two signals merged into one pending SIGINT
            os.killpg(run.pid, signal.SIGINT)
        code, _, stderr = finish(run)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert code == 130, stderr
    assert "hexarena tournament --resume --out" in stderr and "--cluster local:2" in stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr    # the workers lived on
    assert "lost on the cluster" not in stderr
    done = journal(out)
    # at most one game per worker was running when the signal came: no other game is journaled
    assert len(done) <= 2 and len(done) < len(ids), [r["id"] for r in done]
    if presses == 1:
        assert "stopping: no new game starts" in stderr
        assert done and not [r for r in done if r["result"] == "Void"]
    wait_until(lambda: not processes_with(marker), 30, "every engine to exit")
