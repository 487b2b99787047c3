"""The runner's worker processes: games on every core, one process owning the run.

With ``workers = P`` the run's slots (``-j N``) are spread over P worker
processes (``python -m hexarena.worker``, or forked by the CLI before its loop
starts: hexarena/worker.py; both run :mod:`.worker`), slot ``i`` on
worker ``i % P``; each worker has its own trio loop and its slots' engines.
This process keeps everything else: the schedule, the folder lock, the
journal and its single writer, the live view, the report and the SPRT. A
worker plays a game exactly as this process would (:func:`.run.play_scheduled`:
it writes the game's SGF file and engine logs, which are per game) and sends
the record back; only this process appends to the journal.

Guarantees, and how:

* **Each id once.** A game is journaled when its record arrives, here, by
  the one writer. A game lost with its worker is not journaled: it is sent
  again to a fresh worker (:data:`REPLAYS` times, then journaled void,
  ``referee``), and a resume replays what a killed runner had in flight.
* **Engines die with the run.** A worker is started in its own session
  (the terminal's Ctrl-C is this process's to handle) and dies with this
  process (``PR_SET_PDEATHSIG``, set by hexarena/worker.py; end of its input
  elsewhere); its engines die with it (their own parent-death signal). The
  worker tells this process every engine group it starts and stops, which
  go to this run's ``engines.live``: the guardian kills what is listed when
  this process ends, and when a worker dies its listed groups are killed here.
* **Ctrl-C.** Once: no new game is sent; the games on workers finish and
  are journaled. Twice (a cancellation): each worker is told to abandon its
  games (they end as in this process: the engines are stopped) and is
  killed if it has not ended within :data:`ABANDON_GRACE` seconds.
* **Reuse per slot.** A slot keeps its engines in its worker across games;
  the engines' start numbers are the worker's, mapped to the run's numbers
  (:class:`.pool.StartCounter`) as records arrive.
"""
from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from typing import Protocol

import trio

from hexarena.results.record.game import GameRecord, VoidCause

from ..engines import leftovers
from ..engines.spawn import describe_exit
from .folder import TournamentError
from .pool import StartCounter
from .schedule import ScheduledGame
from .wire import FrameError, Frames, WorkerSetup, frame

__all__ = ["ABANDON_GRACE", "REPLAYS", "EarlyWorkers", "WorkerFailed", "started_early", "worker_processes"]

REPLAYS = 2             # a game lost with its worker is played again at most this often, then void
ABANDON_GRACE = 10.0    # seconds a worker gets to stop its engines when told to abandon its games
ENTRY = "hexarena.worker"

OnPly = Callable[[int], None]


class WorkerFailed(TournamentError):
    """A worker process could not start, or a game raised in it (a referee bug): the run stops."""


class _Waiter:
    """A game sent to a worker: its record, or how it was lost, or the error it raised there."""

    def __init__(self) -> None:
        self.done = trio.Event()
        self.record: GameRecord | None = None
        self.lost: str | None = None
        self.error: str | None = None
        self.stops = False          # the error is the run's own stop (TournamentError), not a bug

    def settle(self, *, record: GameRecord | None = None, lost: str | None = None, error: str | None = None,
               stops: bool = False) -> None:
        self.record, self.lost, self.error, self.stops = record, lost, error, stops
        self.done.set()


class Child(Protocol):
    """A worker process as the runner handles it (what ``subprocess.Popen`` offers of it)."""

    pid: int

    def wait(self) -> int: ...

    def poll(self) -> int | None: ...

    def send_signal(self, sig: int) -> None: ...

    def kill(self) -> None: ...


#: Starts a worker process otherwise than ``python -m hexarena.worker`` (hexarena/worker.py's
#: fork): the process, and the file descriptors of its input's and its output's pipe ends.
StartWorker = Callable[[], tuple[Child, int, int]]


class _Process:
    """One worker process (a worker that dies is replaced by a new one of its own): run as
    ``python -m hexarena.worker``, or started by `start`. `serial` numbers it among the
    processes of its run (:class:`_Workers` sets it when it takes the process)."""

    def __init__(self, start: StartWorker | None = None) -> None:
        self.serial = 0
        self.popen: Child
        if start is None:
            popen = subprocess.Popen([sys.executable, "-m", ENTRY, str(os.getpid())], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, start_new_session=True, close_fds=True)
            assert popen.stdin is not None and popen.stdout is not None
            self.popen, self.stdin, self.stdout = popen, _stream(popen.stdin), _stream(popen.stdout)
        else:
            self.popen, stdin, stdout = start()
            self.stdin, self.stdout = trio.lowlevel.FdStream(stdin), trio.lowlevel.FdStream(stdout)
        self.frames = Frames(self.stdout)
        self.ready = False
        self.ended: str | None = None           # how it ended, once it has
        self.waiting: dict[str, _Waiter] = {}
        self.on_ply: dict[str, OnPly] = {}
        self.groups: set[int] = set()
        self.stdin_lock = trio.Lock()

    async def send(self, message: object) -> None:
        async with self.stdin_lock:
            await self.stdin.send_all(frame(message))

    async def end_input(self) -> None:
        async with self.stdin_lock:
            await self.stdin.aclose()


