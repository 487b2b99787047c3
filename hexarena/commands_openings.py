"""`hexarena openings stats|generate|komi` (docs/openings.md): per-opening statistics of journals,
generated books of balanced openings, and the komi at which the first seat scores one half."""
from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

import click

from hexarena.terminal import SafeGroup, echo

MAX_BATCH = 100_000         # games a round: a tournament's games_per_pair at most (referee/tournament/config.py)


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
@click.option("--skip-bad", is_flag=True, help="Skip bad lines of the journals (listed as warnings) instead of failing.")
def stats(folders: tuple[str, ...], by: str, band: tuple[float, float], sort: str, as_csv: bool,
          skip_bad: bool) -> None:
    """Per opening of the tournaments in FOLDERS (folders or journal files): games, pairs, the first
    seat's score with its 95% interval, the pentanomial counts of its pairs, the share of pairs the
    seat decided (the same seat won both games) beside the share chance alone would split (independent
    games at the pairings' seat results: one half for equal engines at a balanced seat), and a flag
    outside --band."""
    from hexarena.results import openings as op
    from hexarena.results.rating.sources import LoadError, read_sources, skipped
    from hexarena.results.record.journal import JournalError, iter_journal

    def read(folder: str | os.PathLike) -> tuple[tuple[str | os.PathLike, dict], tuple[str, ...]]:
        errors: list[JournalError] = []
        return (folder, op.collect([iter_journal(folder, errors)])), skipped(folder, errors, skip_bad)
    try:
        parts, warnings = read_sources(folders, read)     # a journal named twice is read once
    except LoadError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot read a journal: {exc}") from None
    for warning in warnings:
        echo(f"warning: {warning}", err=True)
    plies: dict = {}
    games: dict = {}
    for n, (folder, part) in enumerate(parts):
        plies |= op.saved_random_plies(folder, n)
        games |= {(n, gid): game for (_, gid), game in part.items()}
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
            echo(f"{'-'.join([s.group[0], str(s.group[1]), *s.group[2].split()])}: {s.games} games "
                 f"({s.draws} drawn), first seat "
                 f"{100 * s.score:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%), {s.pairs} pairs, "
                 f"{s.split} split by seat ({100 * s.split / s.pairs if s.pairs else 0:.1f}%; independent games "
                 f"at these seat results would split {100 * s.chance:.0f}%), "
                 f"{s.flagged} of {s.openings} openings outside {100 * band[0]:.0f}-{100 * band[1]:.0f}%")
        echo()


