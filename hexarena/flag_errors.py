"""Config errors of the commands that build their config from flags (`match`, `play`), told
in the flags' words: `--size: expected an integer in 2..13, got 20`, not the config key the
flag became (`games[0].sizes`); and an engine's command line split as a shell would, its
error told in the same words, its name given by a `NAME=` prefix."""
from __future__ import annotations

import re
import shlex

import click

from hexarena.referee.tournament.config_check import ConfigError

#: The config key each flag of `match` and `play` fills in.
FLAGS: dict[str, str] = {
    "games[0].game": "--game",
    "games[0].size": "--size",
    "games[0].sizes": "--size",
    "games[0].variant": "--variant",
    "games[0].variants": "--variant",
    "games[0].komi": "--komi",
    "games_per_pair": "--games",
    "seed": "--seed",
    "time": "the time flags",
    "time.move": "--move-time",
    "time.main": "--main-time",
    "time.increment": "--increment",
    "time.start": "--start-time",
    "time.command": "--command-time",
    "adjudication": "--adjudicate",
    "sprt": "--sprt",
}

_ENGINE = re.compile(r"engines\.([^.]+)(?:\.(.+))?\Z")


def flag_error(exc: ConfigError, flags: dict[str, str] = FLAGS) -> click.UsageError:
    """The UsageError for a ConfigError raised on a config made from flags: the message after the
    flag (or the engine) it came from; an unmapped key keeps its name."""
    key = exc.key
    where = flags.get(key)
    if where is None and (m := _ENGINE.match(key)):
        where = f"engine {m.group(1)}" + (f" ({m.group(2)})" if m.group(2) and m.group(2) != "cmd" else "")
    if where is None:
        where = next((f"{flag} {key[len(k) + 1:]}" for k, flag in flags.items()
                      if key.startswith(k + ".")), key)
    return click.UsageError(f"{where}: {exc.message}" if where else exc.message)


def split_command(text: str, where: str) -> list[str]:
    """`text` split into words as a shell splits them (quotes, backslashes; never run by one); a
    UsageError naming `where` (the option or argument) for text a shell could not split."""
    try:
        return shlex.split(text)
    except ValueError as exc:           # "No closing quotation", "No escaped character"
        raise click.UsageError(f"{where} {text!r}: {str(exc)[:1].lower()}{str(exc)[1:]} "
                               "(the command is split as a shell splits it)") from None


def named_command(text: str) -> tuple[str | None, str]:
    """An engine's command as `match`, `play`, `serve` and `analyse` take it: `NAME=CMD` ->
    (NAME, CMD), NAME an engine name of a config; a command without such a prefix -> (None, text)."""
    from hexarena.referee.tournament.config import NAME
    name, sep, rest = text.partition("=")
    if sep and NAME.match(name) and rest.strip():
        return name, rest
    return None, text


def player_named(words: list[str]) -> str | None:
    """The built-in player an engine's command names when it is that name alone (`random`,
    `mcts:200`; a built-in name wins over a program of that name on PATH); None otherwise (a
    command line to run)."""
    from hexarena.players import problem
    return words[0] if len(words) == 1 and problem(words[0]) is None else None
