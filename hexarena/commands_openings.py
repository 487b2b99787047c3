"""`hexarena openings stats|generate|komi` (docs/openings.md): per-opening statistics of journals,
generated books of balanced openings, and the komi at which the first seat scores one half."""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import click

from hexarena.terminal import SafeGroup, echo


@click.group("openings", cls=SafeGroup)
def openings() -> None:
    """Openings: per-opening statistics, generated books, a fair komi (docs/openings.md)."""


def _band(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    from hexarena.results.openings import parse_band
    try:
        return parse_band(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@openings.command("stats")
@click.argument("folders", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--by", type=click.Choice(["played", "book", "both"]), default="both", show_default=True,
              help="Group by the played line (random plies included), the book line alone, or both "
                   "(the book table only when a folder has random plies).")
@click.option("--band", default="40-60", show_default=True, callback=_band,
              help="First-seat score band in percent; openings outside it are flagged.")
@click.option("--sort", type=click.Choice(["imbalance", "games", "line"]), default="imbalance", show_default=True)
@click.option("--csv", "as_csv", is_flag=True, help="Write CSV to stdout instead of the table.")
def stats(folders: tuple[str, ...], by: str, band: tuple[float, float], sort: str, as_csv: bool) -> None:
    """Per opening of the tournaments in FOLDERS (folders or journal files): games, pairs, the first
    seat's score with its 95% interval, the pentanomial counts of its pairs, the share of pairs the
    seat decided (the same seat won both games), and a flag outside --band."""
    from hexarena.results import openings as op
    from hexarena.results.record.journal import JournalError, iter_journal

    plies: dict = {}
    for n, folder in enumerate(folders):
        plies |= op.saved_random_plies(folder, n)
    try:
        games = op.collect(iter_journal(f) for f in folders)
    except (OSError, JournalError) as exc:
        raise click.ClickException(f"cannot read a journal: {exc}") from None
    groupings = ["played", "book"] if by == "both" else [by]
    if by == "both" and not plies:
        groupings = ["played"]
    if as_csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(op.CSV_COLUMNS)
        for g in groupings:
            writer.writerows(op.csv_rows(op.ordered(op.opening_stats(games, g, plies), sort), g, band))
        return
    if not games:
        echo("no finished game in the journals")
        return
    for g in groupings:
        rows = op.ordered(op.opening_stats(games, g, plies), sort)
        title = "by the played line (random plies included)" if g == "played" else "by the book line alone"
        echo(f"openings {title}: {len(rows)}")
        for line in op.table_lines(rows, band):
            echo(line)
        for s in op.summaries(rows, band):
            lo, hi = s.interval
            echo(f"{'-'.join([s.group[0], str(s.group[1]), *s.group[2].split()])}: {s.games} games, first seat "
                 f"{100 * s.score:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%), {s.pairs} pairs, "
                 f"{s.split} split by seat ({100 * s.split / s.pairs if s.pairs else 0:.1f}%), "
                 f"{s.flagged} of {s.openings} openings outside {100 * band[0]:.0f}-{100 * band[1]:.0f}%")
        echo()
