"""The tournament runner: a pure schedule, N slots, one journal writer.

Output folder (docs/tournament.md): ``tournament.json`` (the resolved
config, see :mod:`.folder`), ``journal.jsonl`` (one GameRecord per finished
or void game, flushed and fsynced by the single writer task),
``games/ID.sgf`` and ``logs/ID.SEAT-NAME.log`` (engine stderr).

Each slot plays one game at a time and keeps its engines between games:
in this process, or in a worker process (:mod:`.workers`) that sends the
record back; either way this process's writer journals it.

Resume = schedule minus the ids journaled with a non-void result. A void
game stays in the journal for audit and is replayed; a game in flight when
the run is cancelled is not journaled and is replayed too.
"""
from __future__ import annotations

import errno
import itertools
import os
import pickle
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any, Protocol
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import trio

from hexarena.engine import registry
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JOURNAL_NAME, JournalWriter, write_atomic
from hexarena.results.record.moves import Move
from hexarena.results.record.sgf import sgf_text
from hexarena.results.page.replay_cache import remember

from .config import EngineSpec, TournamentConfig
from .folder import CONFIG_NAME as CONFIG_NAME, TournamentError as TournamentError
from .folder import load_saved as load_saved, prepare
from ..game.match import Overhead, Refereed, Seat, Setup, referee
from .affinity import pinned
from . import live_files
from ..engines.capped_log import DEFAULT_LOG_CAP
from ..engines.eager import none_playing
from ..engines.leftovers import guard_engines
from ..engines.process import EngineChannel, open_engine
from ..engines.spawn import engine_environ
from ..game.clock import sgf_time
from .folder_lock import FolderBusy, hold_folder
from .pool import EnginePool, Launcher, StartCounter
from .schedule import ScheduledGame

if TYPE_CHECKING:
    from .workers import EarlyWorkers

OnRecord = Callable[[GameRecord], None]
#: Plays one game elsewhere (hexarena/cluster.py); must have written its SGF and logs under `out` on return.
PlayGame = Callable[[ScheduledGame], Awaitable[GameRecord]]


class Observer(Protocol):
    """What a live view hears of a run (referee/console/live.py); every call comes from the trio thread."""

    def plan(self, pending: list[ScheduledGame], records: list[GameRecord]) -> None: ...
    def started(self, game: ScheduledGame) -> None: ...
    def ply(self, game_id: str, plies: int) -> None: ...
    def finished(self, record: GameRecord) -> None: ...


def expand(cmd: tuple[str, ...], seed: int) -> list[str]:
    """An engine's argv for one game: `{python}` -> this interpreter, `{seed}` -> the seat's seed."""
    return [w.replace("{python}", sys.executable).replace("{seed}", str(seed)) for w in cmd]


def _takes_seed(engine: EngineSpec) -> bool:
    """Whether the engine's command has `{seed}`: then the seat's seed is also sent with
    `hexarena-seed` (to an engine that lists it), so a kept process plays as a fresh one."""
    return any("{seed}" in word for word in engine.cmd)


def process_launcher(engine: EngineSpec, seed: int, log: Path, *, log_protocol: bool = False,
                     prefix: tuple[str, ...] = (), log_cap: int = DEFAULT_LOG_CAP
                     ) -> AbstractAsyncContextManager[EngineChannel]:
    """Start `engine` in its cwd and environment, under its resource limits, its stderr
    capped at `log_cap` bytes; with `log_protocol` (or the engine's own `log_protocol`)
    its HGP transcript goes beside `log`, ending in `.hgp`. `prefix`: argv words run
    before the engine's own (a cluster worker's guard). Its group is stopped between its turns
    unless its `pause` is off; a kept engine's (`restart = "fault"`) CPU limit is per game."""
    transcript = log.with_suffix(".hgp") if log_protocol or engine.log_protocol else None
    env = {**(engine_environ() or os.environ), **dict(engine.env)} if engine.env else None
    argv = expand(engine.cmd, seed)
    return open_engine([*prefix, *argv], log, engine.name, cwd=engine.cwd, env=env, transcript=transcript,
                       resources=engine.resources, log_cap=log_cap, program=argv[0] if argv else None,
                       pause=engine.pause, guarded=bool(prefix), renewable=engine.restart == "fault")


