"""The live panel of a tournament on a terminal (rich), redrawn in place twice a second.

Finished games print above the panel, one line each (live.result_line);
the panel shows progress, the games in flight, standings (score, and Elo ±
refitted every few games), forfeits, adjudications and voids by kind. When the run ends,
the panel is drawn one last time and left on the screen.
"""
from __future__ import annotations

from typing import TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from hexarena.results.record.game import GameRecord
from hexarena.results.record.printable import printable

from hexarena.results.rating.row import adjudicated_text
from hexarena.results.rating.words import signed_whole, whole

from .live import Progress, View, clock_text, result_line

SHOWN_FLIGHTS = 12      # games in flight listed (the rest are counted)


class PanelView(View):
    """Events in, a rich Live panel out (the panel reads a snapshot of `progress` on each refresh)."""

    def __init__(self, progress: Progress, console: Console):
        self.progress, self.console = progress, console
        self.live = Live(console=console, refresh_per_second=2, transient=False, get_renderable=self._render)

    def __enter__(self) -> PanelView:
        self.live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.progress.refit()
        self.live.__exit__(*exc)

    def finished(self, record: GameRecord) -> None:
        super().finished(record)
        self.live.console.print(Text(printable(result_line(record))))

    def _render(self) -> Group:
        p = self.progress
        eta = p.eta
        head = Text(f"{p.done}/{p.total} games   elapsed {clock_text(p.elapsed)}   "
                    f"eta {clock_text(eta) if eta is not None else '-'}", style="bold")
        parts: list = [head]
        flights = list(p.flights.values())
        if flights:
            table = Table("in flight", "engines", "ply", "s", box=None, pad_edge=False)
            now = p.clock()
            for f in flights[:SHOWN_FLIGHTS]:
                table.add_row(Text(printable(f.game.id)), Text(printable(f"{f.game.first} vs {f.game.second}")), str(f.plies),
                              f"{now - f.since:.0f}")
            if len(flights) > SHOWN_FLIGHTS:
                table.add_row(f"... {len(flights) - SHOWN_FLIGHTS} more", "", "", "")
            parts.append(table)
        rows = p.standings()
        if rows:
            table = Table("engine", "games", "score", "elo", "±95", box=None, pad_edge=False)
            for s in rows:
                table.add_row(Text(printable(s.name)), str(s.games), f"{s.score:g}",
                              signed_whole(s.elo), whole(s.pm95))
            parts.append(table)
        extra = []
        if p.forfeits:
            extra.append("forfeits: " + ", ".join(f"{e} {t} {n}" for (e, t), n in sorted(p.forfeits.items())))
        if p.adjudicated:
            extra.append("adjudicated: " + adjudicated_text(p.adjudicated))
        if p.voids:
            extra.append("void: " + ", ".join(f"{k} {n}" for k, n in sorted(p.voids.items())))
        parts += [Text(printable(line)) for line in extra]
        return Group(*parts)


__all__ = ["PanelView"]
