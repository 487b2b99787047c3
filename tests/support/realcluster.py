"""Real Dask processes on localhost for the cluster tests: a scheduler and `dask worker`s (with TLS
when asked), and the tests' tournament config, journal reader and `hexarena` runs.

Everything is started with this interpreter (`python -m dask ...`), on a free
loopback port, and stopped (TERM, then KILL) when the block ends.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT = 60      # seconds for the scheduler and workers to come up (a shared machine)
RUN_TIMEOUT = 180       # seconds: a bound against hanging on a loaded machine, not a speed check
ENGINE = Path(__file__).parents[1] / "cluster" / "slow_engine.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalDask:
    """A running scheduler (`address`) and its worker processes (`workers`, in start order)."""

    def __init__(self, folder: Path, allowed_failures: int | None = None, tls: tuple[Path, Path, Path] | None = None):
        """`tls`: (CA file, certificate, key) for every process: the scheduler listens on tls:// and
        requires them (`security` is the matching client side)."""
        self.folder = folder
        self.env = dict(os.environ)
        if allowed_failures is not None:      # worker deaths a task survives before it errs (KilledWorker)
            self.env["DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES"] = str(allowed_failures)
        self.tls_args: tuple[str, ...] = ()
        self.security = None
        if tls is not None:
            from distributed import Security
            ca, cert, key = map(str, tls)
            self.tls_args = ("--tls-ca-file", ca, "--tls-cert", cert, "--tls-key", key)
            self.security = Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                                     require_encryption=True)
        self.address = f"{'tls' if tls else 'tcp'}://127.0.0.1:{free_port()}"
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []

    def _spawn(self, name: str, *args: str) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "ab")
        return subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=log, stderr=log,
                                cwd=self.folder, env=self.env, start_new_session=True)

    def start_scheduler(self) -> None:
        port = self.address.rsplit(":", 1)[1]
        self.scheduler = self._spawn("scheduler", "scheduler", "--host", "127.0.0.1", "--port", port,
                                     "--protocol", self.address.split(":")[0], "--no-dashboard", *self.tls_args)

    def start_workers(self, n: int, *args: str) -> None:
        """`n` single-thread workers without a nanny (SIGKILL of one is the death of its games),
        with `args` added to their command line."""
        for _ in range(n):
            self.workers.append(self._spawn(f"worker{len(self.workers)}", "worker", self.address,
                                            "--nthreads", "1", "--no-nanny", "--no-dashboard", *self.tls_args,
                                            *args))
        from distributed import Client
        with Client(self.address, timeout=START_TIMEOUT, security=self.security) as client:
            client.wait_for_workers(len(self.workers), timeout=START_TIMEOUT)

    def stop(self) -> None:
        procs = [p for p in [*self.workers, self.scheduler] if p is not None and p.poll() is None]
        for p in procs:
            p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        for p in procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@contextmanager
def local_dask(folder: Path, workers: int, *worker_args: str, allowed_failures: int | None = None,
               tls: tuple[Path, Path, Path] | None = None) -> Iterator[LocalDask]:
    dask = LocalDask(folder, allowed_failures, tls)
    try:
        dask.start_scheduler()
        dask.start_workers(workers, *worker_args)
        yield dask
    finally:
        dask.stop()


def processes_with(marker: str) -> dict[int, int]:
    """pid -> parent pid of every live process whose argv contains `marker` (zombies excluded)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if marker.encode() in argv:
            state, ppid = stat.rpartition(")")[2].split()[:2]
            if state != "Z":
                found[int(entry.name)] = int(ppid)
    return found


def wait_until(predicate, timeout: float, what: str, step: float = 0.05):
    """Poll `predicate` until it returns a true value (returned); AssertionError naming `what` after
    `timeout` seconds (a bound against hanging, not a speed check)."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what} after {timeout} s")
        time.sleep(step)


def hexarena(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`hexarena ARGS...` as a child process (this interpreter), output captured as text; `env`:
    variables added to this process's (Dask's config, say)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
    return subprocess.Popen([sys.executable, "-m", "hexarena", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def write_config(folder: Path, marker: str, games_per_pair: int = 3, delay: float = 0.05,
                 extra_cmd: str | None = None) -> Path:
    """Two deterministic slow engines (random, greedy) tagged with `marker`, spelde 5."""
    engines = "".join(
        f'[engines.{bot}]\ncmd = ["{{python}}", "{ENGINE}", "{marker}", "{bot}", "{{seed}}", "{delay}"]\n'
        for bot in ("random", "greedy"))
    if extra_cmd is not None:
        engines += f'[engines.ghost]\ncmd = ["{extra_cmd}"]\n'
    path = folder / "cluster.toml"
    path.write_text(f"seed = 11\ngames_per_pair = {games_per_pair}\n[time]\nmove = 20\nstart = 30\n"
                    f"{engines}[[games]]\ngame = \"spelde\"\nsize = 5\n", encoding="utf-8")
    return path


def journal(out: Path) -> list[dict]:
    path = out / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    try:
        stdout, stderr = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        raise AssertionError(f"hexarena did not finish:\n{stderr}") from None
    return proc.returncode, stdout, stderr