def _pairs(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """An even number of games: they are played in pairs, seats exchanged."""
    if value % 2:
        raise click.BadParameter(f"{value} is odd: games are played in pairs (seats exchanged); give "
                                 f"{value - 1} or {value + 1}")
    return value


def _board_options(f):
    for option in reversed([
            click.option("--game", required=True, help="Game id."),
            click.option("--size", type=int, default=None, help="Board side (default: the game's default)."),
            click.option("--variant", default="", help="Variant words, e.g. 'nopie'."),
            click.option("--engine", "engine_cmd", required=True,
                         help="The judging engine: a built-in player's name (mcts:100) or a command line."),
            click.option("--seed", type=int, default=0, show_default=True, help="Seed of the candidates and games."),
            click.option("-j", "--concurrency", type=click.IntRange(1), default=1, show_default=True,
                         help="Engine processes (winrates) or games (self-play) at once.")]):
        f = option(f)
    return f


def _board(game: str, size: int | None, variant: str, komi: int | None):
    from hexarena.engine import registry
    from hexarena.engine.errors import RulesError
    from hexarena.engine.geometry import MAX_SIZE, MIN_SIZE
    from hexarena.openings_play import Board
    if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
        raise click.BadParameter(f"{size}: a board side is {MIN_SIZE} to {MAX_SIZE}", param_hint="--size")
    try:
        info = registry.get(game)
        v = info.variant(size, variant.split())
    except (KeyError, ValueError, RulesError) as exc:
        raise click.BadParameter(f"{game} size {size} variant {variant!r}: {exc}", param_hint="--game") from None
    if komi is not None and not info.uses_komi:
        raise click.BadParameter(f"{info.id} has no komi setting", param_hint="--komi")
    return Board(info.id, v.size, " ".join(info.describe(v).split()[1:]), komi)


def advisers_for(cmd: str, logs: Path):
    """The judging engine's advisers (hexarena/openings_play.py, `Advisers`): each a fresh process of
    `cmd` (a built-in player's name or a command line), its log `logs/judge-N.log`."""
    from hexarena.commands_analyse import make_adviser
    from hexarena.openings_play import Advisers
    from hexarena.web.adviser import AdviserError

    def new(n: int):
        adviser = make_adviser(cmd, logs)
        adviser.log = logs / f"judge-{n}.log"
        return adviser
    return Advisers(new, (AdviserError,))


def _interruptible(work, hint: str):
    """`work()`, and on Ctrl-C (a KeyboardInterrupt, alone or in trio's exception group) the message
    `hint` and exit status 130 instead of a traceback."""
    try:
        return work()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt) or (isinstance(exc, BaseExceptionGroup)
                                                  and exc.subgroup(KeyboardInterrupt) is not None):
            echo(f"interrupted: {hint}", err=True)
            sys.exit(130)
        raise


def _progress(total: float, what: str):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    return Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=False)


@openings.command("generate")
@_board_options
@click.option("--komi", type=int, default=None, help="Send `komi K` (games with a komi setting).")
@click.option("--count", type=click.IntRange(1), required=True, help="Openings in the book.")
@click.option("--band", default="45-55", show_default=True, callback=_band,
              help="First-seat value to keep, in percent.")
@click.option("--plies", type=click.IntRange(1, 20), default=2, show_default=True, help="Actions per opening.")
@click.option("--after", default="", help="A line every opening starts with (e.g. 'komi=4 keep').")
@click.option("--then", "then", default="",
              help="Actions every opening ends with, after its PLIES (e.g. 'komi=7 keep' after a dual pie)"
                   "; lines they cannot follow are dropped.")
@click.option("--candidates", type=click.IntRange(1), default=None,
              help="Candidate lines judged (default: 3 x --count).")
@click.option("--judge", "how", type=click.Choice(["auto", "winrate", "selfplay"]), default="auto",
              show_default=True, help="By the engine's genmove_analyze winrate, by self-play games, or the "
                                      "winrate when the engine gives one.")
@click.option("--games", type=click.IntRange(2), default=4, show_default=True, callback=_pairs,
              help="Self-play games per candidate (in pairs, seats exchanged: an even number).")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="The book file to write.")
@click.option("--work", type=click.Path(file_okay=False), default=None,
              help="Folder of the judgements, for a resumed run (default: OUT.work).")
