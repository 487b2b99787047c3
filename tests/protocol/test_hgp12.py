"""HGP 1.2 on the engine side: `hgp_version`, decimal time words, `genmove_analyze` and its info-line grammar."""
from __future__ import annotations

import pytest

from hexarena.engine.core import Colour
from hexarena.engine import registry
from hexarena.protocol.analysis import (MAX_LINE_BYTES, MAX_LINES, Analysed, Info, InfoError, checked, parse_info,
                                          split_answer)
from hexarena.protocol.clock import ClockKind, TimeControl, TimeLeft
from hexarena.protocol.clock_commands import seconds_word
from hexarena.protocol.engine_side import EngineSide

from tests.support.transcript import answer, engine, first_legal, run


def test_hgp_version_is_listed_and_answers_1_2() -> None:
    eng = engine()
    assert answer(eng, "3 hgp_version") == "=3 1.2\n\n"
    assert run(["1 known_command hgp_version", "2 known_command genmove_analyze"], eng) == "=1 true\n\n=2 true\n\n"


# -- decimal seconds -------------------------------------------------------------------

@pytest.mark.parametrize("line, control", [
    ("kgs-time_settings fischer 1 0.1", TimeControl(ClockKind.FISCHER, main=1.0, increment=0.1)),
    ("kgs-time_settings fischer 1.000 0.100", TimeControl(ClockKind.FISCHER, main=1.0, increment=0.1)),
    ("kgs-time_settings byoyomi 0.5 0.25 3", TimeControl(ClockKind.BYOYOMI, main=0.5, period=0.25, periods=3)),
    ("time_settings 2.5 0 0", TimeControl(ClockKind.ABSOLUTE, main=2.5)),
    ("time_settings 60 0.750 5", TimeControl(ClockKind.CANADIAN, main=60, period=0.75, stones=5)),
])
def test_decimal_seconds_are_accepted(line: str, control: TimeControl) -> None:
    eng = engine()
    assert answer(eng, f"4 {line}") == "=4 \n\n"
    assert eng.time_control == control


def test_time_left_in_decimal_seconds() -> None:
    eng = engine()
    assert run(["1 time_left b 4.250 0", "2 time_left w 0.1 2"], eng) == "=1 \n\n=2 \n\n"
    assert eng.time_left == {Colour.BLACK: TimeLeft(4.25, 0), Colour.WHITE: TimeLeft(0.1, 2)}


SECONDS = "is not seconds (a whole number or a decimal with up to 3 digits after the point, e.g. 4.250)"


@pytest.mark.parametrize("line, text", [
    ("time_left b 0.9501 0", f"? syntax error: seconds '0.9501' {SECONDS}"),
    ("time_left b 1e3 0", f"? syntax error: seconds '1e3' {SECONDS}"),
    ("time_left b .5 0", f"? syntax error: seconds '.5' {SECONDS}"),
    ("time_left b 5. 0", f"? syntax error: seconds '5.' {SECONDS}"),
    ("time_left b nan 0", f"? syntax error: seconds 'nan' {SECONDS}"),
    ("time_left b ４ 0", f"? syntax error: seconds '４' {SECONDS}"),
    ("time_left b 1234567890 0", f"? syntax error: seconds '1234567890' {SECONDS}"),
    ("time_left b 5 0.5", "? syntax error: count '0.5' is not a whole number >= 0 of at most 9 digits"),
    ("kgs-time_settings byoyomi 60 10 2.5", "? syntax error: periods '2.5' is not a whole number >= 0 "
                                            "of at most 9 digits"),
    ("kgs-time_settings fischer 60 " + "9" * 5000, f"? syntax error: increment '{'9' * 40}' {SECONDS}"),
])
def test_bad_seconds_are_refused_exactly(line: str, text: str) -> None:
    eng = engine()
    assert answer(eng, line) == text + "\n\n"
    assert eng.time_control is None and eng.time_left == {}


@pytest.mark.parametrize("seconds, decimal, setting, word", [
    (4.25, True, False, "4.250"), (0.1, True, True, "0.100"), (1.001, True, False, "1.001"),
    (0.9999, True, False, "0.999"), (0.0004, True, True, "0.001"), (0.0004, True, False, "0.000"),
    (0.0, True, True, "0.000"), (None, True, True, "0.000"), (125.5, True, False, "125.500"),
    (4.25, False, False, "4"), (0.1, False, True, "1"), (0.1, False, False, "0"), (0.0, False, True, "0"),
])
def test_seconds_word_tells_three_digits_or_whole_seconds_rounded_down(
        seconds: float | None, decimal: bool, setting: bool, word: str) -> None:
    assert seconds_word(seconds, decimal, setting) == word


