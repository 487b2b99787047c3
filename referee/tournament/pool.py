"""Engine processes of one worker slot: started per game, or kept across games.

Each engine's ``restart`` setting (docs/tournament.md, "Engine reuse") says
how long its process lives:

* ``"game"``: a fresh process for every game, stopped when the game ends.
* ``"fault"``: the process is kept for the slot's later games and stopped
  only when it is at fault (a crash, a time loss, a protocol fault, an
  illegal action: the game settles its seat with ``keep=False``, see
  :class:`~hexarena.referee.game.match.Seat`), when its channel is broken or
  the process has exited, when the game ends by an error or a cancellation
  (it is never settled), when the slot keeps more idle processes
  than its bound (the tournament's: one per engine), or when the slot ends. The handshake of the next
  game (``game``, ``boardsize``, ``komi``, ``clear_board``, the time control,
  ``hexarena-seed``) is the same as for a fresh process.

Every process a tournament starts gets a number from one
:class:`StartCounter` (continuing after the journal's highest), which the
journal records per seat; a game's stderr log and HGP transcript are the
game's own in both modes (a kept process's logs are moved to the next game's
files when it is lent again).

A process runs in its own task of the pool's nursery, inside the run's
:data:`Launcher` context, so a kept process can be
stopped in any order and the launcher stays the one way engines start.
"""
from __future__ import annotations

import traceback
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import trio

from ..engines.channel import EngineChannel
from .config import EngineSpec

#: Idle processes a slot keeps at most by default; the least recently used beyond it are stopped.
#: A tournament passes its number of engines: one idle process per engine and slot.
KEEP_IDLE = 2

#: How a worker starts one engine for one game: (engine, seed, log file) -> channel context.
Launcher = Callable[[EngineSpec, int, Path], AbstractAsyncContextManager[EngineChannel]]


class StartCounter:
    """Numbers the engine processes of a tournament: ``first``, ``first + 1``, ..."""

    def __init__(self, first: int = 1):
        self.next = first

    def take(self) -> int:
        number, self.next = self.next, self.next + 1
        return number


@dataclass(eq=False)
class _Process:
    name: str
    number: int
    channel: EngineChannel
    release: trio.Event = field(default_factory=trio.Event)
    closed: trio.Event = field(default_factory=trio.Event)


class EnginePool:
    """The engine processes of one worker slot; use as ``async with EnginePool(...) as pool``."""

    def __init__(self, start: Launcher, counter: StartCounter, keep: int = KEEP_IDLE):
        self._start = start
        self._counter = counter
        self._keep = keep
        self._idle: list[_Process] = []         # least recently used first
        self._nursery: trio.Nursery | None = None

    async def __aenter__(self) -> EnginePool:
        self._cm = trio.open_nursery()
        self._nursery = await self._cm.__aenter__()
        return self

    async def __aexit__(self, *exc_info) -> bool | None:
        for proc in self._idle:
            proc.release.set()
        self._idle.clear()
        return await self._cm.__aexit__(*exc_info)

    def kept(self) -> tuple[int, ...]:
        """The start numbers of the processes kept idle for later games."""
        return tuple(proc.number for proc in self._idle)

    def lease(self, spec: EngineSpec, seed: int, log: Path, seat: int) -> Lease:
        """One seat's engine for one game (`seat`: 0 or 1)."""
        return Lease(self, spec, seed, log, seat)

    async def open(self, spec: EngineSpec, seed: int, log: Path) -> _Process:
        assert self._nursery is not None, "use the pool inside `async with`"
        return await self._nursery.start(self._host, spec, seed, log)

    async def _host(self, spec: EngineSpec, seed: int, log: Path,
                    task_status: trio.TaskStatus[_Process] = trio.TASK_STATUS_IGNORED) -> None:
        """Run one process inside the launcher's context until it is released."""
        proc = None
        try:
            async with self._start(spec, seed, log) as channel:
                proc = _Process(spec.name, self._counter.take(), channel)
                task_status.started(proc)
                await proc.release.wait()
        except Exception:
            if proc is None:        # it did not start: nursery.start raises it in the game
                raise
            traceback.print_exc()   # it failed while stopping: a referee bug, the run goes on
        finally:
            if proc is not None:
                proc.closed.set()

    def take(self, name: str) -> _Process | None:
        """The most recently kept idle process of engine `name`, now lent out; None if there is none."""
        for i in range(len(self._idle) - 1, -1, -1):
            if self._idle[i].name == name:
                return self._idle.pop(i)
        return None

    def keep_idle(self, proc: _Process) -> None:
        """Keep a lent process for a later game (the least recently used beyond the bound stop)."""
        self._idle.append(proc)
        while len(self._idle) > self._keep:
            self._idle.pop(0).release.set()     # stops in its own task; this game need not wait

    async def close(self, proc: _Process) -> None:
        """Stop a process and wait until it has ended."""
        proc.release.set()
        await proc.closed.wait()


class Lease:
    """How one seat of one game gets its engine: :meth:`connect` is the seat's
    ``Seat.connect`` and :meth:`settle` its ``Seat.settle``; afterwards :attr:`number` is the
    process's start number. The process is kept for a later game only when the game settled
    the seat with ``keep=True`` (and the engine's ``restart`` is "fault" and its channel whole)."""

    def __init__(self, pool: EnginePool, spec: EngineSpec, seed: int, log: Path, seat: int):
        self.pool, self.spec, self.seed, self.log, self.seat = pool, spec, seed, log, seat
        self.number: int | None = None
        self.keep = False

    def settle(self, keep: bool) -> None:
        self.keep = keep

    @asynccontextmanager
    async def connect(self) -> AsyncIterator[EngineChannel]:
        reuse = self.spec.restart == "fault"
        proc = self.pool.take(self.spec.name) if reuse else None
        if proc is not None and not proc.channel.reusable:
            await self.pool.close(proc)
            proc = None
        kept = proc is not None
        if proc is None:
            proc = await self.pool.open(self.spec, self.seed, self.log)
        self.number = proc.number
        self.keep = False
        try:
            if kept and proc.channel.relog is not None:
                proc.channel.relog(self.log)
            if kept and proc.channel.renew is not None:
                proc.channel.renew()        # its CPU limit is per game (docs/tournament.md, `cpu_seconds`)
            yield proc.channel
        finally:
            if self.keep and reuse and proc.channel.reusable:
                self.pool.keep_idle(proc)
            else:
                await self.pool.close(proc)
