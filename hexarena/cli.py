"""The `hexarena` command: the composition root.

The only module that may import every package (it serves built-in players
and runs the referee) and the only place that calls ``trio.run``.
"""
from __future__ import annotations

import os
import shlex
import signal
import sys
import tempfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import click
import trio

from hexarena.engine.registry import GAME_MODULES
from hexarena.results.cli import ratings, repair
from hexarena.results.records import GameRecord
from hexarena.results.report import summary_table

from hexarena.referee import config as config_mod
from hexarena.referee.check import Verdict, check_engine
from hexarena.referee.config import ConfigError, TournamentConfig
from hexarena.referee.groups import contains, sole
from hexarena.referee.preflight import preflight
from hexarena.referee.tournament import TournamentError, load_saved
from hexarena.referee.tournament import run as run_tournament

DEFAULT_OUT = "hexarena-out"


@click.group()
@click.version_option(package_name="hexarena")
def main() -> None:
    """hexarena: referee and tournaments for abstract games on hexagonal boards."""


main.add_command(ratings)
main.add_command(repair)


@main.command()
@click.argument("name")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of the bot.")
@click.option("--log", type=click.Path(dir_okay=False), default=None, help="Append a transcript to FILE.")
def engine(name: str, seed: int, log: str | None) -> None:
    """Serve the built-in player NAME over HGP on stdin/stdout."""
    from hexarena.players.serve import serve
    try:
        code = serve(name, seed, log, stdin=sys.stdin, stdout=sys.stdout)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from None
    sys.exit(code)


@main.command()
@click.argument("cmd_a")
@click.argument("cmd_b")
@click.option("--game", default="spelde", show_default=True, help="Game id.")
@click.option("--size", type=int, default=None, help="Board side (default: the game's default).")
@click.option("--variant", default="", help="Variant words, e.g. 'nopie flips=dense'.")
@click.option("--komi", type=int, default=None, help="Send `komi K` to both engines.")
@click.option("--games", "games", type=int, default=2, show_default=True,
              help="Games to play; seats alternate.")
@click.option("--move-time", type=float, default=10.0, show_default=True, help="Seconds per genmove.")
@click.option("--main-time", type=float, default=None, help="Fischer clock: seconds per engine per game.")
@click.option("--increment", type=float, default=0.0, show_default=True, help="Fischer increment per move.")
@click.option("--start-time", type=float, default=None,
              help="Seconds for an engine's first answer (as [time] start; default 30).")