# -- the info-line grammar ---------------------------------------------------------------

def test_an_info_line_is_read_into_its_keys() -> None:
    info = parse_info("info winrate 0.62 visits 4500 depth 9 pv e5 f6 g4")
    assert info == Info(winrate=0.62, visits=4500, depth=9, pv=("e5", "f6", "g4"))
    assert parse_info("info score -3.5 nodes 77 hashfull 0.3") == Info(score=-3.5, other=(("nodes", "77"),
                                                                                          ("hashfull", "0.3")))
    assert parse_info("info pv swap") == Info(pv=("swap",))
    assert parse_info("info   winrate 1   depth 0") == Info(winrate=1.0, depth=0)
    assert parse_info("info winrate 0.5 visits 10 pv e5 f6").as_dict() == {"winrate": 0.5, "visits": 10,
                                                                           "pv": ["e5", "f6"]}
    assert parse_info("info nodes 7").as_dict() == {"other": {"nodes": "7"}}


@pytest.mark.parametrize("line, why", [
    ("info", "at least one key"),
    ("winrate 0.5", "starts with 'info'"),
    ("info winrate 1.5", "outside 0..1"),
    ("info winrate -0.1", "outside 0..1"),
    ("info winrate nan", "not a decimal"),
    ("info winrate 1e-3", "not a decimal"),
    ("info winrate", "has no value"),
    ("info score 2.5 score 3", "appears twice"),
    ("info visits 12.5", "not a whole number"),
    ("info visits -3", "not a whole number"),
    ("info depth 1234567890123456789", "at most 18 digits"),
    ("info visits ٣", "not a whole number"),
    ("info pv", "pv without an action"),
    ("info Winrate 0.5", "not a word"),
    ("info nodes", "has no value"),
    ("info nodes 5 nodes 6", "appears twice"),
    ("info winrate 0.5 pv e5 f6\x01", "not an action token"),
    ("info pv " + "e5 " * 2000, f"more than {MAX_LINE_BYTES} bytes"),
])
def test_a_bad_info_line_is_an_info_error_saying_why(line: str, why: str) -> None:
    with pytest.raises(InfoError, match=why):
        parse_info(line)


def test_split_answer() -> None:
    assert split_answer("e5") == ("e5", [])
    assert split_answer("e5\ninfo winrate 0.5\ninfo pv e5") == ("e5", ["info winrate 0.5", "info pv e5"])


def test_info_line_round_trips() -> None:
    info = Info(winrate=0.6234567, score=-2.0, visits=3, depth=2, pv=("e5", "swap"), other=(("nodes", "9"),))
    assert info.line() == "info winrate 0.6235 score -2 visits 3 depth 2 nodes 9 pv e5 swap"
    assert parse_info(info.line()) == Info(winrate=0.6235, score=-2.0, visits=3, depth=2, pv=("e5", "swap"),
                                           other=(("nodes", "9"),))


# -- genmove_analyze on the engine side ----------------------------------------------------

def _analysing(state, clock):
    action = first_legal(state, clock)
    token = state.format(action)
    lines = tuple(Info(winrate=0.5, visits=i, pv=(token,)) for i in range(MAX_LINES + 3))
    return Analysed(action, lines)


def test_genmove_analyze_answers_the_action_then_at_most_8_info_lines() -> None:
    eng = EngineSide(_analysing)
    out = run(["1 game spelde nopie", "2 boardsize 3", "3 genmove_analyze b"], eng)
    head, _, body = out.rpartition("=3 ")
    lines = body[:-2].split("\n")
    assert lines[0] == "a1" and len(lines) == 1 + MAX_LINES
    assert lines[1:] == [f"info winrate 0.5 visits {i} pv a1" for i in range(MAX_LINES)]
    assert eng.session.current.ply == 1                 # played on its own board, as genmove does
    assert answer(eng, "4 genmove w").count("\n") == 2  # genmove: the action alone


def test_genmove_analyze_of_a_bot_without_info_and_errors() -> None:
    eng = engine()
    assert run(["game spelde nopie", "boardsize 3"], eng) == "= \n\n= \n\n"
    assert answer(eng, "5 genmove_analyze b") == "=5 a1\n\n"
    assert answer(eng, "6 genmove_analyze b") == "?6 illegal move: black is not to move\n\n"
    assert answer(eng, "7 genmove_analyze") == "?7 syntax error: expected genmove_analyze COLOUR\n\n"


# -- what a bot may say: the engine side's check (checked) ------------------------------------

