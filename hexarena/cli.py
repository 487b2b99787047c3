"""The `hexarena` command: the composition root.

With the other modules of the package root (commands_*.py, supervise.py,
cluster*.py) the only code that may import every package (it serves built-in
players and runs the referee) and call ``trio.run``.

Each command's module is imported only when that command runs (or when help or
docs/cli.md lists it): :data:`COMMANDS` names where each one lives, so `hexarena
tournament` does not load the web server's, the ladder's or the players' commands, and
`hexarena engine NAME` starts as fast as `python -m hexarena.players NAME`.
"""
from __future__ import annotations

import importlib
import sys

import click

from hexarena.terminal import SafeGroup

#: Every command but `engine` (defined below): its name -> "module:attribute" of its click command.
COMMANDS = {
    "match": "hexarena.commands_match:match",
    "tournament": "hexarena.commands_run:tournament",
    "ratings": "hexarena.commands_ratings:ratings",
    "show": "hexarena.commands_view:show",
    "render": "hexarena.commands_view:render",
    "report": "hexarena.commands_view:report",
    "status": "hexarena.commands_status:status",
    "sprt": "hexarena.commands_sprt:sprt",
    "repair": "hexarena.commands_ratings:repair",
    "check": "hexarena.commands_check:check",
    "serve": "hexarena.commands_serve:serve",
    "analyse": "hexarena.commands_analyse:analyse",
    "play": "hexarena.commands_play:play",
    "openings": "hexarena.commands_openings:openings",
    "ladder": "hexarena.ladder.commands:ladder",         # hexarena/ladder: the rating server and its bridge
    "connect": "hexarena.ladder.commands:connect",
}


class LazyGroup(SafeGroup):
    """A group whose commands named in `lazy` (name -> "module:attribute") are imported when
    first asked for (:meth:`get_command`); the commands added the usual way sit beside them."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command) or command.name != cmd_name:
                raise RuntimeError(f"{self.lazy[cmd_name]} is not the click command {cmd_name!r}")
            self.add_command(command)
        return self.commands.get(cmd_name)


@click.group(cls=LazyGroup, lazy=COMMANDS)
@click.version_option(package_name="hexarena")
def main() -> None:
    """hexarena: referee and tournaments for abstract games on hexagonal boards."""
    from hexarena.referee.engines.spawn import settle_environ
    settle_environ()                # before any thread starts or numpy is imported; engines do not inherit it
    from hexarena.engine import registry
    for problem in registry.setting_problems():     # said once; the other games still serve
        click.echo(f"warning: {problem}", err=True)


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
