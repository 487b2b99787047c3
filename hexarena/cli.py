"""The `hexarena` command: the composition root.

With the other modules of the package root (commands_*.py, supervise.py,
cluster*.py) the only code that may import every package (it serves built-in
players and runs the referee) and call ``trio.run``.
"""
from __future__ import annotations

import shlex
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from hexarena import commands_play, commands_serve, commands_view, supervise
from hexarena.commands_check import check
from hexarena.commands_sprt import parse_sprt_words, sprt
from hexarena.commands_status import status
from hexarena.commands_ratings import ratings, repair
from hexarena.terminal import SafeGroup
from hexarena.ladder import commands as ladder_commands

# The referee, trio and pandas are imported inside the commands that use them, so that
# `hexarena engine NAME` starts as fast as `python -m hexarena.players NAME`.

DEFAULT_OUT = "hexarena-out"


@click.group(cls=SafeGroup)
@click.version_option(package_name="hexarena")
def main() -> None:
    """hexarena: referee and tournaments for abstract games on hexagonal boards."""


main.add_command(ratings)
for _command in (commands_view.show, commands_view.render, commands_view.report, status, sprt, repair, check,
                 commands_serve.serve):
    main.add_command(_command)
main.add_command(commands_play.play)
main.add_command(ladder_commands.ladder)     # hexarena/ladder: the rating server and its bridge
main.add_command(ladder_commands.connect)


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
@click.option("--move-time", type=float, default=None,
              help="Seconds per genmove (default 10); with --main-time an extra cap (default none).")
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
@click.option("--workers", type=click.IntRange(0), default=None, metavar="P",
              help="Worker processes the games are spread over; 0 plays them in this process "
                   "(default: 0 with -j 1, else one per game at once, at most one per CPU; docs/tournament.md).")
@click.option("--no-preflight", is_flag=True, help="Do not start each engine once before the games.")
@click.option("-q", "--quiet", is_flag=True, help="Only the final tables.")
@click.option("--name", "given_names", multiple=True, metavar="NAME",
              help="Engine name in tables and records (twice: first engine, second engine).")
@click.option("--log-protocol", is_flag=True, help="Write every HGP line to logs/GROUP/NNNN.SEAT-NAME.hgp.")
@click.option("--restart", type=click.Choice(["game", "fault"]), default="game", show_default=True,
              help="Start each engine per game, or keep it across games until a fault (docs/tournament.md).")
@click.option("--command", "setup_commands", multiple=True, metavar='NAME="CMD ..."',
              help="A setup command for engine NAME, sent once to each of its processes after the handshake "
                   "and answered `=` (as [engines.NAME] commands; repeatable, sent in order).")
@click.option("--sprt", "sprt_words", multiple=True, metavar='"elo0=0 elo1=10 ..."',
              help="Stop at an SPRT decision for CMD_A against CMD_B (docs/sprt.md); --games is then the maximum "
                   "(default 1000).")
@click.option("--adjudicate", "adjudicate_words", default=None, metavar='"KEY=VALUE ..."',
              help="Adjudicate on the engines' winrates with the keys of a config's [adjudication] table, the "
                   "others at their defaults (docs/tournament.md, \"Adjudication\"), e.g. "
                   "\"resign_moves=6 two_sided=false\"; \"\" for the defaults.")
