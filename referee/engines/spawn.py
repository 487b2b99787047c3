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
import math
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["OWN_MARK", "OWN_SETTINGS", "ResourceLimits", "cpu_used", "describe_exit", "engine_environ", "renew_cpu_limit",
           "settle_environ", "spawn"]

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


def _child_setup(limits: ResourceLimits, parent: int, renewable: bool):
    """The function the child runs between fork and exec (only async-signal-safe-ish calls)."""
    cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)[1] if renewable else None
    def setup() -> None:
        if _PRCTL is not None:
            _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:        # the referee died between fork and prctl
                os._exit(137)
        if limits.memory_mb is not None:
            size = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if limits.cpu_seconds is not None:      # SIGXCPU at the soft limit, SIGKILL one second later
            hard = limits.cpu_seconds + 1 if cpu_hard is None else cpu_hard     # renewable: see renew_cpu_limit
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, hard))
        if limits.cpus is not None:             # inherited by every process and thread the engine starts
            os.sched_setaffinity(0, limits.cpus)
    return setup


def spawn(argv: Sequence[str], limits: ResourceLimits = ResourceLimits(), *, cwd: str | None = None,
          env: dict[str, str] | None = None, renewable: bool = False) -> subprocess.Popen:
    """Start `argv` with pipes for stdin, stdout and stderr (see the module doc); OSError if it cannot.
    `env`: its whole environment (None: :func:`engine_environ`). `renewable`: its CPU limit is
    renewed per game (:func:`renew_cpu_limit`), so its hard limit is left as the referee's own."""
    return subprocess.Popen(
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=_child_setup(limits, os.getpid(), renewable), cwd=cwd,
        env=env if env is not None else engine_environ(), close_fds=True)


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_used(pid: int) -> float | None:
    """The CPU seconds (user and system, its threads included, not its children) process `pid`
    has used so far, from ``/proc/PID/stat``; None when that cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS      # utime, stime: fields 14 and 15
    except (OSError, IndexError, ValueError):
        return None


def renew_cpu_limit(pid: int, seconds: int) -> int | None:
    """Give process `pid` `seconds` more CPU time from now: its soft RLIMIT_CPU raised to the CPU it
    has used (:func:`cpu_used`, rounded up to a whole second, as the limit counts) plus `seconds`; the
    new soft limit, or None when it could not be set. The hard limit is left as it is: only a
    privileged process may raise one, so a process spawned `renewable` keeps the referee's (no
    SIGKILL one second after SIGXCPU)."""
    used = cpu_used(pid)
    if used is None:
        return None
    soft = math.ceil(used) + seconds
    try:
        hard = resource.prlimit(pid, resource.RLIMIT_CPU)[1]
        if hard != resource.RLIM_INFINITY and hard < soft:
            return None
        resource.prlimit(pid, resource.RLIMIT_CPU, (soft, hard))
    except (OSError, ValueError, AttributeError):
        return None
    return soft


#: How a process ends when an allocation fails under its memory limit: an exit status (a
#: language's out-of-memory error), an abort, or a fault on the pointer it did not check.
_MEMORY_SIGNALS = frozenset({signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGTRAP})


def describe_exit(returncode: int, limits: ResourceLimits = ResourceLimits(), used: float | None = None,
                  allowed: int | None = None) -> str:
    """`exited with status 3`, `killed by signal 9 (SIGKILL)`, plus the limit that explains it.

    `used`: the CPU seconds the process had used when it was reaped (or last read), None if
    unknown; `allowed`: its soft CPU limit then (by default `limits.cpu_seconds`; a kept process's
    grows per game). SIGXCPU under a CPU limit is the limit's; SIGKILL only when `used` shows the
    process reached it (the kernel's SIGKILL comes one second past it; its usage as reaped may
    read up to ~10% short of the limit's own count on a loaded machine), else it came from
    elsewhere (the out-of-memory killer, a `kill -9`). The memory limit is named only for an
    ending an allocation failure can cause."""
    if returncode >= 0:
        text = f"exited with status {returncode}"
    else:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "?"
        text = f"killed by signal {-returncode} ({name})"
    allowed = limits.cpu_seconds if allowed is None else allowed
    if allowed is not None and limits.cpu_seconds is not None:
        reached = used is not None and used >= 0.9 * allowed
        if returncode == -signal.SIGXCPU or (returncode == -signal.SIGKILL and reached):
            return text + f": CPU time limit of {limits.cpu_seconds} s exceeded"
    if limits.memory_mb is not None and (returncode > 0 or -returncode in _MEMORY_SIGNALS):
        text += f" (its memory limit is {limits.memory_mb} MB)"
    return text
