"""`python -m hexarena.worker RUNNER_PID`: one worker process of a local run (docs/tournament.md,
"Games on every core"), started by the runner (referee/tournament/workers.py).

It talks to the runner in frames on its stdin and on the stdout it had when it
started (referee/tournament/worker.py); its file descriptor 1 then
points at stderr, so that nothing printed by accident can break a frame. It
dies with the runner: the kernel sends it SIGKILL when the runner's thread
that started it ends (``PR_SET_PDEATHSIG``, Linux), and it exits at once if
the runner is already gone; its engines die with it in turn. It ignores
SIGINT: Ctrl-C is the runner's to handle.

:class:`ForkedWorker` starts the same worker as a fork of the runner, before the runner's
trio loop starts: it has the runner's modules already imported, so it costs a
fork instead of an interpreter's start-up (~0.25 s of CPU). It is named
``hexarena.worker`` (its ``comm``, which ``ps`` shows) and otherwise behaves as above.
"""
from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import threading
import traceback
from typing import NoReturn

import trio

from hexarena.referee.tournament.worker import serve

PR_SET_NAME, PR_SET_PDEATHSIG = 15, 1
NAME = b"hexarena.worker"      # a forked worker's comm (15 bytes at most)


def die_with(runner: int) -> None:
    """SIGKILL when the runner dies (Linux); exit now if it already has."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != runner:
        os._exit(137)


def main(argv: list[str]) -> None:
    if len(argv) != 2 or not argv[1].isdigit():
        sys.exit("usage: python -m hexarena.worker RUNNER_PID (started by `hexarena tournament`, not by hand)")
    _serve(int(argv[1]))


def _serve(runner: int) -> None:
    """Serve the runner over stdin and stdout (fd 1 then points at stderr)."""
    die_with(runner)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    frames_out = os.dup(1)
    os.dup2(2, 1)
    trio.run(serve, trio.lowlevel.FdStream(0), trio.lowlevel.FdStream(frames_out))


def can_fork() -> bool:
    """Whether :meth:`ForkedWorker.start` may be used now: on Linux, while this thread is the
    process's only one (a fork copies this thread alone, and any lock another one holds stays
    held). Call it before a trio loop starts, never inside one."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


class ForkedWorker:
    """A worker process forked from this one (the runner; see :func:`can_fork`): its pid and
    the runner's ends of its two pipes (`to_worker`, its stdin; `from_worker`, its stdout),
    waited for and signalled as the runner does any worker process (the `Child` protocol of
    referee/tournament/workers.py; as with ``subprocess.Popen``, a :meth:`poll`
    while a :meth:`wait` runs in another thread says it still runs)."""

    def __init__(self, pid: int, to_worker: int, from_worker: int):
        self.pid, self.to_worker, self.from_worker = pid, to_worker, from_worker
        self.returncode: int | None = None
        self._reaping = threading.Lock()

    @classmethod
    def start(cls) -> ForkedWorker:
        """Fork the worker: in its own session, holding no file of the runner's but stdin (its
        pipe from the runner), stdout (its pipe to the runner) and stderr."""
        runner = os.getpid()
        child_in, runner_out = os.pipe()
        runner_in, child_out = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        collecting = gc.isenabled()
        gc.disable()        # no collection from the fork to the worker's gc.freeze: none of the runner's
        try:                # garbage is collected (or closes a file) in the worker
            pid = os.fork()
            if pid == 0:
                _be_the_worker(runner, child_in, child_out, collecting)      # never returns
        finally:
            if collecting:
                gc.enable()
        os.close(child_in)
        os.close(child_out)
        return cls(pid, runner_out, runner_in)

    def poll(self) -> int | None:
        if self.returncode is None and self._reaping.acquire(blocking=False):
            try:
                self._reap(os.WNOHANG)
            finally:
                self._reaping.release()
        return self.returncode

    def wait(self) -> int:
        with self._reaping:
            while self.returncode is None:
                self._reap(0)
        return self.returncode

    def _reap(self, flags: int) -> None:
        pid, status = os.waitpid(self.pid, flags)
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def close(self) -> None:
        """Close the runner's ends of the pipes (a worker not handed to a run)."""
        os.close(self.to_worker)
        os.close(self.from_worker)


def _be_the_worker(runner: int, stdin: int, stdout: int, collecting: bool) -> NoReturn:
    """The forked child's whole life: serve the runner on `stdin` and `stdout`, then exit.
    `collecting`: whether the runner's garbage collector ran before the fork."""
    code = 1
    try:
        gc.freeze()         # the runner's objects stay as they are: none is collected (or closes a file) here
        if collecting:
            gc.enable()
        os.setsid()
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        os.closerange(3, _highest_fd() + 1)
        if sys.platform.startswith("linux"):
            ctypes.CDLL(None).prctl(PR_SET_NAME, ctypes.c_char_p(NAME), 0, 0, 0)
        _serve(runner)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


class ForkedWorkers:
    """`count` workers forked at once, waiting to be taken (:meth:`take`, the `start` of the
    runner's ``started_early``); those not taken are killed when the block ends (they hold no
    engine)."""

    def __init__(self, count: int):
        self.count = count
        self.ready: list[ForkedWorker] = []

    def __enter__(self) -> ForkedWorkers:
        try:
            for _ in range(self.count):
                self.ready.append(ForkedWorker.start())
        except BaseException:
            self.__exit__()
            raise
        return self

    def take(self) -> tuple[ForkedWorker, int, int]:
        """The next forked worker, and the runner's ends of its input's and its output's pipes."""
        worker = self.ready.pop(0)
        return worker, worker.to_worker, worker.from_worker

    def __exit__(self, *exc_info) -> None:
        for worker in self.ready:
            worker.kill()
            worker.wait()
            worker.close()
        self.ready.clear()


def _highest_fd() -> int:
    try:
        return max(int(fd) for fd in os.listdir("/proc/self/fd"))
    except (OSError, ValueError):
        return 1023


if __name__ == "__main__":
    main(sys.argv)
