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
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from functools import partial
from pathlib import Path

import trio

from hexarena.engine.core import Colour
from hexarena.results.records import (
    JOURNAL_NAME, GameRecord, JournalError, JournalWriter, cut_torn_tail, read_journal,
)

from . import config as config_mod
from .config import EngineSpec, TournamentConfig
from .match import Seat, Setup, play_game
from .capped_log import DEFAULT_LOG_CAP
from .folder_lock import FolderBusy, hold_folder
from .leftovers import guard_engines
from .process import EngineChannel, open_engine
from .schedule import ScheduledGame, schedule
from .sgf import render, write_atomic

CONFIG_NAME = "tournament.json"

#: How a worker starts one engine for one game: (engine, seed, log file) -> channel context.
Launcher = Callable[[EngineSpec, int, Path], AbstractAsyncContextManager[EngineChannel]]
OnRecord = Callable[[GameRecord], None]


class TournamentError(Exception):
    """The output folder cannot be used as asked (message says why and what to do)."""


def expand(cmd: tuple[str, ...], seed: int) -> list[str]:
    """An engine's argv for one game: `{python}` -> this interpreter, `{seed}` -> the seat's seed."""
    return [w.replace("{python}", sys.executable).replace("{seed}", str(seed)) for w in cmd]


def process_launcher(engine: EngineSpec, seed: int, log: Path, log_cap: int = DEFAULT_LOG_CAP
                     ) -> AbstractAsyncContextManager[EngineChannel]:
    return open_engine(expand(engine.cmd, seed), log, engine.name, resources=engine.resources, log_cap=log_cap)


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
    if saved.exists():
        if not resume:
            raise TournamentError(f"{out} already holds a tournament: add --resume to continue it, "
                                  "or choose another --out")
        stored = config_mod.to_dict(load_saved(out))
        if stored != wanted:
            raise TournamentError(f"the config differs from the one {out} was started with "
                                  f"({_difference(stored, wanted)}); resume with the same config, "
                                  "or without one to use the saved config")
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
    done = {r.id for r in records if not r.void}
    return [g for g in schedule(config) if g.id not in done], records


async def run(config: TournamentConfig, out: str | os.PathLike, *, concurrency: int = 2,
              resume: bool = False, launcher: Launcher = process_launcher,
              on_record: OnRecord | None = None, warn: Callable[[str], None] = lambda s: None,
              stop: trio.Event | None = None) -> list[GameRecord]:
    """Play every pending game with `concurrency` workers; return the whole journal.

    Once `stop` is set no new game starts; the games in flight finish and
    are journaled. TournamentError (before anything runs) if the folder
    cannot be used, also when another process runs in it.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    out = Path(out)
    try:
        with hold_folder(out):
            return await _run(config, out, concurrency, resume, launcher, on_record, warn,
                              stop if stop is not None else trio.Event())
    except FolderBusy as exc:
        raise TournamentError(str(exc)) from None


async def _run(config: TournamentConfig, out: Path, concurrency: int, resume: bool, launcher: Launcher,
               on_record: OnRecord | None, warn: Callable[[str], None], stop: trio.Event) -> list[GameRecord]:
    pending, records = prepare(config, out, resume, warn)
    if launcher is process_launcher:
        launcher = partial(process_launcher, log_cap=config.log_cap)
    games = iter(pending)       # shared by the workers: trio switches tasks only at awaits
    send, receive = trio.open_memory_channel(0)
    with JournalWriter(out / JOURNAL_NAME) as writer, guard_engines(out):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_write, receive, writer, records, on_record)
            async with send:
                async with trio.open_nursery() as workers:
                    for _ in range(min(concurrency, len(pending))):
                        workers.start_soon(_work, games, send.clone(), config, out, launcher, stop)
    return records


async def _work(games: Iterator[ScheduledGame], send: trio.MemorySendChannel, config: TournamentConfig,
                out: Path, launcher: Launcher, stop: trio.Event) -> None:
    async with send:
        for game in games:
            if stop.is_set():
                return
            await send.send(await play_scheduled(game, config, out, launcher))


async def _write(receive: trio.MemoryReceiveChannel, writer: JournalWriter, records: list[GameRecord],
                 on_record: OnRecord | None) -> None:
    async with receive:
        async for record in receive:
            await trio.to_thread.run_sync(writer.append, record)     # not cancellable: a line is whole
            records.append(record)
            if on_record is not None:
                on_record(record)


async def play_scheduled(game: ScheduledGame, config: TournamentConfig, out: Path,
                         launcher: Launcher = process_launcher) -> GameRecord:
    """Play one scheduled game, write its SGF (not for a void game) and return its record."""
    seats, logs = [], {}
    for seat, (name, seed) in enumerate(zip((game.first, game.second), game.seeds), 1):
        logs[name] = f"logs/{game.id}.{seat}-{name}.log"
        seats.append(Seat(name, partial(launcher, config.engine(name), seed, out / logs[name])))
    setup = Setup(game.game, game.size, tuple(game.variant.split()), game.komi, game.ply_cap)
    report = await play_game(setup, (seats[0], seats[1]), config.limits)
    sgf, reason = None, report.reason
    if report.outcome is None and report.faulty is not None:
        reason += f" (see {logs[report.faulty]})"
    if report.outcome is not None:
        sgf = f"games/{game.id}.sgf"
        await trio.to_thread.run_sync(write_atomic, out / sgf, render(report, game.id))
    return GameRecord(
        id=game.id, game=game.game, size=game.size, variant=game.variant,
        first=game.first, second=game.second,
        black=report.name_of(Colour.BLACK), white=report.name_of(Colour.WHITE),
        winner=report.winner, result=report.result, termination=report.termination,
        plies=len(report.actions), reason=reason, faulty=report.faulty, sgf=sgf,
        started=report.started, seconds=report.seconds,
    )


def _difference(a: object, b: object, path: str = "") -> str:
    """The first key where two config tables differ, as text."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return _difference(a.get(k), b.get(k), f"{path}.{k}" if path else k)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _difference(x, y, f"{path}[{i}]")
    return f"{path or 'config'}: saved {a!r}, now {b!r}"
