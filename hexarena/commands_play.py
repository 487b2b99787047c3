"""`hexarena play`: a person plays an engine in the browser (hexarena/web/play.py)."""
from __future__ import annotations

import random
import shutil
import sys
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import click

from hexarena.engine import registry
from hexarena.terminal import echo

DEFAULT_OUT = "hexarena-out"
#: The person's time per action when no clock is given: no practical limit.
PERSON_MOVE_TIME = 7 * 24 * 3600.0
#: Once the game is over and recorded, the server stops when a page has been sent the final state
#: (FLUSH seconds later), or GRACE seconds after the end when no page was.
GRACE, FLUSH = 5.0, 0.5


@click.command()
@click.option("--engine", "engine_cmd", required=True, metavar='"CMD"',
              help="The engine's command line (split like a shell, never run by one), or a built-in player's name; "
                   "NAME=CMD names the engine in the record and ratings (default: the player's or the program's "
                   "name).")
@click.option("--game", default=registry.DEFAULT_GAME, show_default=True, help="Game id.")
@click.option("--size", type=int, default=None, help="Board side (default: the game's default).")
@click.option("--variant", default="", help="Variant words, e.g. 'nopie flips=dense'.")
@click.option("--komi", type=int, default=None, help="Send `komi K` to both sides.")
@click.option("--colour", type=click.Choice(["black", "white", "random"]), default="black", show_default=True,
              help="The colour you start with (after a swap the players exchange colours).")
@click.option("--name", "person", default="person", show_default=True, help="Your name in the record and ratings.")
@click.option("--move-time", type=float, default=None,
              help="Seconds per action for both sides; with --main-time an extra cap (default: the engine "
                   "10 s, you no limit).")
@click.option("--main-time", type=float, default=None, help="Fischer clock: seconds per side per game.")
@click.option("--increment", type=float, default=0.0, show_default=True, help="Fischer increment per move.")
@click.option("--start-time", type=float, default=None, help="Seconds for the engine's first answer (default 30).")
@click.option("--command-time", type=float, default=None, help="Seconds for any other answer (default 10).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for `{seed}` in the engine's command.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help=f"Folder of the journal and SGF (default: ./{DEFAULT_OUT}/play); games add up in it.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one).")
def play(engine_cmd: str, game: str, size: int | None, variant: str, komi: int | None, colour: str, person: str,
         move_time: float | None, main_time: float | None, increment: float, start_time: float | None,
         command_time: float | None, seed: int, out: str | None, host: str, port: int) -> None:
    """Play an engine in the browser: click your actions, the engine answers (docs/browser.md, "Play").

    The engine is started once first (as `match` does): when it cannot start or does not play the
    game, the command ends at once with the reason (exit 1) and nothing is recorded; a mistyped
    built-in player's name is refused with a suggestion (exit 2).
    The first line printed is the address to open, with a fresh token. The game is recorded in
    --out like any other (journal.jsonl and games/*.sgf), so `hexarena ratings` rates you with
    the engines. Once the game is over the server prints where it is recorded and stops (exit 0),
    after the page has shown the result; Ctrl-C stops it before (exit 130).
    """
    from hexarena.flag_errors import flag_error
    from hexarena.players import problem
    from hexarena.referee.tournament import config as config_mod
    from hexarena.referee.tournament.config import ConfigError
    from hexarena.referee.tournament.folder_lock import LOCK_NAME, FolderBusy, hold_folder
    from hexarena.referee.tournament.schedule import schedule
    from hexarena.web.server import listening
    engine_name, spec = engine_table(engine_cmd)
    if engine_name == person:
        raise click.UsageError(f"the engine and you are both named {person!r}: give --name")
    if increment and main_time is None:
        raise click.UsageError("--increment needs --main-time (a Fischer clock)")
    time: dict[str, Any] = {"move": move_time} if move_time is not None else {}
    if main_time is not None:
        time.update(main=main_time, increment=increment)
    for key, value in (("start", start_time), ("command", command_time)):
        if value is not None:
            time[key] = value
    mine: dict[str, Any] = {"cmd": ["person"]}
    if not time.get("move") and main_time is None:
        mine["time"] = {"move": PERSON_MOVE_TIME}
    entry: dict[str, Any] = {"game": game, "variant": variant}
    if size is not None:
        entry["size"] = size
    if komi is not None:
        entry["komi"] = komi
    data = {"seed": seed, "games_per_pair": 2, "time": time, "games": [entry],
            "engines": {person: mine, engine_name: spec}}
    try:
        config = config_mod.from_dict(data, "hexarena play", players=problem)
    except ConfigError as exc:
        raise flag_error(exc) from None
    black = colour == "black" or (colour == "random" and random.random() < 0.5)
    scheduled = next(g for g in schedule(config) if (g.first == person) == black)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    folder = Path(out) if out is not None else Path(DEFAULT_OUT) / "play"
    try:
        listener = listening(host, port)            # before anything starts or is made
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    made = [p for p in (folder, *folder.parents) if not p.exists()]
    lock_found = (folder / LOCK_NAME).exists()
    try:
        with hold_folder(folder):                   # the whole session: one run per folder
            scheduled = replace(scheduled, id=free_id(folder, f"{scheduled.group}/play-{stamp}"), pair=None)
            engine_started_or_fail(config, folder, engine_name)
            _serve(config, scheduled, person, folder, host, listener)
    except FolderBusy as exc:
        raise click.ClickException(str(exc)) from None
    except click.ClickException:                    # the engine failed its check: the folder as found
        if not lock_found:
            (folder / LOCK_NAME).unlink(missing_ok=True)
        for path in made:
            try:
                path.rmdir()
            except OSError:
                break
        raise
    finally:
        listener.close()


