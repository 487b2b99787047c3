"""Before a tournament: start every engine once and ask whether it can play what it is scheduled for.

A typo in an engine's command, or an engine that does not play a scheduled
game, size or variant, would otherwise make every one of those games void.
The engines are checked at once (as many as there are cores), so the check
costs about one engine's start-up, not the sum of them.
The check asks each engine `protocol_version` (with the tournament's start
deadline), `list_games`, and then, for every game, size and variant the
schedule gives it (its entrants only), `game ...`, `boardsize N` and `komi
K` when set (with the command deadline), and last the engine's setup
commands (`[engines.X] commands`), each of which must be answered `=`. Every
problem of every engine is returned, as sentences, before anything is journaled.

Each engine's stderr goes to ``preflight.NAME.log`` in a temporary folder
first. When every engine passes, the logs move to ``OUT/logs/``; when one
fails, each problem quotes the end of that engine's stderr, the temporary
folder is removed and the output folder is left as it was found (a lock
file or a folder the check made is removed).
"""
from __future__ import annotations

import shlex
import shutil
import tempfile
from functools import partial
from pathlib import Path

import trio

from hexarena.engine import registry
from hexarena.protocol.controller import CommandFailed, ControllerError

from .affinity import cpu_count
from .config import EngineSpec, TournamentConfig
from .folder_lock import LOCK_NAME, FolderBusy, hold_folder
from ..engines.groups import sole
from ..engines.leftovers import guard_engines
from ..engines.process import EngineStartFailed
from .schedule import pairings
from .run import Launcher, TournamentError, expand, process_launcher

#: (game, size, variant words, komi) an engine must accept
Need = tuple[str, int, str, int | None]
#: How much of a failed engine's stderr a problem quotes.
TAIL_LINES, TAIL_BYTES = 3, 400


def needs(config: TournamentConfig, name: str) -> list[Need]:
    """What the schedule asks of engine `name`, in config order."""
    out: list[Need] = []
    for spec in config.games:
        if not any(name in pair for pair in pairings(config, spec)):
            continue
        out += [(spec.game, size, variant, spec.komi) for size in spec.sizes for variant in spec.variants]
    return out


async def preflight(config: TournamentConfig, out: Path, launcher: Launcher = process_launcher,
                    only: frozenset[str] | None = None) -> list[str]:
    """The problems found (empty when every engine answers and accepts every scheduled game).

    `only`: the names of the engines to check (None: all; `hexarena play` checks its engine, not
    the person). Engines are stopped before returning; see the module doc for the logs and the folder.
    """
    out = Path(out)
    found = out.exists(), (out / LOCK_NAME).exists()
    logs = Path(tempfile.mkdtemp(prefix="hexarena-preflight-"))
    problems: list[str] = []
    if launcher is process_launcher:
        launcher = partial(process_launcher, log_cap=config.log_cap)
    try:
        with hold_folder(out), guard_engines(out):
            await _check_all(config, logs, launcher, problems, only)
        if problems:
            _leave_as_found(out, *found)
        else:
            (out / "logs").mkdir(exist_ok=True)
            for log in logs.iterdir():
                shutil.move(log, out / "logs" / log.name)
    except FolderBusy as exc:
        raise TournamentError(str(exc)) from None
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    return problems


def _leave_as_found(out: Path, existed: bool, locked: bool) -> None:
    """Remove what the check made in `out`: the lock file, the folder itself when it was made (and is empty)."""
    if not locked:
        (out / LOCK_NAME).unlink(missing_ok=True)
    if not existed:
        try:
            out.rmdir()
        except OSError:                      # not empty: something else wrote there meanwhile
            pass


def stderr_tail(log: Path) -> str:
    """The last lines an engine wrote to stderr (at most TAIL_LINES lines, TAIL_BYTES bytes), for a problem."""
    try:
        with open(log, "rb") as fh:
            fh.seek(max(0, fh.seek(0, 2) - TAIL_BYTES))
            text = fh.read().decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    if not text:
        return "no stderr"
    return "stderr: " + repr(" | ".join(text.splitlines()[-TAIL_LINES:]))


