"""Before a tournament: start every engine once and ask whether it can play.

A typo in an engine's command, or an engine that does not play a scheduled
game, would otherwise make every one of its games void. The check asks
`protocol_version` and `list_games` of each engine, with the tournament's
start and command deadlines, and returns the problems as sentences.
"""
from __future__ import annotations

import shlex
from functools import partial
from pathlib import Path

import trio

from hexarena.protocol.controller import CommandFailed, ControllerError

from .config import EngineSpec, TournamentConfig
from .leftovers import guard_engines
from .process import EngineStartFailed
from .folder_lock import FolderBusy, hold_folder
from .tournament import Launcher, TournamentError, expand, process_launcher


async def preflight(config: TournamentConfig, out: Path, launcher: Launcher = process_launcher) -> list[str]:
    """The problems found (empty when every engine answers and lists every scheduled game).

    Engine stderr goes to ``OUT/logs/preflight.NAME.log``; engines are stopped before returning.
    """
    needed = sorted({g.game for g in config.games})
    problems: list[str] = []
    if launcher is process_launcher:
        launcher = partial(process_launcher, log_cap=config.log_cap)
    try:
        with hold_folder(Path(out)), guard_engines(Path(out)):
            for engine in config.engines:
                await _check(engine, config, out, launcher, needed, problems)
    except FolderBusy as exc:
        raise TournamentError(str(exc)) from None
    return problems


async def _check(engine: EngineSpec, config: TournamentConfig, out: Path, launcher: Launcher, needed: list[str],
                 problems: list[str]) -> None:
    """Ask one engine; append its problems (each naming the engine, its command and its log)."""
    log = Path(out) / "logs" / f"preflight.{engine.name}.log"
    where = f"(command: {shlex.join(expand(engine.cmd, config.seed))}; stderr in {log})"
    try:
        async with launcher(engine, config.seed, log) as channel:
            version = await channel.command("protocol_version", deadline=trio.current_time() + config.limits.start)
            if version.strip() != "2":
                problems.append(f"{engine.name}: protocol_version answers {version!r}, expected 2 {where}")
                return
            listed = (await channel.command(
                "list_games", deadline=trio.current_time() + config.limits.command)).split()
            missing = [g for g in needed if g not in listed]
            if missing:
                problems.append(f"{engine.name}: does not list {', '.join(missing)} in list_games {where}")
    except CommandFailed as exc:
        problems.append(f"{engine.name}: refused a command: {exc.message} {where}")
    except (EngineStartFailed, ControllerError) as exc:    # messages already name the engine
        problems.append(f"{exc} {where}")
