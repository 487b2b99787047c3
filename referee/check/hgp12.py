"""`hexarena check`: the HGP 1.2 commands, graded when the engine lists them (docs/protocol.md).

* `hgp_version`: the answer is a version `MAJOR.MINOR`, at least 1.2 (the
  command is HGP 1.2's); the engine is then told decimal seconds, which it
  must accept: `time_settings`, `time_left` (and `kgs-time_settings` when
  listed) with three decimals are checked right after it.
* `genmove_analyze`: three checks on one answer. The action (its first
  line) as `genmove`'s: a legal action in canonical form, or `resign`; the
  info lines by the protocol's grammar, their values in range, at most
  :data:`~hexarena.protocol.analysis.MAX_LINES` of them
  (:func:`~hexarena.protocol.analysis.parse_info`); each `pv` starts with the
  action played and is a line of legal canonical actions
  (:func:`~hexarena.protocol.analysis.check_pv`, as the referee reads it in a game).
  The referee drops a bad info line in a game; the checker fails it, so the
  author learns of it.
"""
from __future__ import annotations

import re

from hexarena.engine.game import GameState
from hexarena.protocol.analysis import MAX_LINES, InfoError, check_pv, parse_info, split_answer

from .grading import ANALYSIS, Checker
from .steps import judge_action

__all__ = ["hgp_version", "genmove_analyze"]

_VERSION = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})\Z", re.ASCII)


def _version(text: str) -> str | None:
    m = _VERSION.match(text.strip())
    if not m:
        return "not a version MAJOR.MINOR such as 1.2"
    if (int(m.group(1)), int(m.group(2))) < (1, 2):
        return "a version before 1.2 (hgp_version is a command of HGP 1.2)"
    return None


async def hgp_version(c: Checker) -> None:
    """`hgp_version` and the decimal seconds that listing it asks the engine to accept."""
    if not c.has("hgp_version"):
        return
    await c.ok("hgp_version", "hgp_version", judge=_version)
    await c.ok("time_settings (decimal seconds)", "time_settings", "1.500", "0", "0", tier=ANALYSIS)
    await c.ok("time_left (decimal seconds)", "time_left", "black", "0.950", "0", tier=ANALYSIS)
    if c.has("kgs-time_settings"):
        await c.ok("kgs-time_settings (decimal seconds)", "kgs-time_settings", "fischer", "1.000", "0.100",
                   tier=ANALYSIS)


async def genmove_analyze(c: Checker, check: str, state: GameState) -> GameState | None:
    """Ask for a move with `genmove_analyze` (when listed); the state after its action (the
    same state after `resign`), None when it is not asked or its action fails."""
    if not c.has("genmove_analyze"):
        return None
    ok, text = await c.ask(check, "genmove_analyze", state.to_move.word)
    if not ok:
        c.verdict(False, check, f"refused: ? {text}", ANALYSIS)
        return None
    first, lines = split_answer(text)
    problem, after = judge_action(state, first)
    c.verdict(problem is None, check, f"{problem}; seen {first[:60]!r}" if problem else f"= {first}", ANALYSIS)
    if after is None:
        return None
    grammar, lines_pv = [], []
    if len(lines) > MAX_LINES:
        grammar.append(f"{len(lines)} info lines, at most {MAX_LINES}")
    for number, line in enumerate(lines, 1):
        try:
            info = parse_info(line)
        except InfoError as exc:
            grammar.append(f"info line {number}: {exc}")
            continue
        if info.pv:
            lines_pv.append((number, info.pv))
    shown = f"{len(lines)} info line(s)" + (f": {lines[0]}" if lines else " (none is required)")
    c.verdict(not grammar, f"{check} info", "; ".join(grammar) or shown, ANALYSIS)
    if lines_pv:
        wrong = []
        for number, pv in lines_pv:
            try:
                check_pv(pv, state, first)
            except InfoError as exc:
                wrong.append(f"info line {number}: {exc}")
        c.verdict(not wrong, f"{check} pv", "; ".join(wrong) or " ".join(lines_pv[0][1]), ANALYSIS)
    return after