async def run(config: TournamentConfig, out: str | os.PathLike, *, concurrency: int = 2,
              resume: bool = False, launcher: Launcher = process_launcher,
              on_record: OnRecord | None = None, warn: Callable[[str], None] = lambda s: None,
              observer: Observer | None = None, should_stop: Callable[[], bool] | None = None,
              play: PlayGame | None = None, stop: trio.Event | None = None,
              overhead: Overhead | None = None, workers: int = 0,
              affinity: Sequence[tuple[int, ...]] | None = None, early: EarlyWorkers | None = None,
              before_games: Callable[[], Awaitable[None]] | None = None) -> RunOutcome:
    """Play every pending game in `concurrency` slots (one game at a time each); return the run's
    counts (:class:`RunOutcome`). The run keeps nothing per finished game: the journal is the
    record (:func:`~hexarena.results.record.journal.read_journal`), `on_record` and the observer
    hear each record as it is journaled.

    `workers` = 0 plays every slot in this process; P > 0 spreads the slots over P worker processes
    (:mod:`.workers`; at most one per slot; `early`: processes started before the run, taken
    first, :func:`.workers.started_early`), `launcher` then goes to them pickled (a partial of
    :func:`process_launcher` does) and TournamentError says so when it cannot. `affinity`: the
    CPUs of each slot (:func:`.affinity.plan`), its engines pinned to them.

    Once `stop` is set (a first Ctrl-C), or `should_stop` (an SPRT's decision,
    asked before each game that starts a pair) answers True, no new game
    starts; the games in flight finish and are journaled. `observer` hears
    the run (the live view); `play` (the cluster's hook) replaces the local
    `play_scheduled(game, config, out, launcher)`; `overhead` hears the
    referee's own seconds for each action (see
    :data:`~hexarena.referee.game.match.Overhead`). `on_record` and the observer
    get each whole record once (the observer's `plan` gets the journal's records at the start,
    as summaries); whatever they keep, their memory grows with it. `before_games` is awaited
    once the folder is held and read, when a game is left to play, before the first one starts
    (the CLI's pre-flight of a resumed run: a finished tournament starts no engine).
    TournamentError (before anything runs) if the folder cannot be used, also
    when another process runs in it.
    """
    if concurrency < 1 or workers < 0:
        raise ValueError("concurrency must be at least 1, workers at least 0")
    if affinity is not None and len(affinity) < concurrency:
        raise ValueError(f"affinity gives CPUs to {len(affinity)} slots, fewer than the {concurrency} asked")
    if workers and play is not None:
        raise ValueError("a `play` hook plays the games itself: give workers=0")
    if workers and (why := unpicklable(launcher)) is not None:
        raise TournamentError(f"the engine launcher cannot go to a worker process ({why}): use workers=0")
    out = Path(out)
    hooks = _Hooks(on_record, observer, should_stop, play, stop if stop is not None else trio.Event(), overhead,
                   workers, tuple(affinity) if affinity else None, early, before_games)
    try:
        with hold_folder(out):
            return await _run(config, out, concurrency, resume, launcher, warn, hooks)
    except FolderBusy as exc:
        raise TournamentError(str(exc)) from None


@dataclass
class RunOutcome:
    """What one run did; the games are in the journal. `pending`: the games to play at the start
    (the schedule minus the journal's counted games); `played`: the records this run journaled,
    `void` of them void (a resume plays those again); `stopped`: why pending games were left
    unstarted: "stop" (the `stop` event), "should_stop" (its answer), None (none was left)."""
    pending: int
    played: int = 0
    void: int = 0
    stopped: str | None = None

    @property
    def counted(self) -> int:
        """The non-void records this run journaled."""
        return self.played - self.void


