"""`python -m hexarena.worker RUNNER_PID`: one worker process of a local run (docs/tournament.md,
"Games on every core"), started by the runner (hexarena/referee/tournament/workers.py).

It talks to the runner in frames on its stdin and on the stdout it had when it
started (hexarena/referee/tournament/worker.py); its file descriptor 1 then
points at stderr, so that nothing printed by accident can break a frame. It
dies with the runner: the kernel sends it SIGKILL when the runner's thread
that started it ends (``PR_SET_PDEATHSIG``, Linux), and it exits at once if
the runner is already gone; its engines die with it in turn. It ignores
SIGINT: Ctrl-C is the runner's to handle.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys

import trio

from hexarena.referee.tournament.worker import serve

PR_SET_PDEATHSIG = 1


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
    die_with(int(argv[1]))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    frames_out = os.dup(1)
    os.dup2(2, 1)
    trio.run(serve, trio.lowlevel.FdStream(0), trio.lowlevel.FdStream(frames_out))


if __name__ == "__main__":
    main(sys.argv)
