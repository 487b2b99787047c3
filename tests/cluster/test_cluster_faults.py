"""What a run says when the cluster is not what it should be: a worker without hexarena (or with
another version), an address that is no scheduler, and engine ends on workers worded as locally.
Real `dask scheduler` and `dask worker` processes on localhost, as in test_cluster.py."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster tests need Dask's distributed: "
                                          "pip install 'hexarena[test]' (or 'hexarena[cluster]')")

from tests.support.realcluster import (RUN_TIMEOUT, LocalDask, finish, hexarena, journal, local_dask,
                                       processes_with, wait_until, write_config)

pytestmark = [pytest.mark.cluster, pytest.mark.slow]
#: Dask's config for the coordinator: 2 s to reach a scheduler (3 s before a silent one is given
#: up), 3 s without a worker before a run says it waits for one (20 s and 60 s by default)
PATIENCE = {"DASK_HEXARENA__CLUSTER__CONNECT": "2s", "DASK_HEXARENA__CLUSTER__WORKERS": "3s"}

#: `dask worker ADDRESS` in a process where `import hexarena` fails (as on a machine without it).
_NO_HEXARENA = ("import sys; sys.modules['hexarena'] = None; "
                "sys.argv = ['dask-worker', sys.argv[1], '--name', sys.argv[2], '--nthreads', '1', '--no-nanny', "
                "'--no-dashboard']; "
                "from distributed.cli.dask_worker import main; main()")


def worker_without_hexarena(address: str, folder: Path, name: str) -> subprocess.Popen:
    """A worker joined to the scheduler at `address` that cannot import hexarena (its log: folder/NAME.log)."""
    with open(folder / f"{name}.log", "ab") as log:
        proc = subprocess.Popen([sys.executable, "-c", _NO_HEXARENA, address, name], stdout=log, stderr=log,
                                cwd=folder, start_new_session=True)
    from distributed import Client
    with Client(address, timeout=60) as client:
        wait_until(lambda: any(w["name"] == name for w in client.scheduler_info(n_workers=-1)["workers"].values()),
                   60, "the worker without hexarena to join")
    return proc


@contextmanager
def scheduler_alone(folder: Path) -> Iterator[LocalDask]:
    """A running scheduler without workers (the test starts its own)."""
    dask = LocalDask(folder)
    try:
        dask.start_scheduler()
        yield dask
    finally:
        dask.stop()


def stopped(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def test_a_worker_that_cannot_import_hexarena_fails_the_preflight_and_games_wait_for_a_worker(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=1)
    with scheduler_alone(tmp_path) as dask:
        bad = worker_without_hexarena(dask.address, tmp_path, "nohexarena0")
        try:
            code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(tmp_path / "out"),
                                              "--cluster", dask.address, cwd=tmp_path))
        finally:
            stopped(bad)
        assert code == 1, stderr
        assert "the pre-flight task did not run (its worker tcp://127.0.0.1:" in stderr, stderr
        assert "a worker that cannot import hexarena exits" in stderr and "is hexarena installed" in stderr
        assert not (tmp_path / "out" / "journal.jsonl").exists()

        # without the pre-flight, the games' tasks kill the worker; the run says it waits for one, and waits
        bad = worker_without_hexarena(dask.address, tmp_path, "nohexarena1")
        run = hexarena("tournament", str(cfg_path), "--out", str(tmp_path / "out"), "--cluster", dask.address,
                       "--no-preflight", cwd=tmp_path, env=PATIENCE)
        try:
            said = []
            reader = threading.Thread(target=lambda: said.extend(run.stderr), daemon=True)   # type: ignore[arg-type]
            reader.start()
            wait_until(lambda: any("no Dask worker has been connected" in line for line in said), RUN_TIMEOUT,
                       "the run to say that it waits for a worker")
            assert run.poll() is None       # still waiting
            run.terminate()
            assert run.wait(RUN_TIMEOUT) == 130
            reader.join(RUN_TIMEOUT)
        finally:
            stopped(bad)
            if run.poll() is None:
                run.kill()
                run.wait()
    stderr = "".join(said)
    assert stderr.count("no Dask worker has been connected") == 1, stderr
    assert "the run waits for one (Ctrl-C stops it; --resume continues it later)" in stderr
    assert not processes_with(marker)


def test_an_address_that_is_not_a_scheduler_stops_with_a_message(tmp_path):
    """A listener that accepts connections and never answers (as a dashboard's HTTP port does to Dask)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        address = "tcp://127.0.0.1:%d" % listener.getsockname()[1]
        cfg_path = write_config(tmp_path, f"hexarena-cluster-test-{uuid.uuid4().hex}", games_per_pair=1)
        code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(tmp_path / "out"),
                                          "--cluster", address, cwd=tmp_path, env=PATIENCE))
    assert code == 1, stderr
    assert f"no Dask scheduler answered at {address} within 3 s: is it the scheduler's address" in stderr, stderr
    assert "Traceback" not in stderr
    assert not (tmp_path / "out").exists()


