"""Fuzz the readers of game records: SGF text (results.sgf_read, results.replay: SgfError only) and
journal lines (results.records: JournalError only, or collected when asked)."""
from __future__ import annotations

import json
import os
import random
import tempfile
from contextlib import suppress
from functools import cache

from hypothesis import example, given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.engine.core import Outcome, Termination
from hexarena.referee.clock import Limits
from hexarena.referee.match import Report
from hexarena.referee.sgf import sgf_text
from hexarena.results.records import GameRecord, JournalError, read_journal
from hexarena.results.replay import replay_record
from hexarena.results.sgf_read import SgfError, parse_sgf

from .texts import HUGE, OTHER_DIGITS, fragments, mutated, one_second


@cache
def _reports() -> tuple[Report, ...]:
    out = []
    for n, game in enumerate(registry.playable()):
        info = registry.get(game)
        variant = info.variant(4 if game == "vaxandis" else 5)
        state, rng = info.new_game(variant, 0), random.Random(n)
        report = Report(info, variant, ("alpha", "beta"), komi=2 if info.uses_komi else None)
        while state.outcome() is None and len(report.actions) < 12:
            action = state.random_action(rng)
            report.actions.append((state.to_move, state.format(action)))
            report.times.append((0.25, 9.5))
            state = state.play(action)
        report.outcome = state.outcome() or Outcome(None, Termination.PLY_CAP)
        out.append(report)
    return tuple(out)


@cache
def _records() -> tuple[str, ...]:
    return tuple(sgf_text(r, f"{r.info.id}-5/0003", Limits(main=60, increment=1)) for r in _reports())


def _sgf_words() -> tuple[str, ...]:
    words = {"(", ")", ";", "[", "]", "\\", "\\]", "\n", "SZ[", "XG[", "XK[", "XT[", "B[", "W[", "FF[4]",
             "SZ[5]", "SZ[" + HUGE[0] + "]", *(f"SZ[{d}]" for d in OTHER_DIGITS)}
    for text in _records():
        words.update(text.replace("]", "]\x00").replace(";", "\x00;").split("\x00"))
    return tuple(sorted(words))


@given(data=st.data())
def test_sgf_records(data: st.DataObject) -> None:
    real = data.draw(st.sampled_from(_records()), label="record")
    pieces = real.replace("]", "]\x00").replace(";", "\x00;").split("\x00")
    text = data.draw(st.one_of(mutated(pieces, _sgf_words(), sep=""), fragments(_sgf_words(), 24)), label="text")
    with one_second("parse_sgf"), suppress(SgfError):
        parse_sgf(text)
    with one_second("replay_record"), suppress(SgfError):
        replay_record(text)


def _journal_line(report: Report, n: int) -> str:
    return GameRecord(id=f"g/{n:04d}", game=report.info.id, size=report.variant.size, variant="pie",
                      first="alpha", second="beta", black=report.name_of(report.outcome.winner or
                                                                          report.actions[0][0]),
                      white="beta", winner=report.winner, result=report.result,
                      termination=report.termination, plies=len(report.actions), reason="ended by the rules",
                      sgf=f"games/g/{n:04d}.sgf", started="2026-01-01T00:00:00Z", seconds=1.5,
                      actions=[t for _, t in report.actions], think=list(report.think)).to_json()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.floats(allow_nan=True) | st.text(max_size=8)
    | st.sampled_from(HUGE + OTHER_DIGITS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


@st.composite
def journal_lines(draw) -> str:
    report = draw(st.sampled_from(_reports()))
    data = json.loads(_journal_line(report, draw(st.integers(0, 9999))))
    for key in draw(st.lists(st.sampled_from(sorted(data)), max_size=3)):
        data[key] = draw(JSON_VALUES)
    for key in draw(st.lists(st.sampled_from(sorted(data)), max_size=2, unique=True)):
        del data[key]
    line = json.dumps(data, ensure_ascii=draw(st.booleans()))
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(fragments(('{"', '":', ",", "}", "[", "]", "null", "NaN", "Infinity", HUGE[0], "\\u0000"), 20))
    if kind == 1:
        return "[" * draw(st.integers(1, 200_000)) + "]"
    if kind == 2:
        cut = draw(st.integers(0, len(line)))
        return line[:cut] + draw(fragments((), 3)) + line[cut:]
    if kind == 3:
        return line.replace(str(data.get("size", 5)), draw(st.sampled_from(HUGE + OTHER_DIGITS)), 1)
    return line


@given(lines=st.lists(journal_lines(), min_size=1, max_size=4), torn=st.booleans())
@example(lines=["[" * 100_000 + "]" * 100_000], torn=False)      # found by this test: a RecursionError
def test_journal_lines(lines: list[str], torn: bool) -> None:
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write("\n".join(lines) + ("" if torn else "\n"))
        errors: list[JournalError] = []
        with one_second("read_journal, collecting errors"):
            read_journal(path, errors)
        with one_second("read_journal"), suppress(JournalError):
            read_journal(path)
    finally:
        os.unlink(path)
