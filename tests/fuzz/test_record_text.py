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

from hypothesis import example, given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.referee.game.clock import Limits, sgf_time
from hexarena.results.page.replay import replay_record
from hexarena.results.record.game import GameRecord
from hexarena.results.record.moves import moves_of_lists, moves_text
from hexarena.results.record.journal import JournalError, parse_line, parse_summary, read_journal
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
        assert summaries == [r.summary() for r in records]                   # the same lines, the same games
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


def _analysed(record: GameRecord, seed: int) -> GameRecord:
    """`record` with each move's analysis as the referee keeps it: info lines with every key of
    protocol.analysis.Info.as_dict, some moves without analysis, one pv with a non-ASCII token."""
    rng = random.Random(seed)
    moves = []
    for n, m in enumerate(record.moves or ()):
        pv = [m.action] * rng.randint(1, 4) + (["\u00e9\u2028"] if n == 3 else [])
        info = {"line": f"info winrate 0.5 pv {' '.join(pv)}", "winrate": 0.5, "score": -3.25, "visits": 10 ** 17,
                "depth": 7, "pv": pv, "other": {"nodes": "12", "hashfull": "3e-05"}}
        moves.append(replace(m, analysis=None if n % 3 == 2 else (info,) * rng.randint(0, 2)))
    return replace(record, moves=tuple(moves))


#: Pieces a crafted moves text is made of: JSON's words and escapes, keys, numbers past every bound.
MOVES_WORDS = ('{"a": "c3"}', '"a"', '"c"', '"t"', '"l"', '"i"', '"line"', '"pv"', '"other"', '"winrate"', ": ",
               ", ", "{", "}", "[", "]", '"', "\\", '\\"', "\\u00e9", "\\ud800", "\\x", "\\u12", "null", "true",
               "NaN", "-Infinity", "1e999", "-0", "01", "1.", ".5", "1e", "\t", "\r\n", "\x00", "\x1f", "\x7f",
               "\u00e9", '"moves": ', ', "moves": null', ', "actions": [1, 2, 3]', *HUGE)