@click.option("--command-time", type=float, default=None,
              help="Seconds for any other answer (as [time] command; default 10).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for `{seed}` in commands.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help=f"Output folder (default: ./{DEFAULT_OUT}/<timestamp>).")
@click.option("-j", "--concurrency", type=click.IntRange(1), default=1, show_default=True)
@click.option("--no-preflight", is_flag=True, help="Do not start each engine once before the games.")
@click.option("-q", "--quiet", is_flag=True, help="No line per game.")
def match(cmd_a: str, cmd_b: str, game: str, size: int | None, variant: str, komi: int | None, games: int,
          move_time: float, main_time: float | None, increment: float, start_time: float | None,
          command_time: float | None, seed: int, out: str | None,
          concurrency: int, no_preflight: bool, quiet: bool) -> None:
    """Play GAMES games between two engine command lines (split like a shell, never run by one).

    Example: hexarena match "python -m hexarena.players random" "python -m hexarena.players greedy" --size 5
    """
    argv = [shlex.split(cmd_a), shlex.split(cmd_b)]
    names = _names(argv)
    entry: dict = {"game": game, "variant": variant}
    if size is not None:
        entry["size"] = size
    if komi is not None:
        entry["komi"] = komi
    time = {"move": move_time, "increment": increment}
    for key, value in (("main", main_time), ("start", start_time), ("command", command_time)):
        if value is not None:
            time[key] = value
    data = {"seed": seed, "games_per_pair": games, "time": time, "games": [entry],
            "engines": {n: {"cmd": a} for n, a in zip(names, argv)}}
    try:
        config = config_mod.from_dict(data, "hexarena match")
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    _run(config, _out_dir(out), concurrency, resume=False, quiet=quiet, check_engines=not no_preflight)


@main.command()
@click.argument("config_file", metavar="[CONFIG.toml]", required=False,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help=f"Output folder (default: ./{DEFAULT_OUT}/<timestamp>; required with --resume).")
@click.option("--games-per-pair", type=click.IntRange(1), default=None, help="Override the config.")
@click.option("-j", "--concurrency", type=click.IntRange(1), default=None,
              help="Games at a time (default: the number of CPUs).")
@click.option("--resume", is_flag=True, help="Continue the tournament in --out (void games are replayed).")
@click.option("--no-preflight", is_flag=True, help="Do not start each engine once before the games.")
@click.option("-q", "--quiet", is_flag=True, help="No line per game.")
def tournament(config_file: str | None, out: str | None, games_per_pair: int | None, concurrency: int | None,
               resume: bool, no_preflight: bool, quiet: bool) -> None:
    """Run a tournament from CONFIG.toml (docs/tournament.md) and print the ratings.

    With no CONFIG: random against greedy on every playable game at a small size.
    With --resume and no CONFIG: the config saved in --out.
    """
    if resume and out is None:
        raise click.UsageError("--resume needs --out, the folder of the tournament to continue")
    try:
        if resume:
            load_saved(out)             # TournamentError naming the folder when it holds no tournament
        if config_file is not None:
            config = config_mod.load(config_file)
        elif resume:
            config = load_saved(out)
        else:
            config = config_mod.default_config()
    except (ConfigError, TournamentError) as exc:
        raise click.ClickException(str(exc)) from None
    if games_per_pair is not None:
        config = replace(config, games_per_pair=games_per_pair)
    _run(config, _out_dir(out), concurrency or os.cpu_count() or 1, resume=resume, quiet=quiet,
         check_engines=not no_preflight)


def _run(config: TournamentConfig, out: Path, concurrency: int, resume: bool, quiet: bool,
         check_engines: bool = True) -> None:
    def progress(record: GameRecord) -> None:
        if not quiet:
            who = f"{record.first} vs {record.second}"
            click.echo(f"{record.id:<28} {who:<30} {record.result:<6} {record.termination} "
                       f"({record.plies} plies) {record.reason if record.faulty or record.void else ''}")

    def warn(message: str) -> None:
        click.echo(f"warning: {message}", err=True)

    stop = trio.Event()         # Ctrl-C once: no new game starts, the games in flight finish
    signalled = False

    async def supervised() -> list[GameRecord]:
        """The run under Ctrl-C (once: finish the games in flight; twice: abandon them), SIGTERM and
        SIGHUP (abandon them, engines stopped); KeyboardInterrupt after any of them."""
        records: list[GameRecord] = []
        running = False
        async with trio.open_nursery() as nursery:
            async def on_signal(task_status=trio.TASK_STATUS_IGNORED) -> None:
                nonlocal signalled
                with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM, signal.SIGHUP) as signals:
                    task_status.started()
                    async for sig in signals:
                        signalled = True
                        if sig == signal.SIGINT and running and not stop.is_set():
                            stop.set()
                            click.echo("\nstopping: no new game starts, the games in flight finish "
                                       "(Ctrl-C again abandons them)", err=True)
                        else:
                            nursery.cancel_scope.cancel()
            await nursery.start(on_signal)
            if check_engines:
                problems = await preflight(config, out)
                if problems:
                    raise TournamentError("not started: an engine failed the pre-flight check "
                                          "(--no-preflight skips it):\n  " + "\n  ".join(problems))
            running = True
            records = await run_tournament(config, out, concurrency=concurrency, resume=resume,
                                           on_record=progress, warn=warn, stop=stop)
            nursery.cancel_scope.cancel()
        if signalled:
            raise KeyboardInterrupt
        return records

    click.echo(f"output: {out}", err=True)
    try:
        records = trio.run(supervised)
    except BaseException as exc:        # trio >= 0.25 wraps errors and Ctrl-C in exception groups
        if isinstance(sole(exc), TournamentError):
            raise click.ClickException(str(sole(exc))) from None
        if not contains(exc, KeyboardInterrupt):
            raise
        click.echo(f"\ninterrupted; finished games are in {out}/journal.jsonl; continue with:\n"
                   f"  hexarena tournament --resume --out {shlex.quote(str(out))}", err=True)
        sys.exit(130)
    void = sum(r.void for r in records)
    click.echo(f"\n{len(records) - void} games, {void} void; journal, SGF and logs in {out}")
    click.echo(summary_table(records))


