"""Starting an engine process so that it cannot outlive the referee, and saying how it ended.

:func:`spawn` runs ``subprocess.Popen`` from the calling (main) thread, with
the child, before exec: in a new session and process group (so the whole
group can be signalled), with ``PR_SET_PDEATHSIG = SIGKILL`` on Linux (the
kernel kills it when the thread that forked it dies: that is why the spawn
happens in the event loop's thread, not in trio's worker threads, which
exit when idle), and with the optional :class:`ResourceLimits` as rlimits
and CPU affinity (``sched_setaffinity``).

The child-side setup (`preexec_fn`) only calls functions resolved before
the fork (prctl through ctypes, getppid, setrlimit, sched_setaffinity): no imports, no locks,
so the fork is safe while trio's worker threads run.

Not covered: a grandchild that calls ``setsid`` (or ``setpgid``) leaves the
group and does not get the parent-death signal of its parent; the record of
live groups (:mod:`referee.engines.leftovers`) cannot find it either.

An engine inherits the referee's environment, less what hexarena set for its own processes
(:func:`settle_environ`, :func:`engine_environ`).
"""
from __future__ import annotations

import ctypes
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["OWN_MARK", "OWN_SETTINGS", "ResourceLimits", "describe_exit", "engine_environ", "settle_environ", "spawn"]

PR_SET_PDEATHSIG = 1
#: What hexarena sets in its own processes when the user did not: OpenBLAS with one thread, and
#: the variable numpy's import would otherwise set and unset itself (see :func:`settle_environ`).
OWN_SETTINGS = {"OPENBLAS_NUM_THREADS": "1", "OPENBLAS_MAIN_FREE": "1"}
#: The mark of what hexarena set (the names, space-separated), so that no engine inherits it.
OWN_MARK = "HEXARENA_SET_ENV"


def settle_environ() -> None:
    """In the main thread, before any other thread starts and before numpy is imported:

    * OpenBLAS with one thread, unless the user chose a number: numpy's import then costs ~45 ms
      less CPU (no thread started per core) and hexarena's fits are too small to gain from threads;
    * ``OPENBLAS_MAIN_FREE=1``, unless set: numpy's import sets it with ``putenv`` and unsets it
      afterwards, a change to the process's environment from whichever thread imports numpy (the
      run's end tables are imported by a thread while the games start). A process started by
      another thread meanwhile (``vfork`` and ``exec`` read the environment the parent is changing)
      could fail with ``OSError: [Errno 14] Bad address`` or get a torn environment.

    Marked (:data:`OWN_MARK`), so that no engine inherits these settings (:func:`engine_environ`),
    nor the engines of the processes hexarena starts."""
    if OWN_MARK in os.environ:              # a process hexarena started: its parent settled it
        return
    mine = [name for name in OWN_SETTINGS if name not in os.environ]
    for name in mine:
        os.environ[name] = OWN_SETTINGS[name]
    if mine:
        os.environ[OWN_MARK] = " ".join(mine)


def engine_environ() -> dict[str, str] | None:
    """The environment an engine starts with: this process's, less what :func:`settle_environ`
    set; None (this process's as it is) when it set nothing."""
    mine = os.environ.get(OWN_MARK)
    if mine is None:
        return None
    drop = {OWN_MARK, *mine.split()}
    return {k: v for k, v in os.environ.items() if k not in drop}


@dataclass(frozen=True)
class ResourceLimits:
    """Per-engine rlimits (None: unlimited): address space in MB, CPU seconds; and `cpus`, the
    CPUs it may run on (None: those of the referee; docs/tournament.md, "Pinned cores")."""

    memory_mb: int | None = None
    cpu_seconds: int | None = None
    cpus: tuple[int, ...] | None = None

    def describe(self) -> str:
        parts = []
        if self.memory_mb is not None:
            parts.append(f"memory {self.memory_mb} MB")
        if self.cpu_seconds is not None:
            parts.append(f"CPU {self.cpu_seconds} s")
        return ", ".join(parts)


def _libc_prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _libc_prctl()


def _child_setup(limits: ResourceLimits, parent: int):
    """The function the child runs between fork and exec (only async-signal-safe-ish calls)."""
    def setup() -> None:
        if _PRCTL is not None:
            _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:        # the referee died between fork and prctl
                os._exit(137)
        if limits.memory_mb is not None:
            size = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if limits.cpu_seconds is not None:      # SIGXCPU at the soft limit, SIGKILL one second later
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        if limits.cpus is not None:             # inherited by every process and thread the engine starts
            os.sched_setaffinity(0, limits.cpus)
    return setup


def spawn(argv: Sequence[str], limits: ResourceLimits = ResourceLimits(), *, cwd: str | None = None,
          env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start `argv` with pipes for stdin, stdout and stderr (see the module doc); OSError if it cannot.
    `env`: its whole environment (None: :func:`engine_environ`)."""
    return subprocess.Popen(
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=_child_setup(limits, os.getpid()), cwd=cwd,
        env=env if env is not None else engine_environ(), close_fds=True)


def describe_exit(returncode: int, limits: ResourceLimits = ResourceLimits()) -> str:
    """`exited with status 3`, `killed by signal 9 (SIGKILL)`, plus the limit that explains it."""
    if returncode >= 0:
        text = f"exited with status {returncode}"
    else:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "?"
        text = f"killed by signal {-returncode} ({name})"
    if returncode == -signal.SIGXCPU or (returncode == -signal.SIGKILL and limits.cpu_seconds is not None):
        if limits.cpu_seconds is not None:
            text += f": CPU time limit of {limits.cpu_seconds} s exceeded"
    elif limits.memory_mb is not None and returncode != 0:
        text += f" (its memory limit is {limits.memory_mb} MB)"
    return text
