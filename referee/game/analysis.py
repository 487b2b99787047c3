"""The referee's reading of a `genmove_analyze` answer's info lines (docs/protocol.md, "Analysis").

Each line is parsed by :func:`hexarena.protocol.analysis.parse_info`; a `pv`
must start with the action played and be a line of canonical actions the
rules allow, from the position before it, up to the end of the game
(:func:`~hexarena.protocol.analysis.check_pv`, which `hexarena check` grades with too). A line
that fails is dropped with a note saying why (for the engine's log); at most
`MAX_LINES` lines are read. A kept line is its journal form: the `line` and
the keys read from it (`Info.as_dict`).

Bounds, so that an engine's analysis costs the referee little and stores little
(docs/tournament.md, "Analysis"):

* a `pv` is walked through the rules and kept up to its first :data:`MAX_PV` actions; the
  rest is cut (with a note), and the kept `line` is the line's words up to that action;
* :class:`SeatAnalysis` keeps at most :data:`SEAT_BUDGET` characters of kept lines per seat
  per game; the moves after the one that spends it keep no analysis (one note says from which ply);
* :meth:`SeatAnalysis.read` does the reading in a worker thread (one at a time per run), so
  the event loop, and with it every other game's clock, never waits for it.
"""
from __future__ import annotations

import trio

from hexarena.engine.game import GameState
from hexarena.protocol.analysis import MAX_LINES, InfoError, check_pv, parse_info

#: The most actions of one pv walked through the rules and kept.
MAX_PV = 40
#: The most characters of kept info lines (their `line` texts) stored per seat in one game.
SEAT_BUDGET = 200_000

_THREADS: trio.lowlevel.RunVar = trio.lowlevel.RunVar("analysis_threads")


def read_info(lines: list[str], state: GameState, played: str) -> tuple[list[dict], list[str]]:
    """(the info lines kept, in journal form; notes on the lines dropped or cut) for the action
    `played` (its canonical token) chosen in `state`."""
    kept: list[dict] = []
    notes: list[str] = []
    walked: dict = {}                       # the lines' common beginnings, walked once
    for number, line in enumerate(lines[:MAX_LINES], 1):
        try:
            info = parse_info(line)
            if len(info.pv) > MAX_PV:
                words = line.split()
                line = " ".join(words[:len(words) - len(info.pv) + MAX_PV])
                notes.append(f"info line {number}: pv cut to its first {MAX_PV} of {len(info.pv)} actions")
                info = parse_info(line)
            if info.pv:
                check_pv(info.pv, state, played, walked)
        except InfoError as exc:
            notes.append(f"info line {number} dropped: {exc}: {line[:80]!r}")
            continue
        kept.append({"line": line, **info.as_dict()})
    if len(lines) > MAX_LINES:
        notes.append(f"{len(lines) - MAX_LINES} info line(s) after the first {MAX_LINES} dropped")
    return kept, notes


async def read_off_loop(lines: list[str], state: GameState, played: str) -> tuple[list[dict], list[str]]:
    """:func:`read_info` in a worker thread (at most one per trio run at a time): the event loop
    runs other games meanwhile. Answers without info lines are read in place."""
    if not lines:
        return [], []
    try:
        limiter = _THREADS.get()
    except LookupError:
        limiter = trio.CapacityLimiter(1)
        _THREADS.set(limiter)
    return await trio.to_thread.run_sync(read_info, lines, state, played, limiter=limiter)


class SeatAnalysis:
    """The kept analysis of one game, per seat, under :data:`SEAT_BUDGET` characters each."""

    def __init__(self, budget: int = SEAT_BUDGET):
        self.budget = budget
        self.spent = [0, 0]

    async def read(self, seat: int, lines: list[str], state: GameState,
                   played: str) -> tuple[list[dict] | None, list[str]]:
        """(the lines kept for the action `played` of `seat` in `state`, None once the seat's
        budget is spent; notes for the engine's log). The move whose lines would pass the budget
        keeps none of them, nor does any later move of the seat."""
        if self.spent[seat] >= self.budget:
            return None, []
        kept, notes = await read_off_loop(lines, state, played)
        size = sum(len(k["line"]) for k in kept)
        if self.spent[seat] + size > self.budget:
            self.spent[seat] = self.budget
            return None, notes + [f"analysis not kept from this move on: its lines would pass "
                                  f"{self.budget} characters kept in this game"]
        self.spent[seat] += size
        return kept, notes