@dataclass
class _Hooks:
    """What a run reports to and asks of its caller (see :func:`run`)."""
    on_record: OnRecord | None
    observer: Observer | None
    should_stop: Callable[[], bool] | None
    play: PlayGame | None
    stop: trio.Event
    overhead: Overhead | None = None
    workers: int = 0
    affinity: tuple[tuple[int, ...], ...] | None = None
    early: EarlyWorkers | None = None
    before_games: Callable[[], Awaitable[None]] | None = None


async def _run(config: TournamentConfig, out: Path, concurrency: int, resume: bool, launcher: Launcher,
               warn: Callable[[str], None], hooks: _Hooks) -> RunOutcome:
    pending, journaled = prepare(config, out, resume, warn)
    if pending and hooks.before_games is not None:
        await hooks.before_games()
    live_files.clear(out)                         # a killed run's files: its games are replayed
    if launcher is process_launcher:
        launcher = partial(process_launcher, log_cap=config.log_cap)
    on_record = hooks.on_record
    if hooks.observer is not None:
        hooks.observer.plan(pending, journaled)
        on_record = _both(hooks.observer.finished, on_record)
    counter = StartCounter(1 + max((n or 0 for r in journaled for n in r.processes or ()), default=0))
    del journaled                                 # the run keeps nothing per game: the journal is the record
    outcome = RunOutcome(len(pending))
    games = _until(pending, hooks.should_stop, outcome)   # shared by the slots: trio switches tasks only at awaits
    send, receive = trio.open_memory_channel(0)
    with JournalWriter(out / JOURNAL_NAME) as writer, guard_engines(out):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_write, receive, writer, outcome, on_record, out)
            async with send, _slots(config, out, min(concurrency, len(pending)), launcher, counter, hooks,
                                    warn) as slots:
                async with trio.open_nursery() as tasks:
                    for slot in slots:
                        tasks.start_soon(_work, games, send.clone(), slot, hooks, outcome)
    live_files.clear(out)
    return outcome


class Slot(Protocol):
    """Where one game at a time is played, keeping its engines between games: in this process
    (:class:`LocalSlot`), in a worker process (:class:`.workers.RemoteSlot`), or through a
    `play` hook (a cluster). Used as ``async with slot:``, which stops the engines it kept."""

    async def __aenter__(self) -> Slot: ...
    async def __aexit__(self, *exc_info) -> bool | None: ...
    async def play(self, game: ScheduledGame, on_ply: Callable[[int], None] | None) -> GameRecord: ...


def slot_pool(launcher: Launcher, counter: StartCounter, config: TournamentConfig, slot: int,
              affinity: Sequence[tuple[int, ...]] | None = None) -> EnginePool:
    """The engine pool of the run's slot number `slot` (in this process or in a worker process),
    its engines pinned to the slot's CPUs under `affinity`."""
    start = pinned(launcher, affinity[slot]) if affinity else launcher
    return EnginePool(start, counter, keep=len(config.engines))


class LocalSlot:
    """A slot played in this process: its own engine pool, :func:`play_scheduled`."""

    def __init__(self, pool: EnginePool, config: TournamentConfig, out: Path, overhead: Overhead | None):
        self.pool, self.config, self.out, self.overhead = pool, config, out, overhead

    async def __aenter__(self) -> LocalSlot:
        await self.pool.__aenter__()
        return self

    async def __aexit__(self, *exc_info) -> bool | None:
        return await self.pool.__aexit__(*exc_info)

    async def play(self, game: ScheduledGame, on_ply: Callable[[int], None] | None) -> GameRecord:
        return await play_scheduled(game, self.config, self.out, self.pool, on_ply, self.overhead)


class _HookSlot:
    """A slot whose games the `play` hook plays (a cluster: no engines kept here)."""

    def __init__(self, play: PlayGame):
        self._play = play

    async def __aenter__(self) -> _HookSlot:
        return self

    async def __aexit__(self, *exc_info) -> bool | None:
        return None

    async def play(self, game: ScheduledGame, on_ply: Callable[[int], None] | None) -> GameRecord:
        return await self._play(game)


