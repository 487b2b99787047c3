"""`hexarena match`: two engine command lines, played as a tournament of one pairing.

`match` builds a tournament config from its arguments (each option that sets a config key
names it in its help, `[config: KEY]`) and runs it with the flags of a run exactly as
`tournament` does (hexarena/commands_run.py): the config it ran is saved in the output
folder (tournament.json), so `hexarena tournament --out OUT --resume` continues a match, and
with `--games-per-pair` grows it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from hexarena.commands_run import run_config, run_options
from hexarena.commands_sprt import parse_sprt_words
from hexarena.engine import registry


@click.command()
@click.argument("cmd_a")
@click.argument("cmd_b")
@click.option("--game", default=registry.DEFAULT_GAME, show_default=True, help="Game id [config: games[0].game].")
@click.option("--size", type=int, default=None,
              help="Board side (default: the game's default) [config: games[0].size].")
@click.option("--variant", default="",
              help="Variant words, e.g. 'nopie flips=dense' [config: games[0].variant].")
@click.option("--komi", type=int, default=None, help="Send `komi K` to both engines [config: games[0].komi].")
@click.option("--games", "games", type=int, default=2, show_default=True,
              help="Games to play; seats alternate [config: games_per_pair].")
@click.option("--move-time", type=float, default=None,
              help="Seconds per genmove (default 10); with --main-time an extra cap (default none) "
                   "[config: time.move].")
@click.option("--main-time", type=float, default=None,
              help="Fischer clock: seconds per engine per game [config: time.main].")
@click.option("--increment", type=float, default=0.0, show_default=True,
              help="Fischer increment per move [config: time.increment].")
@click.option("--start-time", type=float, default=None,
              help="Seconds for an engine's first answer (default 30) [config: time.start].")
@click.option("--command-time", type=float, default=None,
              help="Seconds for any other answer (default 10) [config: time.command].")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed for `{seed}` in commands and the games' seeds [config: seed].")
@click.option("--name", "given_names", multiple=True, metavar="NAME",
              help="Engine name in tables and records (twice: first engine, second engine) "
                   "[config: the engines' table names, engines.NAME].")
@click.option("--restart", type=click.Choice(["game", "fault"]), default="game", show_default=True,
              help="Start each engine per game, or keep it across games until a fault (docs/tournament.md) "
                   "[config: engines.NAME.restart].")
@click.option("--command", "setup_commands", multiple=True, metavar='NAME="CMD ..."',
              help="A setup command for engine NAME, sent once to each of its processes after the handshake "
                   "and answered `=` (repeatable, sent in order) [config: engines.NAME.commands].")
@click.option("--sprt", "sprt_words", multiple=True, metavar='"elo0=0 elo1=10 ..."',
              help="Stop at an SPRT decision for CMD_A against CMD_B (docs/sprt.md); --games is then the maximum "
                   "(default 1000) [config: sprt].")
@click.option("--adjudicate", "adjudicate_words", default=None, metavar='"KEY=VALUE ..."',
              help="Adjudicate on the engines' winrates with the keys of a config's [adjudication] table, the "
                   "others at their defaults (docs/tournament.md, \"Adjudication\"), e.g. "
                   "\"resign_moves=6 two_sided=false\"; \"\" for the defaults [config: adjudication].")
@run_options("1")
def match(cmd_a: str, cmd_b: str, game: str, size: int | None, variant: str, komi: int | None, games: int,
          move_time: float | None, main_time: float | None, increment: float, start_time: float | None,
          command_time: float | None, seed: int, given_names: tuple[str, ...], restart: str,
          setup_commands: tuple[str, ...], sprt_words: tuple[str, ...], adjudicate_words: str | None,
          **flags: Any) -> None:
    """Play GAMES games between two engine command lines (split like a shell, never run by one),
    or built-in players by name (`random`, `mcts:200`).
    A command may be written NAME=CMD to name its engine (or use --name twice).

    The match is a tournament of one pairing: its config is saved in the output folder, and
    `hexarena tournament --out OUT --resume [--games-per-pair N]` continues or grows it.

    Example: hexarena match "python -m hexarena.players random" "python -m hexarena.players greedy" --size 5
    """
    from hexarena.referee.tournament import config as config_mod
    from hexarena.flag_errors import flag_error, named_command, player_named, split_command
    from hexarena.players import problem
    from hexarena.referee.tournament.config import ConfigError
    named = [named_command(c) for c in (cmd_a, cmd_b)]
    argv = [split_command(c, where) for (_, c), where in zip(named, ("CMD_A", "CMD_B"))]
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
            "engines": {n: {**({"player": p} if (p := player_named(a)) else {"cmd": a}), "restart": restart}
                        for n, a in zip(names, argv)}}
    for name, line in _setup_commands(setup_commands, names):
        data["engines"][name].setdefault("commands", []).append(line)
    if sprt_words:
        data["sprt"] = parse_sprt_words(sprt_words)
        if click.get_current_context().get_parameter_source("games") is click.core.ParameterSource.DEFAULT:
            data["games_per_pair"] = data["sprt"].get("max_games", 1000)
    if adjudicate_words is not None:
        data["adjudication"] = _table_words(adjudicate_words, "--adjudicate")
    try:
        config = config_mod.from_dict(data, "hexarena match", players=problem)
    except ConfigError as exc:
        raise flag_error(exc) from None
    if flags["resume"] and flags["out"] is None:
        raise click.UsageError("--resume needs --out, the folder of the match to continue")
    run_config(config, concurrency_default=1, **flags)


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
