"""`hexarena status DIR`: progress and standings of a tournament from its folder, running or finished.

Reads only the folder (tournament.json, history.json, journal.jsonl); never
writes. The journal is read once, as summaries (no moves), keeping counts, the distinct rating
rows with their counts, identities and the ids of the games done (one per game, against the
schedule); `--tables` also keeps each done game's summary for its tables. Games in flight are not journaled, so they count as not done. Each
engine's identity (what it answered to `name` and `version`, per config name)
is listed when the journal knows any.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hexarena.terminal import echo
from hexarena.results.record.identity import identity_lines
from hexarena.results.record.journal import JOURNAL_NAME, JournalError, iter_journal

if TYPE_CHECKING:
    from hexarena.results.record.game import GameRecord


@click.command("status")
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--tables", is_flag=True, help="Also print the rating and head-to-head tables.")
def status(folder: str, tables: bool) -> None:
    """Progress and standings of the tournament in FOLDER."""
    from hexarena.referee.tournament import growth              # the referee: only when the command runs
    from hexarena.referee.console.live import Progress, final_summary, void_kind
    from hexarena.referee.tournament.folder import TournamentError, load_saved
    out = Path(folder)
    try:
        configs = growth.earlier_configs(out) + [load_saved(out)]
        games = growth.schedule_for(configs)
    except (TournamentError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    errors: list[JournalError] = []
    progress = Progress(fit=False)
    counted: set[str] = set()                 # ids of the games done: what grows, with `kept`
    kept: list[GameRecord] = []               # with --tables: each done game's summary, for its tables

    def done_games() -> Iterator[GameRecord]:
        """The journal's records read once as summaries: voids counted, each done game (its
        first non-void line, as every journal reader) counted and yielded."""
        if not (out / JOURNAL_NAME).exists():
            return
        for r in iter_journal(out / JOURNAL_NAME, errors, summary=True):
            if r.void:
                progress.voids[void_kind(r)] += 1
            elif r.id not in counted:
                counted.add(r.id)
                progress.count_done(r)
                if tables:
                    kept.append(r)
                yield r

    try:
        names = identity_lines(done_games())      # the one pass over the journal
    except OSError as exc:                        # FileLimitError: a FIFO or a device, not a journal
        raise click.ClickException(str(exc)) from None
    left = sum(1 for g in games if g.id not in counted)
    progress.total = progress.done + left
    progress.refit()
    state = "finished" if left == 0 else f"{left} to play"
    echo(f"{out}: {len(games) - left}/{len(games)} games ({state}), "
               f"{sum(progress.voids.values())} void record(s)")
    stray = sorted(counted - {g.id for g in games})
    if stray:                   # a line added by hand, or from another folder: rated, but no game of this one
        echo(f"warning: {len(stray)} journaled game(s) not in the schedule (first: {stray[0]}): in the "
             "standings, not in the count of games", err=True)
    for s in progress.standings():
        elo = "" if s.elo is None else f"  elo {s.elo:+.0f} ±{s.pm95:.0f}"
        echo(f"  {s.name:<20} {s.score:g}/{s.games}{elo}")
    if names:
        echo("engines (name and version they answered):")
        for line in names:
            echo("  " + line)
    if progress.forfeits:
        echo("forfeits: " + ", ".join(f"{e} {t} {n}" for (e, t), n in sorted(progress.forfeits.items())))
    if progress.voids:
        echo("void: " + ", ".join(f"{k} {n}" for k, n in sorted(progress.voids.items())))
    for err in errors:
        echo(f"warning: unreadable journal line: {err}", err=True)
    if tables and kept:
        echo("\n" + final_summary(kept))