def _spelde3():
    info = registry.get("spelde")
    return info.new_game(info.variant(3, ["nopie"]), 0)


@pytest.mark.parametrize("given, line, problem", [
    (Info(winrate=float("nan"), visits=3), "info visits 3", "winrate nan is not a finite number"),
    (Info(winrate=1.7, depth=2), "info depth 2", "winrate 1.7 is outside 0..1"),
    (Info(winrate=-0.1, depth=2), "info depth 2", "winrate -0.1 is outside 0..1"),
    (Info(winrate="0.5", depth=2), "info depth 2", "winrate '0.5' is not a finite number"),    # type: ignore[arg-type]
    (Info(score=float("inf"), depth=2), "info depth 2", "score inf is not a finite number"),
    (Info(score=1e30, depth=2), "info depth 2", "score 1e+30 has more than 18 digits"),
    (Info(winrate=0.5, visits=-3), "info winrate 0.5", "visits -3 is not a whole number >= 0 of at most 18 digits"),
    (Info(winrate=0.5, visits=10 ** 30), "info winrate 0.5", "visits 1000000000000000000000000000000 is not a whole"),
    (Info(winrate=0.5, depth=True), "info winrate 0.5", "depth True is not a whole number"),      # type: ignore[arg-type]
    (Info(winrate=0.5, depth=2.5), "info winrate 0.5", "depth 2.5 is not a whole number"),       # type: ignore[arg-type]
    (Info(winrate=0.5, pv=("a1\ninfo pv x",)), "info winrate 0.5", "pv: 'a1\\ninfo pv x' is not an action token"),
    (Info(winrate=0.5, pv=("a1 b1",)), "info winrate 0.5", "pv: 'a1 b1' is not an action token"),
    (Info(winrate=0.5, pv=("b1",)), "info winrate 0.5", "pv starts with 'b1', not with the action played, 'a1'"),
    (Info(winrate=0.5, pv=("a1", "a1")), "info winrate 0.5", "pv action 2, 'a1': a1 is occupied"),
    (Info(winrate=0.5, other=(("Nodes", "9"),)), "info winrate 0.5", "key 'Nodes' is not a new word"),
    (Info(winrate=0.5, other=(("visits", "9"),)), "info winrate 0.5", "key 'visits' is not a new word"),
    (Info(winrate=0.5, other=(("nodes", "9 9"),)), "info winrate 0.5", "nodes: '9 9' is not a value"),
    (Info(winrate=0.5, other=(("nodes", "9"),) * 2), "info winrate 0.5 nodes 9", "key 'nodes' is not a new word"),
    (Info(winrate=0.5, other=tuple((f"k{i}", "v" * 40) for i in range(200))), "info winrate 0.5",
     "200 unknown keys make a line of more than 4096 bytes"),
])
def test_what_the_grammar_refuses_is_left_out_with_its_reason(given: Info, line: str, problem: str) -> None:
    kept, problems = checked(given, _spelde3(), "a1")
    assert kept is not None and kept.line() == line and parse_info(line) == kept
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_a_line_with_nothing_left_or_nothing_given_is_no_line() -> None:
    assert checked(Info(), _spelde3(), "a1") == (None, [])
    kept, problems = checked(Info(winrate=2.0), _spelde3(), "a1")
    assert kept is None and problems == ["winrate 2.0 is outside 0..1"]


def test_a_good_line_is_kept_whole() -> None:
    given = Info(winrate=0.25, score=-1.5, visits=7, depth=2, pv=("a1", "e5"), other=(("nodes", "9"),))
    assert checked(given, _spelde3(), "a1") == (given, [])


def test_genmove_analyze_leaves_out_what_is_refused_and_notes_it() -> None:
    notes: list[str] = []

    def sloppy(state, clock):
        action = first_legal(state, clock)
        return Analysed(action, (Info(winrate=float("nan"), visits=5, pv=(state.format(action) + "\n\n=9 x",)),
                                 Info(), Info(depth=1)) + (Info(depth=2),) * MAX_LINES)

    eng = EngineSide(sloppy, note=notes.append)
    out = run(["1 game spelde nopie", "2 boardsize 3", "3 genmove_analyze b"], eng)
    assert out.endswith("=3 a1\ninfo visits 5\ninfo depth 1\n" + "info depth 2\n" * (MAX_LINES - 3) + "\n")
    assert notes == ["genmove_analyze a1: left out: info line 1: winrate nan is not a finite number",
                     "genmove_analyze a1: left out: info line 1: pv: 'a1\\n\\n=9 x' is not an action token "
                     "(printable ASCII, no space)",
                     "genmove_analyze a1: left out: 3 info line(s) after the first 8"]