def test_a_worker_of_another_version_is_named_by_its_host_name_and_nothing_is_written(tmp_path):
    other = tmp_path / "other-version"
    (other / "hexarena-0.0.0.dev0.dist-info").mkdir(parents=True)
    (other / "hexarena-0.0.0.dev0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: hexarena\nVersion: 0.0.0.dev0\n")
    cfg_path = write_config(tmp_path, f"hexarena-cluster-test-{uuid.uuid4().hex}", games_per_pair=1)
    out = tmp_path / "out"
    with scheduler_alone(tmp_path) as dask:
        dask.env["PYTHONPATH"] = str(other)     # importlib.metadata finds this version first on that worker
        dask.start_workers(1)
        code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(out),
                                          "--cluster", dask.address, cwd=tmp_path))
    assert code == 1, stderr
    assert f"on {socket.gethostname()}: hexarena 0.0.0.dev0 is installed" in stderr, stderr
    assert not out.exists(), sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))


#: An engine that plays (built-in random) until its first `genmove`, then kills itself or burns CPU.
_FAULTY = """
import os, signal, sys
from hexarena.players.serve import make_engine
engine = make_engine("random", 1)
for line in sys.stdin:
    if "genmove" in line:
        if sys.argv[1] == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        while True:
            pass
    answer = engine.handle(line)
    if answer is not None:
        sys.stdout.write(answer)
        sys.stdout.flush()
    if engine.finished:
        break
"""


def test_engine_ends_on_a_worker_are_worded_as_in_a_local_run(tmp_path):
    (tmp_path / "faulty.py").write_text(_FAULTY)
    cfg_path = tmp_path / "faults.toml"
    cfg_path.write_text(
        'seed = 1\ngames_per_pair = 1\n[time]\nmove = 20\nstart = 30\n'
        '[engines.random]\ncmd = ["{python}", "-m", "hexarena", "engine", "random"]\n'
        f'[engines.killed]\ncmd = ["{{python}}", "{tmp_path / "faulty.py"}", "kill"]\n'
        f'[engines.burner]\ncmd = ["{{python}}", "{tmp_path / "faulty.py"}", "burn"]\ncpu_seconds = 1\n'
        '[engines.missing]\ncmd = ["/nonexistent/engine"]\n'
        '[[games]]\ngame = "spelde"\nsize = 4\n', encoding="utf-8")

    def reasons(out: Path) -> dict[str, str]:
        return {r["id"]: r["reason"] for r in journal(out)}
    with local_dask(tmp_path, 1) as dask:
        code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(tmp_path / "cluster"), "-q",
                                          "--no-preflight", "--cluster", dask.address, cwd=tmp_path))
    assert code == 0, stderr
    code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(tmp_path / "local"), "-q",
                                      "--no-preflight", cwd=tmp_path))
    assert code == 0, stderr
    local = reasons(tmp_path / "local")
    assert reasons(tmp_path / "cluster") == local
    said = json.dumps(local)
    assert "killed: closed its stdout: killed by signal 9 (SIGKILL)" in said, said
    assert "killed by signal 24 (SIGXCPU): CPU time limit of 1 s exceeded" in said, said
    assert "did not start: missing: cannot start '/nonexistent/engine': No such file or directory" in said, said
    assert not [p for p in (tmp_path / "cluster").glob("logs/**/.*")], "a guard's report was collected"


def test_a_missing_working_folder_on_a_worker_names_the_engines_program_not_the_guard(tmp_path):
    """A worker starts each engine under its guard (`python -c GUARD ... ENGINE ARGV`, in the engine's
    cwd): a cwd missing on the worker is said as locally, naming the engine's own program."""
    import trio

    from hexarena.cluster_worker import guarded_launcher
    from hexarena.referee.engines.process import EngineStartFailed
    from hexarena.referee.tournament.config import EngineSpec

    missing = tmp_path / "gone"
    spec = EngineSpec("b", ("/opt/engines/mine", "--fast"), cwd=str(missing))

    async def start() -> str:
        try:
            async with guarded_launcher(spec, 1, tmp_path / "logs" / "b.log"):
                return "started"
        except EngineStartFailed as exc:
            return str(exc)

    said = trio.run(start)
    assert said == f"b: cannot start '/opt/engines/mine': its working folder (cwd) {str(missing)!r} is missing"
