"""`hexarena serve`: the web server's command (hexarena/web)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from hexarena.terminal import echo


@click.command()
@click.argument("dirs", nargs=-1, metavar="DIR [DIR...]",
                type=click.Path(file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (beyond the loopback: a warning; every request still needs the token).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one).")
@click.option("--analyse", "analyse", default=None, hidden=True, expose_value=True)
@click.option("--engine", "engine", default=None, metavar='"CMD"',
              help="The engine the analysis boards ask about positions (a command line or a built-in player's "
                   "name; NAME=CMD names it): each game's board (its page's Analyse link).")
def serve(dirs: tuple[str, ...], host: str, port: int, analyse: str | None, engine: str | None) -> None:
    """Watch tournament folders in the browser: standings, live boards, finished games, each game's
    analysis board (docs/browser.md).

    The first line printed is the address to open, with a fresh token; Ctrl-C stops the server.
    """
    from hexarena.commands_analyse import analysis_engine
    if analyse is not None:
        raise click.UsageError(f"serve has no --analyse: the analysis board is a command of its own, "
                               f"hexarena analyse FILE.sgf [--engine CMD]")
    if not dirs:
        raise click.UsageError("give DIR (tournament folders); a record's analysis board is hexarena analyse FILE.sgf")
    from hexarena.web.server import run
    from hexarena.web.site import watch_app

    for d in dirs:
        if not Path(d).is_dir():
            echo(f"warning: {d} does not exist yet: its page fills in once a tournament writes there", err=True)

    def say(line: str) -> None:
        echo(line)
        sys.stdout.flush()

    try:
        with analysis_engine(engine) as adviser:
            run(lambda token: watch_app([Path(d) for d in dirs], token, host, adviser=adviser), host, port,
                say=say, warn=lambda s: echo(f"warning: {s}", err=True))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
