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
@click.option("--analyse", "analyse", default=None, metavar="FILE.sgf|POSITION",
              help="Serve the analysis board of a record (or of a position string) instead of folders "
                   "(docs/browser.md, \"Analysis board\").")
@click.option("--engine", "engine", default=None, metavar='"CMD"',
              help="With --analyse: the engine to ask about positions (a command line or a built-in player's name).")
def serve(dirs: tuple[str, ...], host: str, port: int, analyse: str | None, engine: str | None) -> None:
    """Watch tournament folders in the browser: standings, live boards, finished games (docs/browser.md).

    The first line printed is the address to open, with a fresh token; Ctrl-C stops the server.
    """
    if analyse is not None or engine is not None:
        if analyse is None or dirs:
            raise click.UsageError("--analyse FILE.sgf takes no DIR (and --engine goes with --analyse)")
        from hexarena.commands_analyse import serve_analysis
        serve_analysis(analyse, engine, host, port)
        return
    if not dirs:
        raise click.UsageError("give DIR (tournament folders) or --analyse FILE.sgf")
    from hexarena.web.server import run
    from hexarena.web.site import watch_app

    for d in dirs:
        if not Path(d).is_dir():
            echo(f"warning: {d} does not exist yet: its page fills in once a tournament writes there", err=True)

    def say(line: str) -> None:
        echo(line)
        sys.stdout.flush()

    try:
        run(lambda token: watch_app([Path(d) for d in dirs], token, host), host, port,
            say=say, warn=lambda s: echo(f"warning: {s}", err=True))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