async def _check_all(config: TournamentConfig, logs: Path, launcher: Launcher, problems: list[str],
                     only: frozenset[str] | None = None) -> None:
    """Check every engine (of `only` when given), as many at once as there are cores (their
    start-ups overlap); their problems in config order."""
    limiter = trio.CapacityLimiter(cpu_count())
    found: list[list[str]] = [[] for _ in config.engines]

    async def check(engine: EngineSpec, mine: list[str]) -> None:
        async with limiter:
            await _check(engine, config, logs, launcher, mine)
    try:
        async with trio.open_nursery() as nursery:
            for engine, mine in zip(config.engines, found):
                if only is None or engine.name in only:
                    nursery.start_soon(check, engine, mine)
    except ExceptionGroup as group:        # one engine's unexpected error, as a sequential check raised it
        raise sole(group) from None
    problems += [p for mine in found for p in mine]


async def _check(engine: EngineSpec, config: TournamentConfig, logs: Path, launcher: Launcher,
                 problems: list[str]) -> None:
    """Ask one engine; append its problems (each naming the engine, its command and the end of its stderr)."""
    log = logs / f"preflight.{engine.name}.log"
    found: list[str] = []
    try:
        async with launcher(engine, config.seed, log) as channel:
            found = await _ask(channel, engine, config)
    except CommandFailed as exc:
        found = [f"{engine.name}: refused a command: {exc.message}"]
    except (EngineStartFailed, ControllerError) as exc:    # messages already name the engine
        found = [str(exc)]
    if found:
        where = f"(command: {shlex.join(expand(engine.cmd, config.seed))}; {stderr_tail(log)})"
        problems += [f"{p} {where}" for p in found]


def _added_hint(missing: list[str]) -> str:
    """For games that are not built in: an engine lists a game added by HEXARENA_GAMES only when
    its environment names it (on a cluster: each worker's)."""
    added = [g for g in missing if g not in registry.GAME_MODULES]
    if not added:
        return ""
    text = registry.setting_text()
    return (f" ({', '.join(added)}: not built in; an engine lists a game added by {registry.GAMES_SETTING} "
            f"only when its environment names it; here {registry.GAMES_SETTING} is "
            f"{repr(text) if text else 'not set'})")


async def _ask(channel, engine: EngineSpec, config: TournamentConfig) -> list[str]:
    limits = config.limits_of(engine.name)
    version = await channel.command("protocol_version", deadline=trio.current_time() + limits.start)
    if version.strip() != "2":
        return [f"{engine.name}: protocol_version answers {version!r}, expected 2"]

    async def ask(*words: str) -> str:
        return await channel.command(*words, deadline=trio.current_time() + limits.command)

    wanted = needs(config, engine.name)
    listed = (await ask("list_games")).split()
    missing = sorted({g for g, *_ in wanted if g not in listed})
    problems = [f"{engine.name}: does not list {', '.join(missing)} in list_games{_added_hint(missing)}"] if missing else []
    for game, size, variant, komi in wanted:
        if game in missing:
            continue
        info = registry.get(game)
        described = info.describe(info.variant(size, variant.split()))
        commands = [("game", *described.split()), ("boardsize", str(size))]
        if komi is not None:
            commands.append(("komi", str(komi)))
        for words in commands:
            try:
                await ask(*words)
            except CommandFailed as exc:
                problems.append(f"{engine.name}: refused `{' '.join(words)}` (for {game} size {size} "
                                f"{variant!r}): {exc.message}")
                break
    for line in engine.commands:
        try:
            await ask(*line.split(" "))
        except CommandFailed as exc:
            problems.append(f"{engine.name}: refused the setup command `{line}`: {exc.message}")
    return problems
