"""``hexarena ratings`` and ``hexarena repair``: rate the games of journals or CSV files, move a
journal's unreadable lines aside. Importing this module is cheap: pandas is imported only when a
command runs, and the text tables of journals need none (they are fitted from the rating rows).
"""
from __future__ import annotations

import click

from hexarena.terminal import echo
from hexarena.results.record.game import GROUP_KEYS

#: The `--by` key that names players by identity instead of grouping tables.
IDENTITY = "identity"


def _parse_anchor(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, float]:
    from hexarena.engine.errors import RulesError
    from hexarena.engine.numbers import shown, signed_decimal

    anchors: dict[str, float] = {}
    for text in values:
        name, sep, elo = text.rpartition("=")
        if not sep or not name:
            raise click.BadParameter(f"{shown(text)} is not NAME=ELO", ctx=ctx, param=param)
        try:
            anchors.setdefault(name, signed_decimal(elo, f"{shown(name, quote=False)}=", digits=9))
        except RulesError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return anchors


def _parse_by(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    keys = tuple(k.strip() for k in value.split(",") if k.strip())
    bad = [k for k in keys if k not in GROUP_KEYS + (IDENTITY,)]
    if bad or not keys:
        raise click.BadParameter(f"{value!r}: give game, size, identity or a comma-separated list of them "
                                 "(game,size)", ctx=ctx, param=param)
    return keys


@click.command("ratings")
@click.argument("paths", metavar="PATH...", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--by", "by", callback=_parse_by, metavar="KEYS",
              help="One table per value of KEYS (game, size or game,size); `identity` among KEYS names "
                   "each player NAME (engine-name version) as its engine answered, so two builds under one "
                   "config name are rated apart (the config name alone where a record has no identity). "
                   "Default: all games pooled, plus one table per (game, size) when there are several.")
@click.option("--pooled", is_flag=True, help="Only the table of all games pooled.")
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json"]), default="text", show_default=True,
              help="What to print: text tables, the ratings as CSV, or every table as JSON.")
@click.option("--anchor", "anchor", multiple=True, callback=_parse_anchor, metavar="NAME=ELO",
              help="Pin NAME's rating at ELO instead of a mean of 0. Repeatable: each table uses the "
                   "first anchored player that plays in it.")
@click.option("--skip-bad", is_flag=True, help="Skip bad lines of the input (listed as warnings) instead of failing.")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Also write every table as CSV and JSON into this folder.")
def ratings(paths: tuple[str, ...], by: tuple[str, ...] | None, pooled: bool, fmt: str, anchor: dict[str, float],
            skip_bad: bool, out: str | None) -> None:
    """Elo ratings of the games in each PATH: a tournament folder, its journal, or a CSV file
    with columns game,size,first,second,winner (winner empty for a draw). Several paths are
    rated together; game ids count per source (two tournaments' GAME-5-pie/0000 are two games)."""
    identity = by is not None and IDENTITY in by
    if by is not None:
        by = tuple(k for k in by if k != IDENTITY) or None
    if pooled and by is not None:
        raise click.UsageError("--by and --pooled exclude each other (but for --by identity)")
    from hexarena.results.rating.sources import LoadError, is_journal
    from hexarena.results.record.files import FileLimitError
    try:
        if fmt == "text" and out is None and all(is_journal(p) for p in paths):
            text = _journals_text(paths, by=() if pooled else by, anchor=anchor, skip_bad=skip_bad, identity=identity)
            echo(text, nl=False)
            return
        from hexarena.results.rating.load import load_many
        games = load_many(paths, skip_bad=skip_bad, identity=identity)
    except LoadError as exc:
        raise click.ClickException(str(exc)) from None
    except FileLimitError as exc:           # a FIFO, a device, a directory where a file was named
        raise click.ClickException(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {getattr(exc, 'filename', None) or ' '.join(paths)}: {exc}") from None
    from hexarena.results.rating.report import build_reports, render_csv, render_json, render_text, write_out
    for warning in games.warnings:
        echo(f"warning: {warning}", err=True)
    if games.frame.empty:
        raise click.ClickException(f"{', '.join(paths)}: no rated games")
    _unknown_anchors(anchor, set(games.frame["first"]) | set(games.frame["second"]))
    reports = build_reports(games.frame, by=() if pooled else by, anchor=anchor)
    if fmt == "text":
        echo(render_text(reports), nl=False)
    elif fmt == "csv":
        echo(render_csv(reports), nl=False)
    else:
        echo(render_json(reports, games.warnings))
    if out is not None:
        written = write_out(reports, out, games.warnings)
        echo(f"wrote {len(written)} files to {out}", err=True)


def _journals_text(paths: tuple[str, ...], by: tuple[str, ...] | None, anchor: dict[str, float], skip_bad: bool,
                   identity: bool) -> str:
    """The text tables of journals' games, fitted from their rating rows without pandas (what
    `load_many` and `build_reports` give of them); their warnings said first, on stderr."""
    from hexarena.results.rating.counts import count_rows
    from hexarena.results.rating.groups import Group, fit_groups
    from hexarena.results.rating.sources import load_rows
    from hexarena.results.rating.text import render_text
    rows, warnings = load_rows(paths, skip_bad=skip_bad, identity=identity)
    for warning in warnings:
        echo(f"warning: {warning}", err=True)
    if not rows:
        raise click.ClickException(f"{', '.join(paths)}: no rated games")
    _unknown_anchors(anchor, {name for row in rows for name in row[2:4]})
    return render_text([Group(key, counts, fitted) for key, counts, fitted in fit_groups(count_rows(rows), by, anchor)])


def _unknown_anchors(anchor: dict[str, float], players: set[str]) -> None:
    """A warning for each --anchor naming no player of the games (each table anchors the first
    anchored player it holds: a name in none of them anchors nothing)."""
    for name in anchor:
        if name not in players:
            echo(f"warning: --anchor {name}: no player of that name in these games", err=True)


@click.command("repair")
@click.argument("path", type=click.Path(exists=True))
def repair(path: str) -> None:
    """Move the unreadable lines of a tournament's journal (PATH: its folder or the file),
    verbatim, to JOURNAL.bad, so that --resume and ratings work again (their games are replayed; a
    later record of a game that has one is moved and the game keeps its first)."""
    from contextlib import nullcontext

    from hexarena.referee.tournament.folder_lock import LOCK_NAME, FolderBusy, hold_folder
    from hexarena.results.record.journal import journal_path
    from hexarena.results.record.repair import NotAJournal, repair_journal
    folder = journal_path(path).parent
    try:        # a run, a match or a ladder pool writing to this journal holds its folder's lock
        with hold_folder(folder) if (folder / LOCK_NAME).exists() else nullcontext():
            done = repair_journal(path)
    except FolderBusy as exc:
        raise click.ClickException(f"cannot repair {path} now: another hexarena process (pid {exc.holder}) is "
                                   "writing to it; repair it once that process has ended") from None
    except NotAJournal as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot repair {path}: {exc}") from None
    if done.torn:
        echo(done.torn)
    if done.moved:
        lines = ", ".join(map(str, done.moved))
        echo(f"{done.journal}: moved {len(done.moved)} bad line(s) ({lines}) to {done.side}; "
                   f"{done.kept} records kept")
    elif not done.torn:
        echo(f"{done.journal}: nothing to repair ({done.kept} records)")