def free_id(out: Path, game_id: str) -> str:
    """`game_id`, or the first of `game_id-2`, `game_id-3`, ... that no record of the journal and
    no SGF under games/ has (another `play` in the same second); read under the folder's lock."""
    from hexarena.results.record.journal import JOURNAL_NAME, JournalError, iter_journal
    taken: set[str] = set()
    if (out / JOURNAL_NAME).exists():
        unread: list[JournalError] = []             # a bad line is `ratings`' to report, not play's
        taken = {r.id for r in iter_journal(out / JOURNAL_NAME, unread, summary=True)}
    candidate, n = game_id, 1
    while candidate in taken or (out / "games" / f"{candidate}.sgf").exists():
        n += 1
        candidate = f"{game_id}-{n}"
    return candidate


def engine_table(cmd: str) -> tuple[str, dict[str, Any]]:
    """The engine's name and its config table: a built-in player's name, or a command line, each
    named by a `NAME=` prefix (as `match` names its engines), else after the player or the program."""
    from hexarena.engine.suggest import did_you_mean
    from hexarena.players import BOTS, names, problem
    from hexarena.flag_errors import named_command, player_named, split_command
    given, cmd = named_command(cmd)
    words = split_command(cmd, "--engine")
    if not words:
        raise click.UsageError("--engine is empty")
    if (player := player_named(words)) is not None:
        return given or player.replace(":", "-"), {"player": player}
    if len(words) == 1 and "/" not in words[0] and shutil.which(words[0]) is None:
        why = problem(words[0]) if ":" in words[0] else (f"neither a built-in player{did_you_mean(words[0], BOTS)} "
                                                         f"nor a program on PATH; players: {names()}")
        raise click.UsageError(f"--engine {words[0]!r}: {why}")
    name = Path(words[0]).name
    if "-m" in words[:-1]:
        name = words[words.index("-m") + 1]
    name = "".join(c if c.isascii() and (c.isalnum() or c in "_.+-") else "-" for c in name).strip("-")[:40]
    return given or name or "engine", {"cmd": words}


def engine_started_or_fail(config: Any, out: Path, engine: str) -> None:
    """Start the engine once, as `match` does before its games (referee/tournament/preflight.py):
    a ClickException (exit 1) with the reason when it cannot start or does not play the game,
    before anything is served or journaled."""
    import trio

    from hexarena.referee.tournament.preflight import preflight
    from hexarena.referee.tournament.run import TournamentError
    try:
        problems = trio.run(preflight, config, out, process_launcher_for(config), frozenset([engine]))
    except TournamentError as exc:
        raise click.ClickException(str(exc)) from None
    if problems:
        raise click.ClickException("not started: the engine failed its start-up check:\n  " + "\n  ".join(problems))


def process_launcher_for(config: Any) -> Any:
    """The launcher the game uses, for the start-up check (logs capped as the config says)."""
    from functools import partial

    from hexarena.referee.tournament.run import process_launcher
    return partial(process_launcher, log_cap=config.log_cap)


def _serve(config: Any, scheduled: Any, person: str, out: Path, host: str, listener: Any) -> None:
    import trio

    from hexarena.web.app import build_app
    from hexarena.web.play import play_routes
    from hexarena.web.play_game import PlayGame, PlaySetup
    from hexarena.web.server import run

    game = PlayGame(PlaySetup(config, scheduled, person, out))

    async def task() -> None:
        await game.run()
        record = game.record
        if record is not None:
            where = out / record.sgf if record.sgf else out / "journal.jsonl"
            echo(f"{record.id}: {record.result} ({record.termination.value}); recorded in {where}")
            sys.stdout.flush()

    async def until_over() -> None:
        await game.until_shown(GRACE)
        await trio.sleep(FLUSH)             # the final state's event on its way to the page

    def say(line: str) -> None:
        echo(line)
        sys.stdout.flush()

    run(lambda token: build_app(play_routes(game), token, host=host, tasks=[task]), host, 0,
        say=say, warn=lambda s: echo(f"warning: {s}", err=True), until=until_over, sock=listener)
