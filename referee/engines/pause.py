"""An engine's process group stopped while it is not its turn (docs/tournament.md, "Clocks").

HGP engines think in turn: between its answer to `genmove` and the referee's next
command an engine has nothing to do. A process that keeps running then (a search
left going, children it forked spinning) takes the cores its opponent is timed on.
:class:`GroupPause` stops the whole process group (SIGSTOP) once its turn is over,
and continues it (SIGCONT) before anything is written to it again; the channel
(referee/engines/channel.py) calls both, the process (referee/engines/process.py)
continues it before it closes its stdin or signals it.

The stop is lazy, so that quick games pay nothing: an answered `genmove` only marks
the group due (:meth:`GroupPause.due`), and the groups due in this trio loop are
stopped (:func:`stop_due`) when the loop is about to wait for an answer that was not
there at once (the channel's awaited path: after the pipe fast path's spin, or its
poll of at most 5 ms, referee/engines/eager.py). An engine whose next command comes
first is never signalled; one that had its turn runs at most those few milliseconds
of its opponent's move. Stopping and continuing then cost two ``killpg`` a move.

A stopped group still dies by SIGKILL (the parent-death signal, the guardian's
kills, the end of a game); SIGTERM, and a signal an engine handles, wait for the
SIGCONT the process sends first. Not covered: a process that left the group
(``setsid``, ``setpgid``) is not stopped.
"""
from __future__ import annotations

import os
import signal

import trio

__all__ = ["GroupPause", "stop_due"]

RUNNING, DUE, STOPPED = 0, 1, 2

#: The pauses of this trio loop marked due since its last wait (each at most once).
_DUE: trio.lowlevel.RunVar[list[GroupPause]] = trio.lowlevel.RunVar("hexarena_pauses_due")


def _queue() -> list[GroupPause]:
    try:
        return _DUE.get()
    except LookupError:
        queue: list[GroupPause] = []
        _DUE.set(queue)
        return queue


class GroupPause:
    """Stops and continues the process group `pgid`; made inside the trio loop whose channel
    talks to it. `keep_leader`: the group's leader is a guard that must go on watching (a
    cluster worker's, hexarena/cluster_worker.py): it is continued at once, the rest of its
    group stays stopped. `state`: RUNNING, DUE (its turn is over, not yet stopped) or STOPPED."""

    __slots__ = ("pgid", "keep_leader", "state", "queued", "_queue")

    def __init__(self, pgid: int, keep_leader: bool = False):
        self.pgid = pgid
        self.keep_leader = keep_leader
        self.state = RUNNING
        self.queued = False
        self._queue = _queue()

    def due(self) -> None:
        """Its turn is over: stopped at this loop's next wait (:func:`stop_due`), unless a
        command comes first."""
        self.state = DUE
        if not self.queued:
            self.queued = True
            self._queue.append(self)

    def stop(self) -> None:
        """SIGSTOP the group now if it is due (nothing if it is gone)."""
        if self.state != DUE:
            return
        try:
            os.killpg(self.pgid, signal.SIGSTOP)
        except (ProcessLookupError, PermissionError):
            self.state = RUNNING
            return
        self.state = STOPPED
        if self.keep_leader:
            try:
                os.kill(self.pgid, signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                pass

    def resume(self) -> None:
        """Before anything is written to it: SIGCONT the group if it was stopped; idempotent."""
        if self.state == STOPPED:
            try:
                os.killpg(self.pgid, signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                pass
        self.state = RUNNING


def stop_due() -> None:
    """Stop every group of this trio loop whose turn is over (:meth:`GroupPause.due`); called
    before the loop waits for an answer."""
    queue = _queue()
    if queue:
        for pause in queue:
            pause.queued = False
            pause.stop()
        queue.clear()
