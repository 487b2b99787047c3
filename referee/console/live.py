"""What a running tournament shows: one line per finished game, progress and standings.

:class:`Progress` is the state, a consumer of the runner's events (plan,
game started, ply played, game finished; see ``tournament.Observer``); it
reads no clock but the one it is given. Two views print it:

* :class:`PanelView` (referee/console/panel.py, rich; `make_view` in views.py loads it for a terminal): a live panel redrawn in place
  with rich (games done/total, games in flight with their ply, elapsed time
  and ETA, standings with Elo ± every ``elo_every`` games, forfeits and
  voids by kind); finished games scroll above it, one line each.
* :class:`PlainView` (a pipe, a file, CI): plain lines only, no control
  characters: one per finished game and a progress line every
  ``elo_every`` games.

``quiet`` views print nothing while running (the caller prints the final
tables). :func:`result_line` names the winner and the colours:
``GAME-5-pie/0003  greedy (black) beat random (white): no-moves, 24 plies, 3.1 s``.
"""
from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from hexarena.results.rating.repeats import RepeatFinder, Repeats
from hexarena.results.rating.row import adjudicated_text, game_row
from hexarena.results.rating.words import games_text, signed_whole, whole
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import iter_journal
from hexarena.results.record.printable import printable_lines

from ..tournament.schedule import ScheduledGame

ELO_EVERY = 10        # games between two rating fits (a fit takes some tens of milliseconds)


def result_line(r: GameRecord) -> str:
    """One line naming the winner and the colours of a finished (or void) game."""
    if r.void:
        return f"{r.id}  void ({r.first} vs {r.second}): {r.reason}"
    black, white = f"{r.black} (black)", f"{r.white} (white)"
    tail = f"{r.plies} plies, {r.seconds:.1f} s"
    if r.faulty and r.winner is not None:
        tail = f"{r.faulty} forfeits: {r.reason}; {tail}"
    ending = f"{r.termination} ({r.adjudicated_by})" if r.adjudicated_by else r.termination
    if r.winner is None:
        return f"{r.id}  {black} and {white} drew: {ending}, {tail}"
    winner, loser = (black, white) if r.winner == r.black else (white, black)
    return f"{r.id}  {winner} beat {loser}: {ending}, {tail}"


def void_kind(record: GameRecord) -> str:
    """A void game's cause in one word, for the counts (`unrecorded` for a journal line of schema 1)."""
    return record.void_cause.value if record.void_cause is not None else "unrecorded"


@dataclass
class Flight:
    game: ScheduledGame
    since: float
    plies: int = 0


@dataclass(frozen=True)
class Standing:
    name: str
    games: int
    score: float
    elo: float | None = None
    pm95: float | None = None


class Progress:
    """Counts of a tournament so far; fed by events, read by views (not thread-safe writers: one
    trio thread writes; readers copy)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, elo_every: int = ELO_EVERY, fit: bool = True):
        """`fit`: whether the ratings are fitted at the plan and every `elo_every` finished games
        (a quiet view shows none: its run fits none)."""
        self.clock, self.elo_every, self.fit = clock, elo_every, fit
        self.t0 = clock()
        self.total = 0
        # the non-void records as their rating rows (load.game_row), each distinct row with its count:
        # bounded by the pairings and outcomes, not by the games
        self.rows: Counter[tuple] = Counter()
        self.done = 0                              # non-void records (the counts' sum)
        self.played_now = 0                        # games finished in this run (void included)
        self.flights: dict[str, Flight] = {}
        self.forfeits: Counter[tuple[str, str]] = Counter()    # (engine, termination)
        self.voids: Counter[str] = Counter()                    # void_kind(record)
        self.adjudicated: Counter[str] = Counter()              # GameRecord.adjudicated_by
        self.elo: dict[str, tuple[float, float]] = {}
        self._fitted_at = -1

    def plan(self, pending: list[ScheduledGame], records: list[GameRecord]) -> None:
        done = {r.id: r for r in records if not r.void}
        self.rows = Counter(game_row(r) for r in done.values())
        self.done = len(done)
        self.total = len(done) + len(pending)
        for r in done.values():
            self._count(r)
        if self.fit:
            self.refit()

    def started(self, game: ScheduledGame) -> None:
        self.flights[game.id] = Flight(game, self.clock())

    def ply(self, game_id: str, plies: int) -> None:
        flight = self.flights.get(game_id)
        if flight is not None:
            flight.plies = plies

    def finished(self, record: GameRecord) -> None:
        self.flights.pop(record.id, None)
        self.played_now += 1
        if record.void:
            self.voids[void_kind(record)] += 1
            return
        self.count_done(record)
        if self.fit and self.done - self._fitted_at >= self.elo_every:
            self.refit()

    def count_done(self, record: GameRecord) -> None:
        """Count one non-void journaled game (its rating row, forfeit, adjudication); no refit."""
        self.rows[game_row(record)] += 1
        self.done += 1
        self._count(record)

    def _count(self, r: GameRecord) -> None:
        if r.forfeit is not None and r.faulty is not None:
            self.forfeits[(r.faulty, r.forfeit.value)] += 1
        if r.adjudicated_by is not None:
            self.adjudicated[r.adjudicated_by] += 1

    def refit(self) -> None:
        """Fit the ratings of the games so far, from each distinct row with its count (numpy: a
        fit costs what the pairings and outcomes make, not the number of games)."""
        self._fitted_at = self.done
        if not self.rows:
            return
        from hexarena.results.rating.columns import rating_columns
        from hexarena.results.rating.counts import count_rows
        from hexarena.results.rating.ratings import fit
        try:
            counts = count_rows(list(self.rows), list(self.rows.values()))
            table = rating_columns(fit(counts), counts)
        except (ValueError, ArithmeticError):
            return
        self.elo = {p: (float(e), float(pm)) for p, e, pm in zip(table["player"], table["elo"], table["pm95"])}

    @property
    def elapsed(self) -> float:
        return self.clock() - self.t0

    @property
    def eta(self) -> float | None:
        """Seconds left at this run's pace so far; None before the first game of the run."""
        if self.played_now == 0:
            return None
        left = self.total - self.done
        return self.elapsed / self.played_now * max(0, left - len(self.flights) / 2)

    def standings(self) -> list[Standing]:
        games: Counter[str] = Counter()
        score: defaultdict[str, float] = defaultdict(float)
        for (_, _, first, second, winner, *_), n in self.rows.items():
            for name in (first, second):
                games[name] += n
                score[name] += n * (1.0 if winner == name else 0.5 if winner is None else 0.0)
        rows = [Standing(n, games[n], score[n], *self.elo.get(n, (None, None))) for n in games]
        return sorted(rows, key=lambda s: (-(s.elo if s.elo is not None else -1e9), -s.score, s.name))

    def status_line(self) -> str:
        eta = self.eta
        parts = [f"{self.done}/{self.total} games", f"{len(self.flights)} in flight",
                 f"elapsed {clock_text(self.elapsed)}"] + ([f"eta {clock_text(eta)}"] if eta is not None else [])
        text = "[" + ", ".join(parts) + "]"
        rows = self.standings()
        if rows:
            text += " " + ", ".join(f"{s.name} {s.score:g}/{s.games}" + (
                f" ({signed_whole(s.elo)}±{whole(s.pm95)})" if s.elo is not None else "") for s in rows)
        if self.forfeits:
            text += "; forfeits: " + ", ".join(f"{e} {t} {n}" for (e, t), n in sorted(self.forfeits.items()))
        if self.adjudicated:
            text += "; adjudicated: " + adjudicated_text(self.adjudicated)
        if self.voids:
            text += "; void: " + ", ".join(f"{k} {n}" for k, n in sorted(self.voids.items()))
        return text


