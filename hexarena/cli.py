"""The `hexarena` command: the composition root.

With the other modules of the package root (commands_*.py, supervise.py,
cluster*.py) the only code that may import every package (it serves built-in
players and runs the referee) and call ``trio.run``.
"""
from __future__ import annotations

import sys

import click

from hexarena import commands_analyse, commands_play, commands_serve, commands_view
from hexarena.commands_check import check
from hexarena.commands_match import match
from hexarena.commands_openings import openings
from hexarena.commands_run import tournament
from hexarena.commands_sprt import sprt
from hexarena.commands_status import status
from hexarena.commands_ratings import ratings, repair
from hexarena.terminal import SafeGroup
from hexarena.ladder import commands as ladder_commands

# The referee, trio and pandas are imported inside the commands that use them, so that
# `hexarena engine NAME` starts as fast as `python -m hexarena.players NAME`.


@click.group(cls=SafeGroup)
@click.version_option(package_name="hexarena")
def main() -> None:
    """hexarena: referee and tournaments for abstract games on hexagonal boards."""
    from hexarena.engine import registry
    from hexarena.engine.errors import UnknownGame
    try:
        registry.added()            # a bad HEXARENA_GAMES is said once, before any command runs
    except UnknownGame as exc:
        raise click.ClickException(str(exc)) from None


for _command in (match, tournament, ratings, commands_view.show, commands_view.render, commands_view.report,
                 status, sprt, repair, check, commands_serve.serve, commands_analyse.analyse, commands_play.play,
                 openings):
    main.add_command(_command)
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
