"""The engines of a run, written down so that none outlives the referee.

Two lines of defence behind the parent-death signal (:mod:`referee.engines.spawn`),
which kills an engine but not the children it forked:

* :class:`LiveEngines` keeps ``OUT/engines.live``: one line ``PGID START``
  per running engine (its process group and the leader's start time in
  clock ticks since boot, from ``/proc``), rewritten atomically on every
  start and stop.
* :func:`guard_engines` starts a guardian: a small process holding the read
  end of a pipe from the referee. When the referee ends, however it ends
  (``kill -9`` included), the pipe closes and the guardian kills every
  group still listed. It also ends the leftovers of an earlier dead run
  that the record lists, before anything starts.

Engines started in a worker process of the run (referee/tournament/worker.py)
are written down through :func:`recording` in a relay that tells the runner,
whose :class:`LiveEngines` lists them with its own; when a worker dies the
runner ends the groups it had listed (:meth:`LiveEngines.end`).

A group is only signalled when it is still ours: its leader has the start
time written down, or the leader is gone and the group still exists
(Linux does not reuse a pid while it names a live group). Linux only; on
other systems the record is kept but start times are not checked, so
leftovers are not killed. Not covered: a process that left the group
(``setsid``).
"""
from __future__ import annotations

import contextvars
import os
import signal
import subprocess
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

__all__ = ["LIVE_NAME", "EngineRecord", "LiveEngines", "current", "end_leftovers", "guard_engines", "recording",
           "start_time"]

LIVE_NAME = "engines.live"


class EngineRecord(Protocol):
    """Where the engines started now are written down: :class:`LiveEngines`, or in a worker process
    of a run the relay to the runner's record (referee/tournament/worker.py)."""

    def add(self, pid: int) -> None: ...
    def remove(self, pid: int) -> None: ...


_current: contextvars.ContextVar[EngineRecord | None] = contextvars.ContextVar("live_engines", default=None)


def current() -> EngineRecord | None:
    """The record engines started now should be written to (set by :func:`guard_engines` or
    :func:`recording`)."""
    return _current.get()


@contextmanager
def recording(record: EngineRecord) -> Iterator[EngineRecord]:
    """Engines started inside the block are written down in `record`."""
    token = _current.set(record)
    try:
        yield record
    finally:
        _current.reset(token)


def start_time(pid: int) -> str | None:
    """The start time of process `pid` (field 22 of /proc/PID/stat), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


class LiveEngines:
    """The live engine groups of one run, mirrored to a file."""

    def __init__(self, path: Path):
        self.path = path
        self._groups: dict[int, str] = {}
        self._warned = False

    def add(self, pid: int) -> None:
        stamp = start_time(pid)
        if stamp is not None:
            self._groups[pid] = stamp
            self._save()

    def remove(self, pid: int) -> None:
        if self._groups.pop(pid, None) is not None:
            self._save()

    def end(self, pids: Iterable[int]) -> None:
        """Kill the listed groups among `pids` that are still ours, and forget them (their
        process died without stopping them: a worker process of the run)."""
        ended = [pid for pid in pids if pid in self._groups]
        for pid in ended:
            _end_group(pid, self._groups.pop(pid))
        if ended:
            self._save()

    def _save(self) -> None:
        """The file, written again whole. A disk that refuses it (full) leaves the last one:
        the run goes on (its journal says what a full disk stops), warned once on stderr."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text("".join(f"{pid} {stamp}\n" for pid, stamp in self._groups.items()), encoding="ascii")
            os.replace(tmp, self.path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            if not self._warned:
                self._warned = True
                print(f"warning: cannot write {self.path} ({exc.strerror or exc}): engines left by a run "
                      "killed meanwhile may be left running", file=sys.stderr, flush=True)


def end_leftovers(path: Path) -> list[int]:
    """Kill the groups listed in `path` that are still ours; remove the file; return the groups killed."""
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    killed = []
    for line in lines:
        try:
            pid_text, stamp = line.split()
            pid = int(pid_text)
        except ValueError:
            continue
        if _end_group(pid, stamp):
            killed.append(pid)
    path.unlink(missing_ok=True)
    return killed


def _end_group(pid: int, stamp: str) -> bool:
    """SIGKILL the group of `pid` if it is still ours (its leader started at `stamp`, or is gone)."""
    now = start_time(pid)
    if now is not None and now != stamp:
        return False                        # the pid is someone else's now
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return False
    return True


GUARDIAN = r'''
import signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
sys.stdin.buffer.read()
try:
    listed = open(sys.argv[1], "rb").read().strip()
except OSError:
    listed = b""
if listed:                   # the referee ended with engines still running
    from pathlib import Path
    from hexarena.referee.engines.leftovers import end_leftovers
    end_leftovers(Path(sys.argv[1]))
'''


@contextmanager
def guard_engines(out: Path) -> Iterator[LiveEngines]:
    """End an earlier run's leftovers, then record this run's engines and guard them (module doc)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / LIVE_NAME
    end_leftovers(path)
    live = LiveEngines(path)
    guardian = None
    if sys.platform.startswith("linux"):
        guardian = subprocess.Popen([sys.executable, "-c", GUARDIAN, str(path)], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, close_fds=True, start_new_session=True)
    try:
        with recording(live):
            yield live
    finally:
        if guardian is not None:
            assert guardian.stdin is not None
            guardian.stdin.close()          # the guardian ends what is still listed, then exits
            guardian.wait()
        path.unlink(missing_ok=True)