def generate(game: str, size: int | None, variant: str, engine_cmd: str, seed: int, concurrency: int,
             komi: int | None, count: int, band: tuple[float, float], plies: int, after: str, then: str,
             candidates: int | None, how: str, games: int, out: str, work: str | None) -> None:
    """Write a book of COUNT openings of PLIES actions whose first-seat value lies in --band: candidate
    lines from the start (distinct under the hexagon's 12 symmetries), judged by the engine, each
    kept line checked by the rules. A second run with the same arguments resumes (docs/openings.md)."""
    from hexarena import openings_generate as gen
    from hexarena.referee.tournament.config import ConfigError
    from hexarena.referee.tournament.folder import TournamentError
    from hexarena.referee.game.openings import OpeningError
    from hexarena.web.adviser import AdviserError
    from hexarena.openings_play import NoWinrate, engine_table
    engine_table(engine_cmd)            # a mistyped player or a command no shell splits: said now, not in a task
    board = _board(game, size, variant, komi)
    _writable(Path(out))
    plan = gen.Plan(board, engine_cmd, count, band, plies, candidates or 3 * count, tuple(after.split()), how,
                    games, seed, concurrency, tuple(then.split()))
    try:
        lines = gen.candidates(plan)
    except OpeningError as exc:
        raise click.ClickException(f"--after {after!r}: {exc}" if after else str(exc)) from None
    folder = Path(work) if work else Path(out + ".work")
    folder.mkdir(parents=True, exist_ok=True)
    try:
        gen.claim(plan, folder)
    except gen.WorkMismatch as exc:
        raise click.UsageError(str(exc)) from None
    echo(f"{len(lines)} candidate lines of {plies} plies; judgements in {folder}", err=True)
    with _progress(len(lines), "judged") as bar:
        task = bar.add_task("judged", total=len(lines))
        try:
            values, judged_by = _interruptible(
                lambda: gen.judge(plan, lines, folder, advisers_for(engine_cmd, folder),
                                  lambda n: bar.advance(task, n), lambda s: bar.console.print(s)),
                f"the same command resumes from {folder}")
        except (NoWinrate, AdviserError, OpeningError, gen.NoGames, TournamentError, ConfigError) as exc:
            raise click.ClickException(str(exc)) from None
    kept = gen.choose(plan, lines, values)
    judged = [values[line] for line in lines if line in values]       # this run's candidates only
    inside = sum(band[0] <= v <= band[1] for v in judged)
    advice = "raise --candidates, widen --band or change --plies"
    if not kept:
        raise click.ClickException(f"no judged line lies in --band {100 * band[0]:g}-{100 * band[1]:g}% "
                                   f"({len(judged)} judged), so {out} was not written: {advice}")
    try:
        gen.write_book(Path(out), plan, kept, judged_by)
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror or exc}") from None
    echo(f"{out}: {len(kept)} openings ({inside} of {len(judged)} judged lines in the band)")
    if len(kept) < count:
        echo(f"fewer than the {count} asked: {advice}", err=True)


def _writable(out: Path) -> None:
    """Refuse, before any work, a book path whose folder is missing (none is made) or that is a folder."""
    if out.is_dir():
        raise click.BadParameter(f"{out} is a folder; give a file name", param_hint="--out")
    if not out.parent.is_dir():
        raise click.BadParameter(f"{out}: the folder {out.parent} does not exist (make it first)",
                                 param_hint="--out")


@openings.command("komi")
@_board_options
@click.option("--start", type=click.IntRange(0), default=0, show_default=True, help="The first komi played.")
@click.option("--step", type=click.IntRange(1), default=2, show_default=True,
              help="The first step of the bracketing (doubles while the score stays on one side).")
@click.option("--batch", type=click.IntRange(2, MAX_BATCH), default=8, show_default=True, callback=_pairs,
              help="Games per round (in pairs: an even number).")
@click.option("--rounds", type=click.IntRange(1), default=8, show_default=True, help="Rounds (one komi each).")
@click.option("--random-plies", type=click.IntRange(0, 20), default=0, show_default=True,
              help="Random plies opening each game pair (after the komi pie's `komi=K keep`).")
@click.option("--openings", "openings_file", default=None, metavar="FILE|book:NAME",
              help="Lines that lead to the komi pie (each cut before its komi= offer), opening the games "
                   "before `komi=K keep` (e.g. a dual pie).")
@click.option("--draw", type=click.IntRange(1), default=8, show_default=True,
              help="Without --openings, when the komi pie follows other actions: random lines drawn to it.")
@click.option("--work", type=click.Path(file_okay=False), default=None,
              help="Folder of the rounds' tournaments, for a resumed run (default: a temporary folder).")