class _Workers:
    """The worker processes of one run and the messages from them."""

    def __init__(self, nursery: trio.Nursery, setups: list[WorkerSetup], counter: StartCounter,
                 warn: Callable[[str], None], overhead: Callable[[float], None] | None, early: EarlyWorkers | None = None):
        self.nursery, self.setups, self.counter, self.warn, self.overhead = nursery, setups, counter, warn, overhead
        self.early = early
        self.serials = itertools.count(1)
        self.processes: list[_Process | None] = [None] * len(setups)
        self.numbers: dict[tuple[int, int], int] = {}          # (worker serial, its number) -> the run's
        self.held: dict[tuple[int, int], set[int]] = {}         # (worker serial, slot) -> numbers in the map
        self.closing = False
        self.failed = False          # a worker did not start: the run stops with that one error
        self.locks = [trio.Lock() for _ in setups]

    async def running(self, index: int) -> _Process:
        """Worker `index`, started (again) if it is not running."""
        async with self.locks[index]:
            proc = self.processes[index]
            if proc is None or proc.ended is not None:
                proc = (self.early.take() if self.early is not None else None) or _Process()
                proc.serial = next(self.serials)
                self.processes[index] = proc
                self.nursery.start_soon(self._listen, proc)
                try:
                    await proc.send(self.setups[index])
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass                        # it died at once: its listener says how
            return proc

    async def play(self, index: int, slot: int, game: ScheduledGame, on_ply: OnPly | None) -> GameRecord:
        """Play `game` on slot `slot` of worker `index`; a worker lost mid-game means another try."""
        lost: list[str] = []
        for attempt in range(REPLAYS + 1):
            proc = await self.running(index)
            waiter = proc.waiting[game.id] = _Waiter()
            if on_ply is not None:
                proc.on_ply[game.id] = on_ply
            try:
                await proc.send(("play", slot, game))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass                            # it died: its listener says how
            if proc.ended is not None and not waiter.done.is_set():
                waiter.settle(lost=f"ended ({proc.ended})")     # it ended before the game was sent
            await waiter.done.wait()
            proc.on_ply.pop(game.id, None)
            if waiter.record is not None:
                return waiter.record
            if waiter.error is not None and waiter.stops:
                raise TournamentError(waiter.error)
            if waiter.error is not None:
                raise WorkerFailed(f"{game.id}: the game raised in worker process {proc.popen.pid}:\n{waiter.error}")
            lost.append(waiter.lost or "ended")
            if attempt < REPLAYS:
                self.warn(f"{game.id}: its worker process {lost[-1]}; playing it again")
        return GameRecord.voided(game.id, game.game, game.size, game.variant, game.first, game.second,
                                 VoidCause.REFEREE, "lost with its worker process: " + "; ".join(lost),
                                 pair=game.pair, komi=game.komi)

    async def _listen(self, proc: _Process) -> None:
        """Read one worker's messages until it ends; then settle what it held."""
        live = leftovers.current()
        try:
            while (message := await proc.frames.next()) is not None:
                self._take(proc, message, live)
        except (FrameError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        except Exception:
            proc.popen.kill()           # else the wait below waits for ever: it waits for a game
            raise
        finally:
            with trio.CancelScope(shield=True):
                code = await trio.to_thread.run_sync(proc.popen.wait)
                proc.ended = describe_exit(code)
                if isinstance(live, leftovers.LiveEngines):
                    live.end(proc.groups)       # engines (and their children) it left running
                for waiter in proc.waiting.values():
                    waiter.settle(lost=f"ended ({proc.ended})")
                proc.waiting.clear()
        if not proc.ready and not self.closing and not self.failed:
            self.failed = True      # the others that fail the same way need not say it again
            raise WorkerFailed(f"a worker process ({ENTRY}) did not start: it {proc.ended}")

    def _take(self, proc: _Process, message, live: leftovers.EngineRecord | None) -> None:
        kind = message[0]
        if kind == "plies":
            for game_id, plies in message[1].items():
                if (on_ply := proc.on_ply.get(game_id)) is not None:
                    on_ply(plies)
        elif kind == "record":
            _, game_id, record, overheads, slot, kept = message
            if record.processes is not None:
                local = [n for n in record.processes if n is not None]
                record = replace(record, processes=[None if n is None else self._number(proc, n)
                                                    for n in record.processes])
                self._forget(proc, slot, local, kept)
            if self.overhead is not None:
                for seconds in overheads:
                    self.overhead(seconds)
            proc.waiting.pop(game_id).settle(record=record)
        elif kind == "error":
            proc.waiting.pop(message[1]).settle(error=message[2], stops=message[3])
        elif kind == "live":
            _, pid, started = message
            (proc.groups.add if started else proc.groups.discard)(pid)
            if live is not None:
                (live.add if started else live.remove)(pid)
        elif kind == "ready":
            proc.ready = True

    def _number(self, proc: _Process, local: int) -> int:
        key = (proc.serial, local)
        if key not in self.numbers:
            self.numbers[key] = self.counter.take()
        return self.numbers[key]

    def _forget(self, proc: _Process, slot: int, played: list[int], kept: tuple[int, ...]) -> None:
        """Drop the numbers of slot `slot`'s engines that it no longer keeps (a process is not
        used again once its slot let it go): the map holds the live processes, not every one
        started in the run."""
        held = self.held.setdefault((proc.serial, slot), set())
        held.update(played)
        for local in held.difference(kept):
            self.numbers.pop((proc.serial, local), None)
        held.intersection_update(kept)

    async def close(self) -> None:
        """End every worker's input: each stops its engines and exits (no game is in flight)."""
        self.closing = True
        for proc in self._alive():
            try:
                await proc.end_input()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

    async def abandon(self) -> None:
        """Tell every worker to abandon its games; kill those still running after ABANDON_GRACE."""
        self.closing = True
        alive = self._alive()
        for proc in alive:
            try:
                await proc.send(("abandon",))
                await proc.end_input()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
        with trio.move_on_after(ABANDON_GRACE):
            for proc in alive:
                while proc.ended is None:
                    await trio.sleep(0.05)
        for proc in alive:
            if proc.popen.poll() is None:
                proc.popen.send_signal(signal.SIGKILL)

    def _alive(self) -> list[_Process]:
        return [p for p in self.processes if p is not None and p.ended is None]


class EarlyWorkers:
    """Worker processes started before a run (:func:`started_early`), waiting for it: the run
    that is given them (``run(..., early=...)``, :func:`worker_processes`) takes them before it
    starts any of its own."""

    def __init__(self, waiting: list[_Process]):
        self.waiting = waiting

    def take(self) -> _Process | None:
        """The next waiting process, now the run's; None when none is left."""
        return self.waiting.pop(0) if self.waiting else None

    def end(self) -> None:
        """Kill those not taken (they hold no engine: they were not given their setup)."""
        while self.waiting:
            proc = self.waiting.pop()
            proc.popen.kill()
            proc.popen.wait()
            proc.stdin.close()
            proc.stdout.close()


@contextmanager
def started_early(count: int, start: StartWorker | None = None) -> Iterator[EarlyWorkers]:
    """Start `count` worker processes now (by `start`, else as ``python -m hexarena.worker``),
    while the caller does something else (the pre-flight): they get ready meanwhile and then
    wait for their setup. The block's value is to be given to the run; those it has not taken
    by the end of the block are killed (:meth:`EarlyWorkers.end`)."""
    early = EarlyWorkers([_Process(start) for _ in range(count)])
    try:
        yield early
    finally:
        early.end()


class RemoteSlot:
    """One slot of the run, played in a worker process (see :class:`.run.Slot`)."""

    def __init__(self, workers: _Workers, index: int, slot: int):
        self.workers, self.index, self.slot = workers, index, slot

    async def __aenter__(self) -> RemoteSlot:
        return self

    async def __aexit__(self, *exc_info) -> None:
        return None

    async def play(self, game: ScheduledGame, on_ply: OnPly | None) -> GameRecord:
        return await self.workers.play(self.index, self.slot, game, on_ply)


@asynccontextmanager
async def worker_processes(setup: WorkerSetup, processes: int, slots: int, counter: StartCounter,
                           warn: Callable[[str], None] = lambda s: None,
                           overhead: Callable[[float], None] | None = None,
                           early: EarlyWorkers | None = None) -> AsyncIterator[list[RemoteSlot]]:
    """`slots` slots on `processes` worker processes (slot i on worker i % processes): those of
    `early` first, the others started now; on a clean exit they end with their input, on an
    error or a cancellation they abandon their games (module doc). WorkerFailed when a worker
    cannot start."""
    processes = max(1, min(processes, slots))
    setups = [replace(setup, slots=tuple(range(w, slots, processes))) for w in range(processes)]
    async with trio.open_nursery() as nursery:
        workers = _Workers(nursery, setups, counter, warn, overhead, early)
        try:
            for index in range(processes):
                await workers.running(index)
            yield [RemoteSlot(workers, i % processes, i) for i in range(slots)]
        except BaseException:
            with trio.CancelScope(shield=True):
                await workers.abandon()
            raise
        await workers.close()


def _stream(file) -> trio.lowlevel.FdStream:
    """A trio stream owning the pipe behind a Popen file object (which is closed)."""
    stream = trio.lowlevel.FdStream(os.dup(file.fileno()))
    file.close()
    return stream
