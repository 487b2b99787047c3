"""The tournament runner: a pure schedule, N workers, one journal writer.

Output folder (docs/tournament.md): ``tournament.json`` (the resolved
config, written on the first run; a resume with a different config is
refused), ``journal.jsonl`` (one GameRecord per finished or void game,
flushed and fsynced by the single writer task), ``games/ID.sgf`` and
``logs/ID.SEAT-NAME.log`` (engine stderr).

Resume = schedule minus the ids journaled with a non-void result. A void
game stays in the journal for audit and is replayed; a game in flight when
the run is cancelled is not journaled and is replayed too.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from typing import Protocol
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import trio

from hexarena.engine import registry
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import (
    JOURNAL_NAME, JournalError, JournalWriter, cut_torn_tail, read_journal, write_atomic,
)
from hexarena.results.record.sgf import sgf_text

from . import config as config_mod
from . import growth
from .config import EngineSpec, TournamentConfig
from ..game.faults import Moves
from ..game.match import OnPly, Overhead, Seat, Setup, play_game
from ..engines.capped_log import DEFAULT_LOG_CAP
from ..engines.leftovers import guard_engines
from ..engines.process import EngineChannel, open_engine
from ..game.clock import sgf_time
from . import live_files
from .folder_lock import FolderBusy, hold_folder
from .pool import EnginePool, Launcher, StartCounter
from .schedule import ScheduledGame

CONFIG_NAME = "tournament.json"

OnRecord = Callable[[GameRecord], None]
#: Plays one game elsewhere (hexarena/cluster.py); must have written its SGF and logs under `out` on return.
PlayGame = Callable[[ScheduledGame], Awaitable[GameRecord]]


class Observer(Protocol):
    """What a live view hears of a run (referee/live.py); every call comes from the trio thread."""

    def plan(self, pending: list[ScheduledGame], records: list[GameRecord]) -> None: ...
    def started(self, game: ScheduledGame) -> None: ...
    def ply(self, game_id: str, plies: int) -> None: ...
    def finished(self, record: GameRecord) -> None: ...


class TournamentError(Exception):
    """The output folder cannot be used as asked (message says why and what to do)."""


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
    before the engine's own (a cluster worker's guard)."""
    transcript = log.with_suffix(".hgp") if log_protocol or engine.log_protocol else None
    env = {**os.environ, **dict(engine.env)} if engine.env else None
    return open_engine([*prefix, *expand(engine.cmd, seed)], log, engine.name, cwd=engine.cwd, env=env,
                       transcript=transcript, resources=engine.resources, log_cap=log_cap)


def load_saved(out: str | os.PathLike) -> TournamentConfig:
    """The config a tournament folder was started with; TournamentError if there is none."""
    path = Path(out) / CONFIG_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TournamentError(f"{out} holds no tournament ({CONFIG_NAME} is missing): check --out") from None
    except json.JSONDecodeError as exc:
        raise TournamentError(f"{path}: not valid JSON: {exc}") from None
    return config_mod.from_dict(data, str(path))


