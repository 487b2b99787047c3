"""`hexarena serve`: the web server's command (hexarena/web)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from hexarena.terminal import echo


@click.command()
@click.argument("dirs", nargs=-1, required=True, metavar="DIR [DIR...]",
                type=click.Path(exists=True, file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (beyond the loopback: a warning; every request still needs the token).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one).")
def serve(dirs: tuple[str, ...], host: str, port: int) -> None:
    """Watch tournament folders in the browser: standings, live boards, finished games (docs/browser.md).

    The first line printed is the address to open, with a fresh token; Ctrl-C stops the server.
    """
    from hexarena.web.app import build_app
    from hexarena.web.folders import folders_of, index_routes
    from hexarena.web.server import run

    folders = folders_of([Path(d) for d in dirs])

    def say(line: str) -> None:
        echo(line)
        sys.stdout.flush()

    try:
        run(lambda token: build_app(index_routes(folders), token, host=host), host, port,
            say=say, warn=lambda s: echo(f"warning: {s}", err=True))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