def _out_dir(out: str | None) -> Path:
    if out is not None:
        return Path(out)
    return Path(DEFAULT_OUT) / datetime.now().strftime("%Y%m%d-%H%M%S")


def _names(argv: list[list[str]]) -> list[str]:
    """Engine names from command lines: the player of `-m hexarena.players NAME`, else the program's name."""
    names = []
    for words in argv:
        if not words:
            raise click.UsageError("an engine command is empty")
        name = Path(words[0]).name
        if "-m" in words[:-1]:
            i = words.index("-m")
            name = words[i + 1]
            if name in ("players", "hexarena.players") and i + 2 < len(words):
                name = words[i + 2]
        elif words[1:2] == ["engine"] and len(words) > 2:       # hexarena engine NAME
            name = words[2]
        names.append("".join(c if c.isalnum() or c in "_.+-" else "-" for c in name).strip("-") or "engine")
    if names[0] == names[1]:
        names = [f"{names[0]}-a", f"{names[1]}-b"]
    return names


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("cmd", nargs=-1, required=True, metavar="-- CMD [ARGS]...")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds allowed for each answer.")
@click.option("--size", "sizes", type=click.IntRange(2, 13), multiple=True,
              help="Board side to check (repeatable; default: 2, the game's recommended sizes, 13).")
@click.option("--game", "games", multiple=True, help="Check only this game (repeatable; default: every listed).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the actions played.")
@click.option("--log", type=click.Path(dir_okay=False), default=None, help="Append the engine's stderr to FILE.")
@click.option("-q", "--quiet", is_flag=True, help="Print only failed and skipped checks and the summary.")
def check(cmd: tuple[str, ...], timeout: float, sizes: tuple[int, ...], games: tuple[str, ...], seed: int,
          log: str | None, quiet: bool) -> None:
    """Run the HGP compliance sequence against an engine; exit status 0 only if every check passes.

    Example: hexarena check -- python examples/random_engine.py
    """
    argv = shlex.split(cmd[0]) if len(cmd) == 1 else list(cmd)
    for gid in games:
        if gid not in GAME_MODULES:
            raise click.BadParameter(f"no game {gid!r}; games: {', '.join(GAME_MODULES)}", param_hint="--game")
    verdicts: list[Verdict] = []

    def emit(v: Verdict) -> None:
        verdicts.append(v)
        if not quiet or v.status != "PASS":
            click.echo(v.line())

    with tempfile.TemporaryDirectory() as tmp:
        log_path = log or os.path.join(tmp, "engine.log")
        trio.run(lambda: check_engine(argv, emit, log_path, timeout, sizes, games, seed))
    counts = {s: sum(v.status == s for v in verdicts) for s in ("PASS", "FAIL", "SKIP")}
    click.echo(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
    sys.exit(0 if counts["FAIL"] == 0 and counts["SKIP"] == 0 and verdicts else 1)


@main.command()
@click.argument("sgf_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--ply", type=click.IntRange(0), default=None, help="Show the position after PLY actions (default: the end).")
@click.option("--all", "every", is_flag=True, help="Show every position of the game, one after another.")
def render(sgf_file: str, ply: int | None, every: bool) -> None:
    """Replay a game record through the rules and draw its board.

    The record is checked as it is replayed: an action the rules refuse is
    reported with its ply and the file is left untouched.
    """
    from hexarena.protocol.diagram import diagram

    from hexarena.referee.render import replay
    from hexarena.referee.sgf_read import SgfError
    try:
        text = Path(sgf_file).read_text(encoding="utf-8")
        game = replay(text)
    except (SgfError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{sgf_file}: {exc}") from None
    head = game.header
    click.echo(f"{head.get('GN', sgf_file)}: {head.get('PB', '?')} (black) vs {head.get('PW', '?')} (white), "
               f"result {head.get('RE', '?')}" + (f" ({head.get('XR')})" if head.get("XR") else ""))
    last = len(game.states) - 1
    if ply is not None and ply > last:
        raise click.BadParameter(f"the game has {last} actions", param_hint="--ply")
    chosen = range(last + 1) if every else [last if ply is None else ply]
    for i in chosen:
        if i:
            click.echo(f"after {i}. {game.tokens[i - 1]}")
        click.echo(diagram(game.states[i]))