def match(cmd_a: str, cmd_b: str, game: str, size: int | None, variant: str, komi: int | None, games: int,
          move_time: float | None, main_time: float | None, increment: float, start_time: float | None,
          command_time: float | None, seed: int, out: str | None,
          concurrency: int, workers: int | None, no_preflight: bool, quiet: bool, given_names: tuple[str, ...],
          log_protocol: bool, restart: str, setup_commands: tuple[str, ...], sprt_words: tuple[str, ...],
          adjudicate_words: str | None) -> None:
    """Play GAMES games between two engine command lines (split like a shell, never run by one).
    A command may be written NAME=CMD to name its engine (or use --name twice).

    Example: hexarena match "python -m hexarena.players random" "python -m hexarena.players greedy" --size 5
    """
    from hexarena.referee.tournament import config as config_mod
    from hexarena.referee.tournament.config import ConfigError
    named = [_split_name(c) for c in (cmd_a, cmd_b)]
    argv = [shlex.split(c) for _, c in named]
    names = _names(argv)
    if given_names and len(given_names) != 2:
        raise click.UsageError("give --name twice (first engine, second engine), or NAME=CMD arguments")
    names = list(given_names) if given_names else [n or auto for (n, _), auto in zip(named, names)]
    if names[0] == names[1]:
        raise click.UsageError(f"both engines are named {names[0]!r}")
    entry: dict = {"game": game, "variant": variant}
    if size is not None:
        entry["size"] = size
    if komi is not None:
        entry["komi"] = komi
    if increment and main_time is None:
        raise click.UsageError("--increment needs --main-time (a Fischer clock)")
    time = {"move": move_time} if move_time is not None else {}
    if main_time is not None:
        time.update(main=main_time, increment=increment)
    for key, value in (("start", start_time), ("command", command_time)):
        if value is not None:
            time[key] = value
    data: dict[str, Any] = {"seed": seed, "games_per_pair": games, "time": time, "games": [entry],
            "engines": {n: {"cmd": a, "restart": restart} for n, a in zip(names, argv)}}
    for name, line in _setup_commands(setup_commands, names):
        data["engines"][name].setdefault("commands", []).append(line)
    if sprt_words:
        data["sprt"] = parse_sprt_words(sprt_words)
        if click.get_current_context().get_parameter_source("games") is click.core.ParameterSource.DEFAULT:
            data["games_per_pair"] = data["sprt"].get("max_games", 1000)
    if adjudicate_words is not None:
        data["adjudication"] = _table_words(adjudicate_words, "--adjudicate")
    try:
        config = config_mod.from_dict(data, "hexarena match")
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    supervise.run(config, _out_dir(out), concurrency, resume=False, quiet=quiet, check_engines=not no_preflight,
         log_protocol=log_protocol, workers=workers)


def _setup_commands(given: tuple[str, ...], names: list[str]) -> list[tuple[str, str]]:
    """`--command NAME="CMD ..."` values as (engine name, command line); UsageError naming a value
    that is not NAME=LINE with NAME one of the match's engines."""
    out = []
    for text in given:
        name, sep, line = text.partition("=")
        if not sep or name not in names:
            raise click.UsageError(f"--command {text!r}: expected NAME=\"CMD ...\" with NAME one of the "
                                   f"engines, {names[0]} or {names[1]}")
        out.append((name, line))
    return out


def _table_words(text: str, option: str) -> dict[str, Any]:
    """`KEY=VALUE ...` as a config table: true/false as booleans, integers and decimals as numbers, any
    other value as text (the config's reader judges them all); UsageError for a word without `=`."""
    table: dict[str, Any] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise click.UsageError(f"{option}: {word!r} is not KEY=VALUE (e.g. resign_moves=4)")
        table[key] = _word_value(value)
    return table


def _word_value(value: str) -> Any:
    """A word's value as the config would hold it: true/false, a whole number, a decimal (read
    by engine.numbers: ASCII, bounded), else the text itself."""
    from hexarena.engine.errors import RulesError
    from hexarena.engine.numbers import integer, signed_decimal
    if value in ("true", "false"):
        return value == "true"
    for read in (integer, signed_decimal):
        try:
            return read(value, "value")
        except RulesError:
            continue
    return value


def _split_name(text: str) -> tuple[str | None, str]:
    """`NAME=CMD` -> (NAME, CMD); a command without such a prefix -> (None, text)."""
    from hexarena.referee.tournament.config import NAME
    name, sep, rest = text.partition("=")
    if sep and NAME.match(name) and rest.strip():
        return name, rest
    return None, text


@main.command()
@click.argument("config_file", metavar="[CONFIG.toml]", required=False,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help=f"Output folder (default: ./{DEFAULT_OUT}/<timestamp>; required with --resume).")
@click.option("--games-per-pair", type=int, default=None,
              help="Override the config (under the config's own limits).")
@click.option("-j", "--concurrency", type=click.IntRange(1), default=None,
              help="Games at a time (default: the CPUs this process may use; with --cluster: what the workers take).")
@click.option("--workers", type=click.IntRange(0), default=None, metavar="P",
              help="Worker processes the games are spread over; 0 plays them in this process "
                   "(default: 0 with -j 1, else one per game at once, at most one per CPU; docs/tournament.md).")
@click.option("--resume", is_flag=True, help="Continue the tournament in --out (void games are replayed).")
@click.option("--no-preflight", is_flag=True, help="Do not start each engine once before the games.")
@click.option("-q", "--quiet", is_flag=True, help="Only the final tables.")
@click.option("--log-protocol", is_flag=True, help="Write every HGP line to logs/GROUP/NNNN.SEAT-NAME.hgp.")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Play each game as a Dask task: a scheduler address (tcp://HOST:8786) or local:N "
                   "(docs/cluster.md).")