def komi(game: str, size: int | None, variant: str, engine_cmd: str, seed: int, concurrency: int, start: int,
         step: int, batch: int, rounds: int, random_plies: int, openings_file: str | None, draw: int,
         work: str | None) -> None:
    """Estimate the komi at which the first seat scores 50% in self-play of the engine: ROUNDS rounds of
    BATCH games, each at the komi the games so far point to, then a logistic fit of the first seat's
    score over komi with a 95% interval (docs/openings.md)."""
    from hexarena import openings_komi as ok
    from hexarena.referee.game.openings import OpeningError
    from hexarena.referee.tournament.config import ConfigError
    from hexarena.referee.tournament.folder import TournamentError
    from hexarena.openings_play import engine_table, work_folder
    engine_table(engine_cmd)            # a mistyped player or a command no shell splits: said now, not in a task
    board = _board(game, size, variant, None)
    try:
        prefixes = ok.komi_lines(board, openings_file, draw, seed)
    except ValueError as exc:       # OpeningError too
        hint = "--openings" if isinstance(exc, OpeningError) else "--variant"
        raise click.BadParameter(str(exc), param_hint=hint) from None
    search = ok.Search(board, engine_cmd, start, step, batch, rounds, random_plies, seed, concurrency,
                       tuple(prefixes))
    top = ok.top_komi(board)
    if start > top:
        echo(f"--start {start}: more than the komi can be (the board's {top} sites); starting at {top}", err=True)
    folder = work_folder(Path(work) if work else None)
    try:
        ok.claim(search, folder)
    except ok.SearchMismatch as exc:
        raise click.UsageError(str(exc)) from None
    if not prefixes:
        way = "the komi command"
    elif prefixes == [()]:
        way = "the opening komi=K keep"
    else:
        way = (f"komi=K keep after {len(prefixes)} lines to the komi pie "
               f"({'from ' + openings_file if openings_file else 'drawn at random'}, {ok.per_line(search)} games each)")
    echo(f"komi by {way}; rounds in {folder}", err=True)
    total = rounds * ok.per_line(search) * max(1, len(prefixes))
    with _progress(total, "games") as bar:
        task = bar.add_task("games", total=total)
        try:
            results, fitted = _interruptible(
                lambda: ok.run_search(search, folder, lambda: bar.advance(task, 1), lambda s: bar.console.print(s)),
                f"the same command with --work {folder} resumes")
        except (TournamentError, ConfigError) as exc:
            raise click.ClickException(str(exc)) from None
    from hexarena.results.openings import wilson
    echo(f"{'komi':>5} {'games':>6} {'1st seat':>9} {'95% interval':>13}")
    for k in sorted(results):
        n, p = results[k]
        lo, hi = wilson(p / n, n)
        echo(f"{k:>5} {n:>6} {100 * p / n:>8.1f}% {100 * lo:>5.1f}-{100 * hi:>5.1f}%")
    if fitted is None or fitted.fair is None:
        n, p = results.get(0, (0, 0.0))
        if n and wilson(p / n, n)[1] < 0.5:
            echo("fair komi 0: the second seat leads already at komi 0 (95% interval of the first seat's "
                 "score below 50%), and a komi is never negative")
        elif len(results) == 1:
            echo(f"no fair komi yet: every round played komi {next(iter(results))}, and a curve needs two komi "
                 f"values at least; play more rounds")
        else:
            echo("no fair komi yet: the scores do not fall with the komi in these games; play more rounds")
        return
    interval = fitted.interval
    shown = f"{interval[0]:.1f} to {interval[1]:.1f}" if interval else "not yet bounded (play more rounds)"
    import math

    from hexarena.results.komi import komi_text
    near = min((k for k in (math.floor(fitted.fair), math.ceil(fitted.fair)) if k >= 0),
               key=lambda k: abs(fitted.score(k) - 0.5), default=0)
    echo(f"fair komi {komi_text(fitted.fair)} (95% interval {shown}); at komi {near} the fitted first-seat score is "
         f"{100 * fitted.score(near):.1f}% ({fitted.games} games)")
