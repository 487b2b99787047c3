"""Fuzz the readers of game records: SGF text (results.record.sgf, results.page.replay: SgfError
only) and journal lines (results.record.journal: JournalError only, or collected when asked)."""
from __future__ import annotations

import json
import os
import random
import tempfile
from contextlib import suppress
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.referee.game.clock import Limits, sgf_time
from hexarena.results.page.replay import replay_record
from hexarena.results.record.game import GameRecord
from hexarena.results.record.moves import moves_of_lists
from hexarena.results.record.journal import JournalError, read_journal
from hexarena.results.record.sgf import SgfError, parse_sgf, sgf_text

from tests.support.fuzz_texts import HUGE, OTHER_DIGITS, fragments, mutated, one_second


@cache
def _reports() -> tuple[GameRecord, ...]:
    """One finished record per game: a dozen random actions, think times and clocks."""
    out = []
    for n, game in enumerate(registry.playable()):
        info = registry.get(game)
        variant = info.variant(4 if game == "vaxandis" else 5)
        state, rng = info.new_game(variant, 0), random.Random(n)
        actions, colours = [], ""
        while state.outcome() is None and len(actions) < 12:
            action = state.random_action(rng)
            actions.append(state.format(action))
            colours += state.to_move.letter
            state = state.play(action)
        outcome = state.outcome() or Outcome(None, Termination.PLY_CAP)
        winner = {None: None, Colour.BLACK: "alpha", Colour.WHITE: "beta"}[outcome.winner]
        out.append(GameRecord(
            id=f"{game}-5/0003", game=game, size=variant.size, variant=info.describe(variant).partition(" ")[2],
            first="alpha", second="beta", black="alpha", white="beta", winner=winner, result=outcome.result(),
            termination=outcome.termination.value, plies=len(actions), reason="ended by the rules",
            started="2026-01-01T00:00:00Z", seconds=1.5, komi=2 if info.uses_komi else None,
            moves=moves_of_lists(actions, [0.25] * len(actions), colours, [9.5] * len(actions))))
    return tuple(out)


@cache
def _records() -> tuple[str, ...]:
    return tuple(sgf_text(r, registry.get(r.game).sgf_number, sgf_time(Limits(main=60, increment=1)))
                 for r in _reports())


def _sgf_words() -> tuple[str, ...]:
    words = {"(", ")", ";", "[", "]", "\\", "\\]", "\n", "SZ[", "XG[", "XK[", "XT[", "B[", "W[", "FF[4]",
             "SZ[5]", "SZ[0]", "SZ[1]", "SZ[14]", "SZ[" + HUGE[0] + "]", *(f"SZ[{d}]" for d in OTHER_DIGITS)}
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


def _journal_line(record: GameRecord, n: int) -> str:
    return replace(record, id=f"g/{n:04d}", sgf=f"games/g/{n:04d}.sgf").to_json()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.floats(allow_nan=True) | st.text(max_size=8)
    | st.sampled_from(HUGE + OTHER_DIGITS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


@st.composite
def journal_lines(draw) -> str:
    report = draw(st.sampled_from(_reports()))
    data = json.loads(_journal_line(report, draw(st.integers(0, 3) | st.integers(0, 9999))))   # ids often twice
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


def _changed(**fields) -> str:
    """The first report's journal line with `fields` replaced (the value `...`: the field removed)."""
    data = json.loads(_journal_line(_reports()[0], 1))
    data.update(fields)
    return json.dumps({k: v for k, v in data.items() if v is not ...})


@given(lines=st.lists(journal_lines(), min_size=1, max_size=4), torn=st.booleans())
@example(lines=["[" * 100_000 + "]" * 100_000], torn=False)      # found by this test: a RecursionError
@example(lines=[_changed(actions=[1, 2, 3])], torn=False)         # fields of the wrong kind, which
@example(lines=[_changed(processes=["a", "b"])], torn=False)      # the readers past the journal met
@example(lines=[_changed(seconds=float("nan"))], torn=False)
@example(lines=[_changed(schema=1, faulty=..., forfeit=...)], torn=False)
@example(lines=[_changed(winner="a"), _changed(winner="b")], torn=False)    # one id twice: the first counts
def test_journal_lines(lines: list[str], torn: bool) -> None:
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write("\n".join(lines) + ("" if torn else "\n"))
        errors: list[JournalError] = []
        with one_second("read_journal, collecting errors"):
            records = read_journal(path, errors)
        with one_second("read_journal, summaries"):
            summaries = read_journal(path, [], summary=True)
        for read in (records, summaries):                                    # one record counted per game
            counted = [r.id for r in read if not r.void]
            assert len(counted) == len(set(counted)), counted
        with one_second("the readers of the records read"):
            _every_reader(records)
        with one_second("read_journal"), suppress(JournalError):
            read_journal(path)
    finally:
        os.unlink(path)


def _every_reader(records: list[GameRecord]) -> None:
    """What the readers of a journal do with the records it gave: the report's and the server's
    entries and rows, the ratings' rows and frame, the identities, the status line's summaries,
    the JSON the server answers with; none may raise on a record the journal let through."""
    from hexarena.results.page.html_report import game_entry
    from hexarena.results.rating.load import games_frame
    from hexarena.results.rating.repeats import RepeatFinder
    from hexarena.results.rating.row import game_row
    from hexarena.results.record.identity import identity_lines
    from hexarena.web.watch import record_row
    repeats = RepeatFinder()
    for record in records:
        repeats.add(record)
        json.dumps(game_entry(record, None), allow_nan=False)
        json.dumps(record_row(record.summary()), allow_nan=False)
        if not record.void:
            game_row(record)
    games_frame([r for r in records if not r.void])
    identity_lines(records)
    repeats.found()


@pytest.mark.xfail(strict=True, reason="the summary reader reads no further than the moves: a field after them, "
                                       "or moves that are not moves, pass it and not the full reader")
def test_the_summary_reader_refuses_what_the_full_reader_refuses(tmp_path) -> None:
    """Found by test_journal_lines: `status` (summaries) and `report` (full records) must count the same games."""
    path = tmp_path / "journal.jsonl"
    path.write_text(_changed(actions=[1, 2, 3]) + "\n", encoding="utf-8")       # a field after the moves
    full, summaries = read_journal(path, []), read_journal(path, [], summary=True)
    assert [r.id for r in summaries] == [r.id for r in full]