def prepare(config: TournamentConfig, out: str | os.PathLike, resume: bool,
            warn: Callable[[str], None] = lambda s: None) -> tuple[list[ScheduledGame], list[GameRecord]]:
    """Check or create the folder; return the games still to play and the journal so far."""
    out = Path(out)
    saved, journal = out / CONFIG_NAME, out / JOURNAL_NAME
    wanted = config_mod.to_dict(config)
    if resume and not saved.exists():
        raise TournamentError(f"{out} holds no tournament to resume ({CONFIG_NAME} is missing); "
                              "check --out, or start a new tournament without --resume")
    history: list[TournamentConfig] = []
    if saved.exists():
        if not resume:
            raise TournamentError(f"{out} already holds a tournament: add --resume to continue it, "
                                  "or choose another --out")
        stored = config_mod.to_dict(load_saved(out))
        history = growth.earlier_configs(out)
        if stored != wanted and growth.same_play(stored, wanted):     # a setting such as `restart`
            write_atomic(saved, json.dumps(wanted, indent=2) + "\n")
        elif stored != wanted:
            problem = growth.growth_problem(stored, wanted)
            if problem:
                raise TournamentError(f"the config differs from the one {out} was started with "
                                      f"({problem}); resume with the same config, one that only adds "
                                      "games, or none to use the saved config")
            history.append(load_saved(out))
            _check_schedule(history + [config], out)
            growth.record_growth(out, stored, write_atomic)
            write_atomic(saved, json.dumps(wanted, indent=2) + "\n")
            warn(f"the tournament in {out} grows: its games keep their ids, new games are added")
    else:
        if journal.exists():
            raise TournamentError(f"{journal} exists but {saved} does not: not a hexarena tournament folder")
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(saved, json.dumps(wanted, indent=2) + "\n")
    records: list[GameRecord] = []
    if journal.exists():
        torn = cut_torn_tail(journal)
        if torn is not None:
            warn(torn)
        errors: list[JournalError] = []
        records = read_journal(journal, errors)
        if errors:
            shown = "\n  ".join(str(e) for e in errors[:20])
            more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
            raise TournamentError(f"{journal} has {len(errors)} unreadable line(s):\n  {shown}{more}\n"
                                  f"repair it with: hexarena repair {shlex.quote(str(out))}  (bad lines move, "
                                  "verbatim, to a side file; their games are replayed)")
    games = _check_schedule(history + [config], out)
    mismatch = growth.check_journal(games, records)
    if mismatch:
        raise TournamentError(f"{journal}: {mismatch}; was it written by another config or version?")
    done = {r.id for r in records if not r.void}
    return [g for g in games if g.id not in done], records


def _check_schedule(configs: list[TournamentConfig], out: Path) -> list[ScheduledGame]:
    try:
        return growth.schedule_for(configs)
    except ValueError as exc:
        raise TournamentError(f"the config would change a game of the tournament in {out}: {exc}") from None


