"""The SPRT of a running match: fed every journaled record, asked whether to stop, and kept on
disk as ``DIR/sprt.json`` so that the report (:func:`hexarena.results.page.report_sections.sprt_state`) shows
the test's state while the run goes on and after it.

Standard library and :mod:`hexarena.results.sprt` only: the schedule's pair numbers (for
journal lines of schema 1) are handed in by the caller.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from .record.game import GameRecord
from .record.journal import write_atomic
from .sprt import SprtSettings, SprtState, estimate, evaluate_counts, game_points, pair_key


SPRT_FILE = "sprt.json"


class SprtTracker:
    """The test during a run: `add` each journaled record, ask `should_stop` before a pair.

    It keeps counts, and the pairs with one game finished (their game's id and points), never
    the records. Of a game journaled twice without void (which the runner does not write),
    the later record replaces the earlier while its pair waits; once the pair is counted, a
    later record opens it again."""

    def __init__(self, settings: SprtSettings, engine: str, opponent: str, records: Iterable[GameRecord],
                 schedule_pairs: Mapping[str, tuple[str, int, str, int]] | None = None, out: Path | None = None):
        self.settings, self.engine, self.opponent = settings, engine, opponent
        self.schedule_pairs = schedule_pairs
        self.out = out
        self.counts = [0] * 5                  # [LL, LD, WL+DD, WD, WW] of the finished pairs
        self.waiting: dict[tuple, tuple[str, float]] = {}     # pair -> its one finished game: id, points
        self.counted = 0                       # the non-void records
        for r in records:
            self._take(r)
        self.state = self._evaluate()
        #: (verdict, pairs) of the first crossing of a bound: an SPRT stops there, and the pairs in
        #: flight then, finished later, do not take the decision back (kept in sprt.json for a resume)
        self.decided: tuple[str, int] | None = self._decided_before()
        if self.decided is None and self.state.verdict is not None:
            self.decided = (self.state.verdict, sum(self.counts))
        self._save()

    def _evaluate(self) -> SprtState:
        return evaluate_counts(self.settings, list(self.counts))

    def _take(self, r: GameRecord) -> None:
        if r.void:
            return
        self.counted += 1
        key = pair_key(r, self.schedule_pairs) if {r.first, r.second} == {self.engine, self.opponent} else None
        if key is None:
            return
        points = game_points(r, self.engine)
        other = self.waiting.pop(key, None)
        if other is None or other[0] == r.id:
            self.waiting[key] = (r.id, points)
        else:
            self.counts[round((other[1] + points) * 2)] += 1

    def add(self, record: GameRecord) -> str | None:
        """Count a finished game; the new LLR line when it completed a pair, else None."""
        before = sum(self.counts)
        self._take(record)
        if sum(self.counts) == before:
            return None
        try:
            self.state = self._evaluate()
        except ValueError as exc:          # no likelihood maximum found: keep the last state, say so
            return f"SPRT not updated: {exc}"
        if self.decided is None and self.state.verdict is not None:
            self.decided = (self.state.verdict, sum(self.counts))
        self._save()
        return f"{self.settings.line(self.state.llr)} {self.state.counts}"

    def games(self) -> int:
        return self.counted

    def capped(self) -> bool:
        cap = self.settings.max_games
        return cap is not None and self.games() >= cap

    def should_stop(self) -> bool:
        """True once a hypothesis was accepted (and stays so) or `max_games` games are finished."""
        return self.decided is not None or self.capped()

    def decision(self) -> str:
        if self.decided is not None:
            verdict, pairs = self.decided
            later = "" if self.state.verdict == verdict else \
                f" at pair {pairs}; the pairs in flight then, finished since, leave the LLR at {self.state.llr:.2f}"
            return f"{verdict} accepted{later}"
        return "no decision (max_games reached)" if self.capped() else "undecided"

    def summary(self) -> str:
        """The final lines: LLR, pentanomial, Elo, and the decision (when the pairs finished after it
        moved the LLR) or why a test without one stopped."""
        text = self.state.report(self.engine, self.opponent)
        if self.decided is not None and self.state.verdict != self.decided[0]:
            text += "\n" + self.decision()
        elif self.decided is None:
            text += "\nno decision (" + ("max_games reached" if self.capped() else "schedule finished") + ")"
        return text

    def _decided_before(self) -> tuple[str, int] | None:
        """The decision an earlier run of this folder reached (its sprt.json, for the same test)."""
        if self.out is None:
            return None
        try:
            data = json.loads((self.out / SPRT_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        fields = self._fields()
        if not isinstance(data, dict) or any(data.get(k) != fields[k] for k in fields):
            return None
        verdict, pairs = data.get("decided"), data.get("decided at pair")
        if verdict in ("H0", "H1") and type(pairs) is int and 0 < pairs <= sum(self.counts):
            return verdict, pairs
        return None

    def _fields(self) -> dict[str, str]:
        s = self.settings
        return {"test": f"{self.engine} against {self.opponent}",
                "hypotheses": f"H0 elo <= {s.elo0:g}, H1 elo >= {s.elo1:g} ({s.model} Elo)",
                "error rates": f"alpha {s.alpha:g}, beta {s.beta:g}"}

    def finish(self) -> str:
        """The summary, with the state saved as the run ends."""
        self._save(final=True)
        return self.summary()

    def _save(self, final: bool = False) -> None:
        """DIR/sprt.json: what the report shows (nothing without an output folder)."""
        if self.out is None:
            return
        s, state = self.settings, self.state
        decision = self.decision()
        if final and self.decided is None and not self.capped():
            decision = "no decision (schedule finished)"
        data: dict[str, object] = {
            **self._fields(),
            "LLR": s.line(state.llr), "decision": decision,
            "pentanomial [LL, LD, WL+DD, WD, WW]": state.counts, "pairs": sum(state.counts)}
        if self.decided is not None:
            data["decided"], data["decided at pair"] = self.decided
        est = estimate(state.counts)
        if est is not None:
            data["Elo (95%)"] = f"{est.elo:+.1f} [{est.elo_low:+.1f}, {est.elo_high:+.1f}]"
        write_atomic(self.out / SPRT_FILE, json.dumps(data, indent=1) + "\n")