@st.composite
def crafted_lines(draw) -> bytes:
    """A journal line whose moves (or the text after them) are changed: values of the wrong kind,
    keys unknown, twice or out of order, fields after the moves, JSON broken anywhere in the moves,
    bytes that are not UTF-8, numbers past every bound, deep nesting."""
    report = _analysed(draw(st.sampled_from(_reports())), draw(st.integers(0, 9)))
    data = json.loads(report.to_json())
    kind = draw(st.integers(0, 7))
    if kind == 0 and data["moves"]:                   # a value of a move, or of one of its info lines
        move = draw(st.sampled_from(data["moves"]))
        target = draw(st.sampled_from([move, *move.get("i", ())]))
        target[draw(st.sampled_from(sorted(target) + ["x", "a", "line", "c"]))] = draw(JSON_VALUES)
    elif kind == 1 and data["moves"]:                 # a move's keys reordered or dropped
        i = draw(st.integers(0, len(data["moves"]) - 1))
        keys = draw(st.permutations(sorted(data["moves"][i])))
        data["moves"][i] = {k: data["moves"][i][k] for k in keys[:draw(st.integers(0, len(keys)))]}
    elif kind == 2:                                   # the moves replaced, or a field after them
        if draw(st.booleans()):
            data["moves"] = draw(JSON_VALUES)
        else:
            data[draw(st.sampled_from(sorted(data) + ["x", "actions"]))] = draw(JSON_VALUES)
    line = json.dumps(data, ensure_ascii=draw(st.booleans()), allow_nan=True).encode("utf-8", "surrogatepass")
    cut = line.find(b', "moves": ')
    if kind >= 3:                                     # text changed at a place at or after the moves' key
        at = draw(st.integers(max(cut, 0), len(line)))
        piece = draw(st.one_of(fragments(MOVES_WORDS, 4).map(lambda t: t.encode("utf-8", "surrogatepass")),
                               st.binary(max_size=4), st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80"))))
        drop = draw(st.integers(0, 3)) if kind >= 5 else 0
        line = line[:at] + piece + line[at + drop:]
    if kind == 7:
        line = line.replace(b', "moves": [', b', "moves": ' + b"[" * draw(st.integers(1, 3000)) + b"[", 1)
    return line + draw(st.sampled_from((b"\n", b"", b" \r\n", b"\t\n")))


def _read(parse, line: bytes) -> GameRecord | str:
    try:
        return parse(line)
    except (ValueError, TypeError) as exc:
        return f"refused: {type(exc).__name__}"


@given(line=crafted_lines())
@example(line=_changed(actions=[1, 2, 3]).encode())                        # a field after the moves
@example(line=_changed(moves=[{"a": 5}]).encode())                         # moves that are not moves
@example(line=_changed(moves=[{"a": "c3", "t": 1}]).encode().replace(b'"t": 1', b'"t": ' + b"9" * 4400))  # int():
# at most 4,300 digits
@example(line=_changed(moves=[{"a": "c3", "i": [{"line": "x"}]}]).encode().replace(
    b'"line": "x"', b'"line": "x", "line": 5'))                            # a key twice: the last counts
def test_summary_reader_agrees_with_the_full_reader(line: bytes) -> None:
    """The summary reader accepts exactly the lines the full reader accepts, and reads each as
    the full record's summary: `status` and `ratings` count the games `report` counts."""
    with one_second("parse_line"):
        full = _read(parse_line, line)
    with one_second("parse_summary"):
        summary = _read(parse_summary, line)
    if isinstance(full, GameRecord):
        assert summary == full.summary(), (summary, line[:300])
    else:
        assert isinstance(summary, str), (full, line[:300])


def test_the_summary_reader_refuses_what_the_full_reader_refuses(tmp_path) -> None:
    """Found by test_journal_lines: `status` (summaries) and `report` (full records) must count the same games."""
    path = tmp_path / "journal.jsonl"
    lines = [_changed(actions=[1, 2, 3]), _changed(moves=[{"a": 5}]), _changed(moves=[{"a": "c3", "x": 1}]),
             _changed(moves=[{"a": "c3", "i": [{"pv": ["c3"]}]}]), _journal_line(_analysed(_reports()[1], 1), 7)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    full, summaries = read_journal(path, []), read_journal(path, [], summary=True)
    assert [r.id for r in full] == ["g/0007"]
    assert summaries == [r.summary() for r in full]


def test_the_summary_reader_reads_the_writers_lines_without_decoding_their_moves() -> None:
    """Every move the referee writes (analysis with every key, non-ASCII text, escapes) is in the
    form moves_text() matches, so a summary never pays for decoding the moves."""
    for n, report in enumerate(_reports()):
        line = _analysed(replace(report, reason='a "quoted" \\ reason\n\u00e9'), n).to_json().encode()
        cut = line.find(b', "moves": ')
        assert moves_text().fullmatch(line + b"\n", cut + len(b', "moves": ')), line[cut:cut + 300]
        bare = replace(report, moves=None).to_json().encode()
        assert moves_text().fullmatch(bare, bare.find(b', "moves": ') + len(b', "moves": '))


def test_a_writers_line_is_sealed_and_any_change_of_its_moves_breaks_the_seal() -> None:
    """The seal (a CRC-32 of the moves' text) lets the summary reader skip the moves' scan for the
    lines the referee wrote; a change anywhere in the moves, or after them, no longer matches it, and
    such a line is read as an unsealed one (test_summary_reader_agrees_with_the_full_reader)."""
    from hexarena.results.record.journal import _sealed
    for n, report in enumerate(_reports()):
        line = _analysed(report, n).to_json().encode() + b"\n"
        cut = line.find(b', "moves": ')
        seal = json.loads(line)["seal"]
        assert _sealed(line, cut, seal)
        for at in range(cut + len(b', "moves": '), len(line) - 1, max(1, (len(line) - cut) // 50)):
            changed = line[:at] + (b"x" if line[at:at + 1] != b"x" else b"y") + line[at + 1:]
            assert not _sealed(changed, cut, seal), at
        assert not _sealed(line.replace(b"}\n", b', "x": 1}\n'), cut, seal)