@asynccontextmanager
async def _slots(config: TournamentConfig, out: Path, count: int, launcher: Launcher, counter: StartCounter,
                 hooks: _Hooks, warn: Callable[[str], None]) -> AsyncIterator[Sequence[Slot]]:
    """The run's `count` slots, as `hooks` asks: a `play` hook, worker processes, or this process."""
    play = hooks.play
    if play is not None:
        yield [_HookSlot(play) for _ in range(count)]
    elif hooks.workers and count:
        from .wire import WorkerSetup
        from .workers import worker_processes
        setup = WorkerSetup(config, out.resolve(), launcher, (), hooks.overhead is not None, hooks.affinity)
        async with worker_processes(setup, hooks.workers, count, counter, warn, hooks.overhead,
                                    hooks.early) as remote:
            yield remote
    else:
        yield [LocalSlot(slot_pool(launcher, counter, config, i, hooks.affinity), config, out, hooks.overhead)
               for i in range(count)]


def unpicklable(value: object) -> str | None:
    """Why `value` cannot be pickled (to go to a worker process), or None."""
    try:
        pickle.dumps(value)
    except Exception as exc:        # pickling raises many kinds (PicklingError, TypeError, AttributeError)
        return f"{type(exc).__name__}: {exc}"
    return None


def _until(pending: list[ScheduledGame], should_stop: Callable[[], bool] | None,
           outcome: RunOutcome) -> Iterator[ScheduledGame]:
    """The pending games, until `should_stop` answers True before a game that opens a pair."""
    for game in pending:
        if should_stop is not None and game.opens_pair and should_stop():
            outcome.stopped = "should_stop"
            return
        yield game


async def _work(games: Iterator[ScheduledGame], send: trio.MemorySendChannel, slot: Slot, hooks: _Hooks,
                outcome: RunOutcome) -> None:
    """Play games in `slot` until none is left or `hooks.stop` is set. Under `should_stop`, wait
    until each record is journaled and reported before taking the next game, so that the test
    has seen it."""
    async with send, slot:
        for game in games:
            if hooks.stop.is_set():
                outcome.stopped = "stop"
                return
            on_ply = None
            if hooks.observer is not None:
                hooks.observer.started(game)
                on_ply = partial(hooks.observer.ply, game.id)
            reported = trio.Event()
            record = await slot.play(game, on_ply)
            await send.send((record, reported))
            if hooks.should_stop is not None:
                await reported.wait()


def _both(first: OnRecord, second: OnRecord | None) -> OnRecord:
    def call(record: GameRecord) -> None:
        first(record)
        if second is not None:
            second(record)
    return call


async def _write(receive: trio.MemoryReceiveChannel, writer: JournalWriter, outcome: RunOutcome,
                 on_record: OnRecord | None, out: Path) -> None:
    async with receive:
        async for record, reported in receive:
            try:
                await _beside_the_games(writer.append, record)     # a line is whole, whatever comes
            except OSError as exc:
                raise TournamentError(_stopped_by_the_disk(exc, out)) from exc
            live_files.remove(out, record.id)
            outcome.played += 1
            outcome.void += record.void
            if on_record is not None:
                on_record(record)
            reported.set()


def _stopped_by_the_disk(exc: OSError, out: Path) -> str:
    """Why a run stops when a file of its folder cannot be written: a full disk (make room), or
    something in the way (a file where a folder goes, a symbolic link, no permission: fix it)."""
    full = exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    return (f"cannot write {exc.filename or out}: {exc.strerror or exc}; the run stops, the games in "
            f"flight are played again at the resume (the journal holds whole lines only): "
            f"{'make room' if full else 'fix that path'}, then `hexarena tournament --out {out} --resume`")


async def _beside_the_games(write: Callable[..., None], *args: Any) -> None:
    """`write(*args)` (a game's files, the journal's line), never cut short: in the loop's own
    thread when no game of the loop plays (the runner of worker processes, a worker's slot, `-j 1`
    between games; a hop to a thread costs ~0.1 ms of CPU), Ctrl-C waiting for it; else in a
    worker thread, not cancellable, so that the games of the loop go on meanwhile."""
    if none_playing():
        _shielded(write, *args)
    else:
        await trio.to_thread.run_sync(write, *args)