@click.option("--affinity", "affinity", is_flag=False, flag_value="all", default=None, metavar="[CPUS]",
              help="Pin each slot's engines to CPUs of its own, CPUS (e.g. 0-3,6; default: every CPU the "
                   "referee may use) split evenly among the -j slots (default -j: one per CPU); as the "
                   "config's `affinity` (docs/tournament.md, \"Pinned cores\").")
@click.option("--serve", "serve_port", type=click.IntRange(0, 65535), is_flag=False, flag_value=0, default=None,
              metavar="[PORT]", help="Watch the run in the browser (as hexarena serve OUT; 0 or no PORT: a free "
                                     "port); the address is printed on stderr (docs/browser.md).")
def tournament(config_file: str | None, out: str | None, games_per_pair: int | None, concurrency: int | None,
               workers: int | None, resume: bool, no_preflight: bool, quiet: bool, log_protocol: bool,
               cluster: str | None, affinity: str | None, serve_port: int | None) -> None:
    """Run a tournament from CONFIG.toml (docs/tournament.md) and print the ratings.

    With no CONFIG: random against greedy on every playable game at a small size.
    With --resume and no CONFIG: the config saved in --out.
    """
    if resume and out is None:
        raise click.UsageError("--resume needs --out, the folder of the tournament to continue")
    from hexarena.referee.tournament import config as config_mod
    from hexarena.referee.tournament.config import ConfigError
    from hexarena.referee.tournament.run import TournamentError, load_saved
    try:
        if resume:
            assert out is not None      # checked above: --resume needs --out
            load_saved(out)             # TournamentError naming the folder when it holds no tournament
        if config_file is not None:
            config = config_mod.load(config_file)
        elif resume:
            assert out is not None
            config = load_saved(out)
        else:
            config = config_mod.default_config()
        if games_per_pair is not None:
            config = config_mod.with_games_per_pair(config, games_per_pair)
    except (ConfigError, TournamentError) as exc:
        raise click.ClickException(str(exc)) from None
    slots = _pinned_slots(affinity, config.affinity, concurrency, cluster)
    if slots is not None:
        concurrency = len(slots)
    elif cluster is None:
        from hexarena.referee.tournament.affinity import cpu_count
        concurrency = concurrency or cpu_count()
    elif workers:
        raise click.UsageError("--workers plays games on this machine; --cluster plays them on the cluster's")
    supervise.run(config, _out_dir(out), concurrency or 1_000_000, resume=resume, quiet=quiet,
         check_engines=not no_preflight, log_protocol=log_protocol, cluster=cluster, affinity=slots,
         serve=serve_port, workers=workers)


def _pinned_slots(option: str | None, configured: bool | tuple[int, ...], concurrency: int | None,
                  cluster: str | None) -> tuple[tuple[int, ...], ...] | None:
    """The CPUs of each slot under `--affinity` (over the config's `affinity`), None without;
    UsageError, before anything runs, for a bad CPU list or a -j the CPUs do not allow."""
    from hexarena.referee.tournament.affinity import AffinityError, plan, read_option
    where = "--affinity" if option is not None else "affinity (in the config)"
    try:
        wanted = read_option(option) if option is not None else configured
        if not wanted:
            return None
        if cluster is not None:
            raise AffinityError("pins the engines of this machine's slots; with --cluster the games run "
                                "on the cluster's workers")
        return plan(wanted, concurrency)
    except AffinityError as exc:
        raise click.UsageError(f"{where}: {exc}") from None


def _out_dir(out: str | None) -> Path:
    if out is not None:
        return Path(out)
    return Path(DEFAULT_OUT) / datetime.now().strftime("%Y%m%d-%H%M%S")


def _names(argv: list[list[str]]) -> list[str]:
    """Engine names from command lines: the player of `-m hexarena.players NAME`, else the program's name
    (cut to the longest engine name)."""
    from hexarena.referee.tournament.config_edges import MAX_NAME
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
        name = "".join(c if c.isascii() and (c.isalnum() or c in "_.+-") else "-" for c in name)
        names.append(name.strip("-")[:MAX_NAME].strip("-") or "engine")
    if names[0] == names[1]:
        names = [f"{names[0]}-a", f"{names[1]}-b"]
    return names
