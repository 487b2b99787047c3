"""Real Dask processes on localhost for the cluster tests: a scheduler and `dask worker`s.

Everything is started with this interpreter (`python -m dask ...`), on a free
loopback port, and stopped (TERM, then KILL) when the block ends.
"""
from __future__ import annotations

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalDask:
    """A running scheduler (`address`) and its worker processes (`workers`, in start order)."""

    def __init__(self, folder: Path, allowed_failures: int | None = None):
        self.folder = folder
        self.env = dict(os.environ)
        if allowed_failures is not None:      # worker deaths a task survives before it errs (KilledWorker)
            self.env["DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES"] = str(allowed_failures)
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []

    def _spawn(self, name: str, *args: str) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "ab")
        return subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=log, stderr=log,
                                cwd=self.folder, env=self.env, start_new_session=True)

    def start_scheduler(self) -> None:
        port = self.address.rsplit(":", 1)[1]
        self.scheduler = self._spawn("scheduler", "scheduler", "--host", "127.0.0.1", "--port", port,
                                     "--no-dashboard")

    def start_workers(self, n: int, *args: str) -> None:
        """`n` single-thread workers without a nanny (SIGKILL of one is the death of its games),
        with `args` added to their command line."""
        for _ in range(n):
            self.workers.append(self._spawn(f"worker{len(self.workers)}", "worker", self.address,
                                            "--nthreads", "1", "--no-nanny", "--no-dashboard", *args))
        from distributed import Client
        with Client(self.address, timeout=START_TIMEOUT) as client:
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
def local_dask(folder: Path, workers: int, *worker_args: str, allowed_failures: int | None = None
               ) -> Iterator[LocalDask]:
    dask = LocalDask(folder, allowed_failures)
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


def hexarena(*args: str, cwd: Path) -> subprocess.Popen:
    """`hexarena ARGS...` as a child process (this interpreter), output captured as text."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "hexarena", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
