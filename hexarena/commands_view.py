"""`hexarena show` (a game record or a position, as text or SVG) and `hexarena report` (HTML).

`render` stays as a hidden alias of `show`.
"""
from __future__ import annotations

import time
from pathlib import Path

import click

from hexarena.terminal import echo
from hexarena.engine.errors import RulesError
from hexarena.engine.registry import from_position
from hexarena.protocol.diagram import diagram
from hexarena.results.page.board_svg import action_sites, board_svg
from hexarena.results.page.replay import replay_record
from hexarena.results.page.replay_cache import MAX_SGF_BYTES
from hexarena.results.record.files import FileLimitError, read_text
from hexarena.results.record.printable import printable
from hexarena.results.record.sgf import SgfError


@click.command()
@click.argument("target", metavar="GAME.sgf|POSITION")
@click.option("--ply", type=click.IntRange(0), default=None,
              help="Show the position after PLY actions (default: the end).")
@click.option("--all", "every", is_flag=True, help="Show every position of the game, one after another.")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None,
              help="Write the board as SVG to this file instead of drawing it in text.")
def show(target: str, ply: int | None, every: bool, svg_out: str | None) -> None:
    """Draw a game record (replayed through the rules) or a position string.

    TARGET is an SGF file written by hexarena, or a quoted position string
    (docs/protocol.md, "The position string"), such as
    "GAME 3 w .../..../..b../..../...". A record is checked as it is
    replayed: an action the rules refuse is reported with its ply and the
    file is left untouched. Under each position drawn, the
    info lines its engine gave with the action (SGF XA), when it gave any.
    """
    if not _names_a_path(target):
        if " " not in target.strip():
            raise click.BadParameter(f"{target!r} is neither a file nor a position string",
                                     param_hint="TARGET")
        try:
            state = from_position(target)
        except RulesError as exc:
            raise click.ClickException(f"position: {exc}") from None
        if svg_out:
            _write(svg_out, board_svg(state.to_position()))
        else:
            echo(diagram(state, edges=True))
        return
    try:
        game = replay_record(read_text(target, MAX_SGF_BYTES))
    except FileLimitError as exc:               # a directory, a FIFO, a device, too large
        raise click.ClickException(str(exc)) from None
    except (SgfError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{target}: {exc}") from None
    head = game.header
    result = f"result {head.get('RE', '?')}" + (f" ({head.get('XR')})" if head.get("XR") else "")
    last = len(game.states) - 1
    if ply is not None and ply > last:
        raise click.BadParameter(f"the game has {last} actions", param_hint="--ply")
    chosen = range(last + 1) if every else [last if ply is None else ply]
    if svg_out:
        i = chosen[-1]
        note = result if i == last else ""
        action, token = (game.actions[i - 1], game.tokens[i - 1]) if i else (None, "")
        _write(svg_out, board_svg(game.states[i].to_position(), action, token, note))
        return
    echo(f"{head.get('GN', target)}: {head.get('PB', '?')} (black) vs {head.get('PW', '?')} (white), "
               + result)
    for i in chosen:
        token = game.tokens[i - 1] if i else ""
        marked = action_sites(game.actions[i - 1]) if i else frozenset()
        echo(diagram(game.states[i], marked, edges=True, last_token=f"{i}. {token}" if i else ""))
        for line in game.info[i - 1] if i else ():
            echo("  " + printable(line))       # an engine's words: every control character escaped


render = click.Command("render", callback=show.callback, params=show.params, hidden=True,
                       help="Alias of `show`.")


@click.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="The HTML file to write (default: DIRECTORY/report.html).")
@click.option("--rebuild", is_flag=True,
              help="Replay every record through the rules and write the viewer data "
                   "(DIRECTORY/report-cache.jsonl) anew, instead of reading what the referee wrote.")
def report(directory: str, output: str | None, rebuild: bool) -> None:
    """Write one self-contained HTML page of a tournament folder: ratings, tables, every game replayable."""
    from hexarena.results.page.html_report import ReportError, write_report
    from hexarena.results.page.replay_cache import ReplayCache
    started = time.perf_counter()
    warnings: list[str] = []
    try:
        cache = ReplayCache(Path(directory), fresh=rebuild)
        path, games = write_report(directory, output, cache=cache, warnings=warnings)
    except ReportError as exc:
        raise click.ClickException(str(exc)) from None
    for warning in warnings:
        echo(f"warning: {warning}", err=True)
    size = path.stat().st_size
    echo(f"{path}: {games} game{'s' * (games != 1)}, {size / 1024:.0f} KiB, {time.perf_counter() - started:.2f} s")


def _names_a_path(target: str) -> bool:
    """Whether TARGET names something on disk (a file, or a directory, a FIFO, a device: each
    refused by read_text, saying what it is); a text no path can have (too long a name, a NUL)
    names none."""
    try:
        return Path(target).exists()
    except (OSError, ValueError):
        return False


def _write(path: str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8")
    echo(f"wrote {path}")