def clock_text(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class View:
    """A runner observer (referee.tournament.Observer) that keeps `progress` current;
    subclasses show it."""

    progress: Progress

    def plan(self, pending: list[ScheduledGame], records: list[GameRecord]) -> None:
        self.progress.plan(pending, records)

    def started(self, game: ScheduledGame) -> None:
        self.progress.started(game)

    def ply(self, game_id: str, plies: int) -> None:
        self.progress.ply(game_id, plies)

    def finished(self, record: GameRecord) -> None:
        self.progress.finished(record)


class PlainView(View):
    """Plain lines to `stream`: one per finished game, a status line every `elo_every` games."""

    def __init__(self, progress: Progress, stream: TextIO, quiet: bool = False):
        self.progress, self.stream, self.quiet = progress, stream, quiet

    def __enter__(self) -> PlainView:
        return self

    def __exit__(self, *exc) -> None:
        if not self.quiet and self.progress.played_now % self.progress.elo_every:
            self.progress.refit()
            self._print(self.progress.status_line())

    def plan(self, pending: list[ScheduledGame], records: list[GameRecord]) -> None:
        super().plan(pending, records)
        if not self.quiet:
            self._print(self.progress.status_line())

    def finished(self, record: GameRecord) -> None:
        super().finished(record)
        if self.quiet:
            return
        self._print(result_line(record))
        if self.progress.played_now % self.progress.elo_every == 0:
            self._print(self.progress.status_line())

    def _print(self, line: str) -> None:
        self.stream.write(printable_lines(line) + "\n")
        self.stream.flush()


def final_summary(records: list[GameRecord], repeats: list[Repeats] | None = None) -> str:
    """The tables printed at the end: ratings and first-player advantage, head to head, repeated games
    (`repeats`, or those of `records`: see :func:`journal_summaries`). Numpy only: pandas is not loaded."""
    from hexarena.results.rating.repeats import repeated_games, repeats_text
    from hexarena.results.rating.summary import head_to_head_text, pooled, summary_table
    group = pooled(records)
    parts = [summary_table(records, group)]
    if group is not None:
        parts += ["", "head to head (row's score against column, by rank)", head_to_head_text(group)]
    text = repeats_text(repeated_games(records) if repeats is None else repeats)
    if text:
        parts += ["", text]
    return "\n".join(parts)


def journal_summaries(path: str | os.PathLike) -> tuple[list[GameRecord], list[Repeats]]:
    """A journal's records as summaries (:meth:`GameRecord.summary`), read one at a time, and the
    repeated games among the whole records: what :func:`final_summary` needs, without holding
    every game's actions. JournalError on a bad line."""
    finder = RepeatFinder()
    summaries = []
    for record in iter_journal(path):
        finder.add(record)
        summaries.append(record.summary())
    return summaries, finder.found()