async def run(config: TournamentConfig, out: str | os.PathLike, *, concurrency: int = 2,
              resume: bool = False, launcher: Launcher = process_launcher,
              on_record: OnRecord | None = None, warn: Callable[[str], None] = lambda s: None,
              observer: Observer | None = None, should_stop: Callable[[], bool] | None = None,
              play: PlayGame | None = None, stop: trio.Event | None = None,
              overhead: Overhead | None = None) -> list[GameRecord]:
    """Play every pending game with `concurrency` workers; return the whole journal's records as
    summaries (:meth:`GameRecord.summary`: without the per-action lists; read the journal for those).

    Once `stop` is set (a first Ctrl-C), or `should_stop` (an SPRT's decision,
    asked before each game that starts a pair) answers True, no new game
    starts; the games in flight finish and are journaled. `observer` hears
    the run (the live view); `play` (the cluster's hook) replaces the local
    `play_scheduled(game, config, out, launcher)`; `overhead` hears the
    referee's own seconds for each action (see
    :data:`~hexarena.referee.game.match.Overhead`). `on_record` and the observer
    get each whole record once; whatever they keep, they keep as a summary.
    TournamentError (before anything runs) if the folder cannot be used, also
    when another process runs in it.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    out = Path(out)
    hooks = _Hooks(on_record, observer, should_stop, play, stop if stop is not None else trio.Event(), overhead)
    try:
        with hold_folder(out):
            return await _run(config, out, concurrency, resume, launcher, warn, hooks)
    except FolderBusy as exc:
        raise TournamentError(str(exc)) from None


@dataclass
class _Hooks:
    """What a run reports to and asks of its caller (see :func:`run`)."""
    on_record: OnRecord | None
    observer: Observer | None
    should_stop: Callable[[], bool] | None
    play: PlayGame | None
    stop: trio.Event
    overhead: Overhead | None = None


async def _run(config: TournamentConfig, out: Path, concurrency: int, resume: bool, launcher: Launcher,
               warn: Callable[[str], None], hooks: _Hooks) -> list[GameRecord]:
    pending, journaled = prepare(config, out, resume, warn)
    live_files.clear(out)                         # a killed run's files: its games are replayed
    records = [r.summary() for r in journaled]      # the run keeps summaries only: its memory stays flat
    del journaled
    if launcher is process_launcher:
        launcher = partial(process_launcher, log_cap=config.log_cap)
    on_record = hooks.on_record
    if hooks.observer is not None:
        hooks.observer.plan(pending, records)
        on_record = _both(hooks.observer.finished, on_record)
    games = _until(pending, hooks.should_stop)    # shared by the workers: trio switches tasks only at awaits
    counter = StartCounter(1 + max((n or 0 for r in records for n in r.processes or ()), default=0))
    send, receive = trio.open_memory_channel(0)
    with JournalWriter(out / JOURNAL_NAME) as writer, guard_engines(out):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_write, receive, writer, records, on_record, out)
            async with send:
                async with trio.open_nursery() as workers:
                    for _ in range(min(concurrency, len(pending))):
                        pool = EnginePool(launcher, counter, keep=len(config.engines))
                        workers.start_soon(_work, games, send.clone(), config, out, pool, hooks)
    live_files.clear(out)
    return records


def _until(pending: list[ScheduledGame], should_stop: Callable[[], bool] | None) -> Iterator[ScheduledGame]:
    """The pending games, until `should_stop` answers True before a game that opens a pair."""
    for game in pending:
        if should_stop is not None and game.opens_pair and should_stop():
            return
        yield game


async def _work(games: Iterator[ScheduledGame], send: trio.MemorySendChannel, config: TournamentConfig,
                out: Path, pool: EnginePool, hooks: _Hooks) -> None:
    """Play games until none is left or `hooks.stop` is set, with the engines of `pool` (this
    slot's). Under `should_stop`, wait until each record is journaled and reported before taking
    the next game, so that the test has seen it."""
    async with send, pool:
        for game in games:
            if hooks.stop.is_set():
                return
            on_ply: OnPly | None = None
            if hooks.observer is not None:
                hooks.observer.started(game)
                on_ply = partial(_observe, hooks.observer, game.id)
            reported = trio.Event()
            play = hooks.play
            record = await (play(game) if play else play_scheduled(game, config, out, pool, on_ply, hooks.overhead))
            await send.send((record, reported))
            if hooks.should_stop is not None:
                await reported.wait()


def _observe(observer: Observer, game_id: str, plies: int, moves: Moves) -> None:
    observer.ply(game_id, plies)


def _both(first: OnRecord, second: OnRecord | None) -> OnRecord:
    def call(record: GameRecord) -> None:
        first(record)
        if second is not None:
            second(record)
    return call


async def _write(receive: trio.MemoryReceiveChannel, writer: JournalWriter, records: list[GameRecord],
                 on_record: OnRecord | None, out: Path) -> None:
    async with receive:
        async for record, reported in receive:
            await trio.to_thread.run_sync(writer.append, record)     # not cancellable: a line is whole
            live_files.remove(out, record.id)
            records.append(record.summary())
            if on_record is not None:
                on_record(record)
            reported.set()


async def play_scheduled(game: ScheduledGame, config: TournamentConfig, out: Path,
                         engines: Launcher | EnginePool = process_launcher,
                         on_ply: OnPly | None = None,
                         overhead: Overhead | None = None) -> GameRecord:
    """Play one scheduled game, write its SGF (not for a void game) and return its record.
    `engines`: a slot's pool (processes numbered, kept by `restart`), or a launcher (a process
    per game, not numbered: a cluster worker). While it plays, the game's live file
    (:mod:`.live_files`) is written; the journal's writer removes it."""
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
    setup = Setup(game.game, game.size, tuple(game.variant.split()), game.komi, game.ply_cap, game.opening)
    limits = (config.limits_of(game.first), config.limits_of(game.second))
    with live_files.LiveFile(out, live_files.header(game, limits)) as live:
        record = await play_game(setup, (seats[0], seats[1]), limits, live.hook(on_ply), game_id=game.id,
                                 pair=game.pair, overhead=overhead)
    processes = [lease.number for lease in leases] if leases else None
    if record.void:
        seen = f" (see {logs[record.faulty]})" if record.faulty is not None else ""
        return replace(record, reason=record.reason + seen, processes=processes)
    sgf = f"games/{game.id}.sgf"
    record = replace(record, sgf=sgf, processes=processes)
    text = sgf_text(record, registry.get(game.game).sgf_number, sgf_time(limits))
    await trio.to_thread.run_sync(write_atomic, out / sgf, text)
    return record
