"""`hexarena analyse FILE.sgf|POSITION [--engine CMD]`: the analysis board in the browser
(hexarena/web/analysis_board.py), and the engine every analysis board asks (`analysis_engine`)."""
from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hexarena.terminal import echo

if TYPE_CHECKING:
    from hexarena.web.adviser import Adviser


def make_adviser(engine_cmd: str, logs: Path) -> Adviser:
    """The engine of the analysis boards, `engine_cmd` a command line or a built-in player's name
    (`NAME=CMD` names it), its stderr to ``logs/NAME.log``; UsageError for a command it cannot be."""
    from hexarena.commands_play import engine_table
    from hexarena.referee.tournament.config import player_cmd
    from hexarena.referee.tournament.run import expand
    from hexarena.web.adviser import Adviser

    name, table = engine_table(engine_cmd)
    argv = expand(player_cmd(table["player"]) if "player" in table else tuple(table["cmd"]), 0)
    return Adviser(argv, name, logs / f"{name}.log")


@contextmanager
def analysis_engine(engine_cmd: str | None) -> Iterator[Adviser | None]:
    """:func:`make_adviser`'s engine for the block (None without `engine_cmd`), its log in a
    temporary folder, removed at the end unless the engine wrote to its log: then the folder is
    kept and the log named on stderr."""
    if engine_cmd is None:
        yield None
        return
    logs = Path(tempfile.mkdtemp(prefix="hexarena-analyse-"))
    try:
        yield make_adviser(engine_cmd, logs)
    finally:
        written = [log for log in sorted(logs.glob("*.log")) if log.stat().st_size]
        if written:
            echo(f"the engine's stderr is kept in {', '.join(map(str, written))}", err=True)
        else:
            shutil.rmtree(logs, ignore_errors=True)


@click.command()
@click.argument("what", metavar="FILE.sgf|POSITION")
@click.option("--engine", "engine", default=None, metavar='"CMD"',
              help="The engine the board asks about positions (a command line or a built-in player's name; "
                   "NAME=CMD names it).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (beyond the loopback: a warning; every request still needs the token).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one).")
def analyse(what: str, engine: str | None, host: str, port: int) -> None:
    """Open the analysis board of a game record (or of a quoted position string) in the browser:
    step through it, try other lines, ask an engine (docs/browser.md, "Analysis board").

    The first line printed is the address to open, with a fresh token; Ctrl-C stops the server.
    """
    serve_analysis(what, engine, host, port)


def serve_analysis(what: str, engine_cmd: str | None, host: str, port: int) -> None:
    """Serve the analysis board of `what` (an SGF file, or else a position string), with the
    engine `engine_cmd` (a command line or a built-in player's name) when given, until Ctrl-C."""
    from hexarena.results.page.replay import replay_record
    from hexarena.results.record.sgf import SgfError
    from hexarena.web.analysis_board import Study, analysis_routes
    from hexarena.web.app import build_app
    from hexarena.web.server import run

    from hexarena.engine.errors import RulesError
    path = Path(what)
    with analysis_engine(engine_cmd) as adviser:
        if path.is_file():
            try:
                study = Study.of(replay_record(path.read_text(encoding="utf-8")), f"analysis: {path.name}", adviser)
            except (OSError, UnicodeDecodeError, SgfError) as exc:
                raise click.ClickException(f"{what}: {exc}") from None
        else:
            try:
                study = Study.at(what, "analysis of a position", adviser)
            except RulesError as exc:
                raise click.ClickException(f"{what[:60]!r}: no such file, nor a position string: {exc}") from None
        tasks = [adviser.run] if adviser is not None else []

        def say(line: str) -> None:
            echo(line)
            sys.stdout.flush()

        try:
            run(lambda token: build_app(analysis_routes(study), token, host=host, tasks=tasks), host, port,
                say=say, warn=lambda s: echo(f"warning: {s}", err=True))
        except OSError as exc:
            raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
