"""`hexarena serve`: the web server's command (hexarena/web)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from hexarena.terminal import echo


@click.command()
@click.argument("dirs", nargs=-1, required=True, metavar="DIR [DIR...]",
                type=click.Path(file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (beyond the loopback: a warning; every request still needs the token).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one).")
def serve(dirs: tuple[str, ...], host: str, port: int) -> None:
    """Watch tournament folders in the browser: standings, live boards, finished games (docs/browser.md).

    The first line printed is the address to open, with a fresh token; Ctrl-C stops the server.
    """
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