@trio.lowlevel.enable_ki_protection
def _shielded(write: Callable[..., None], *args: Any) -> None:
    write(*args)


async def play_scheduled(game: ScheduledGame, config: TournamentConfig, out: Path,
                         engines: Launcher | EnginePool = process_launcher,
                         on_ply: Callable[[int], None] | None = None,
                         overhead: Overhead | None = None, live_every: float | None = None) -> GameRecord:
    """Play one scheduled game, write its SGF (not for a void game) and return its record.
    `engines`: a slot's pool (processes numbered, kept by `restart`), or a launcher (a process
    per game, not numbered: a cluster worker). While it plays, the game's live file
    (:mod:`.live_files`) is written, each line flushed within `live_every` seconds (None:
    :data:`.live_files.EVERY`; 0: before `on_ply` hears its action); the journal's writer
    removes it. `on_ply(plies)` hears each action (the live view)."""
    seats, logs, leases = [], {}, []
    for seat, (name, seed) in enumerate(zip((game.first, game.second), game.seeds), 1):
        logs[name] = f"logs/{game.id}.{seat}-{name}.log"
        spec = config.engine(name)
        takes_seed = seed if _takes_seed(spec) else None
        if isinstance(engines, EnginePool):
            lease = engines.lease(spec, seed, out / logs[name], seat - 1)
            leases.append(lease)
            seats.append(Seat(name, lease.connect, seed=takes_seed, settle=lease.settle, analysis=spec.analysis,
                              commands=spec.commands))
        else:
            seats.append(Seat(name, partial(engines, spec, seed, out / logs[name]), seed=takes_seed,
                              analysis=spec.analysis, commands=spec.commands))
    setup = Setup(game.game, game.size, tuple(game.variant.split()), game.komi, game.ply_cap, game.opening,
                  config.adjudication)
    limits = (config.limits_of(game.first), config.limits_of(game.second))
    every = live_files.EVERY if live_every is None else live_every
    with live_files.LiveFile(out, live_files.header(game, limits), every) as live:
        refereed = await referee(setup, (seats[0], seats[1]), limits, partial(_ply, live, on_ply), game_id=game.id,
                                 pair=game.pair, overhead=overhead)
    record = refereed.record
    processes = [lease.number for lease in leases] if leases else None
    if record.void:
        faulty = record.faulty
        seen = f" (see {logs[faulty]})" if faulty is not None and (out / logs[faulty]).exists() else ""
        return replace(record, reason=record.reason + seen, processes=processes)
    sgf = f"games/{game.id}.sgf"
    record = replace(record, sgf=sgf, processes=processes)
    text = sgf_text(record, registry.get(game.game).sgf_number, sgf_time(limits))
    try:
        await _beside_the_games(_write_game, out, replace(refereed, record=record), text)
    except OSError as exc:
        raise TournamentError(_stopped_by_the_disk(exc, out)) from exc
    return record


def _ply(live: live_files.LiveFile, on_ply: Callable[[int], None] | None, plies: int, move: Move) -> None:
    live.ply(plies, move)
    if on_ply is not None:
        on_ply(plies)


def _write_game(out: Path, refereed: Refereed, text: str) -> None:
    """The game's SGF file, then its entry in the report's cache (DIR/report-cache.jsonl) from the
    states the referee played, so that no report replays it. An SGF already there under the game's
    id (a game played again: its record was moved aside by `repair`, or never journaled) is kept
    beside it as ID.sgf.1, .2, ...: nothing of a folder is written over."""
    target = out / str(refereed.record.sgf)
    if target.exists():
        os.replace(target, next(kept for n in itertools.count(1)
                                if not (kept := target.with_name(f"{target.name}.{n}")).exists()))
    write_atomic(target, text)
    if refereed.states:
        remember(out, refereed.record, text, list(refereed.states), list(refereed.actions))
