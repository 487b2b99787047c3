"""HGP 1.1 on the engine side: the clock commands, the bounded `legal_moves`, standard phase words."""
from __future__ import annotations

import pytest

from hexarena.engine.core import Colour
from hexarena.protocol.clock import ClockKind, TimeControl, TimeLeft
from hexarena.protocol.commands import ALL_COMMANDS, ANALYSIS_COMMANDS, MOVE_BYTES, MOVE_LIMIT, PLAY_COMMANDS, \
    bounded_tokens

from tests.support.transcript import answer, engine, run
from tests.support.transcript import PROTOCOL_PHASES as PHASES


def _board(n: int, stones: dict[tuple[int, int], str]) -> str:
    return "/".join("".join(stones.get((c, r), ".") for c in range(2 * n - 1) if abs(c - r) <= n - 1)
                    for r in range(2 * n - 1))


def _long_line() -> str:
    """Spelde n=13: a white line of 16 on row 13 between two black rows; Black's only site next to it is
    the line's end, where 2^16 - 137 = 65399 flip sets split it: under 100000 actions, over 1,000,000 bytes."""
    stones = {(c, r): "b" for c in range(18) for r in (11, 13) if abs(c - r) <= 12}
    stones.update({(c, 12): "w" for c in range(16)})
    return f"spelde 13 b {_board(13, stones)} variant=nopie"


# -- tiers -----------------------------------------------------------------------------

def test_the_two_tiers_split_the_commands_of_protocol_md() -> None:
    assert set(PLAY_COMMANDS).isdisjoint(ANALYSIS_COMMANDS)
    assert "undo" in ANALYSIS_COMMANDS and "undo" not in PLAY_COMMANDS
    assert {"time_settings", "time_left"} <= set(PLAY_COMMANDS)
    out = run(["1 list_commands"])
    assert out.startswith("=1 ") and out.endswith("\n\n")
    assert sorted(out[3:-2].split("\n")) == sorted(ALL_COMMANDS)


# -- bounded answers -------------------------------------------------------------------

@pytest.mark.slow
def test_too_many_moves_by_bytes() -> None:
    eng = engine()
    assert answer(eng, f"1 set_position {_long_line()}") == "=1 \n\n"
    assert answer(eng, "2 legal_moves") == \
        "?2 too many moves: more than 100000 actions or 1000000 bytes\n\n"
    actions = list(eng.session.current.legal_actions())
    assert len(actions) < MOVE_LIMIT                 # the count alone would not refuse it
    state = eng.session.current
    assert sum(len(state.format(a)) + 1 for a in actions) - 1 > MOVE_BYTES


def test_bounded_tokens_at_both_bounds() -> None:
    assert bounded_tokens(["a1"] * MOVE_LIMIT) is not None
    assert bounded_tokens(["a1"] * (MOVE_LIMIT + 1)) is None
    exactly = ["x" * 9] * (MOVE_BYTES // 10)            # 100000 tokens of 9 bytes and 99999 spaces
    assert len(bounded_tokens(exactly) or "") == MOVE_BYTES - 1
    assert bounded_tokens(["x" * (MOVE_BYTES - 2), "y"]) == "x" * (MOVE_BYTES - 2) + " y"
    assert bounded_tokens(["x" * (MOVE_BYTES - 2), "yz"]) is None


# -- clocks ------------------------------------------------------------------------------

@pytest.mark.parametrize("line, control", [
    ("time_settings 300 0 0", TimeControl(ClockKind.ABSOLUTE, main=300)),
    ("time_settings 300 0 5", TimeControl(ClockKind.ABSOLUTE, main=300)),          # B = 0: no byo-yomi
    ("time_settings 0 1 0", TimeControl(ClockKind.NONE)),                          # B > 0, S = 0: untimed
    ("time_settings 600 30 10", TimeControl(ClockKind.CANADIAN, main=600, period=30, stones=10)),
    ("kgs-time_settings none", TimeControl(ClockKind.NONE)),
    ("kgs-time_settings absolute 300", TimeControl(ClockKind.ABSOLUTE, main=300)),
    ("kgs-time_settings byoyomi 60 10 5", TimeControl(ClockKind.BYOYOMI, main=60, period=10, periods=5)),
    ("KGS-TIME_SETTINGS Canadian 60 30 10", TimeControl(ClockKind.CANADIAN, main=60, period=30, stones=10)),
    ("kgs-time_settings fischer 120 5", TimeControl(ClockKind.FISCHER, main=120, increment=5)),
])
def test_time_settings_fill_the_time_control(line: str, control: TimeControl) -> None:
    eng = engine()
    assert answer(eng, f"7 {line}") == "=7 \n\n"
    assert eng.time_control == control


def test_time_left_keeps_each_colour() -> None:
    eng = engine()
    assert run(["1 time_left b 120 0", "2 time_left WHITE 25 3"], eng) == "=1 \n\n=2 \n\n"
    assert eng.time_left == {Colour.BLACK: TimeLeft(120.0, 0), Colour.WHITE: TimeLeft(25.0, 3)}


@pytest.mark.parametrize("line, answer_text", [
    ("kgs-time_settings", "? syntax error: expected kgs-time_settings KIND ..."),
    ("kgs-time_settings hourglass 60", "? syntax error: 'hourglass' is not a time system "
                                       "(none, absolute, byoyomi, canadian, fischer)"),
    ("kgs-time_settings none 5", "? syntax error: expected kgs-time_settings none"),
    ("kgs-time_settings absolute", "? syntax error: expected kgs-time_settings absolute MAIN"),
    ("kgs-time_settings byoyomi 60 10", "? syntax error: expected kgs-time_settings byoyomi MAIN PERIOD PERIODS"),
    ("kgs-time_settings fischer 60 x", "? syntax error: increment 'x' is not seconds (a whole number or a "
                                       "decimal with up to 3 digits after the point, e.g. 4.250)"),
    ("time_settings 300 10", "? syntax error: expected time_settings MAIN BYOYOMI STONES"),
    ("time_left b -1 0", "? syntax error: seconds '-1' is not seconds (a whole number or a "
                         "decimal with up to 3 digits after the point, e.g. 4.250)"),
    ("time_left b 5 -1", "? syntax error: count '-1' is not a whole number >= 0 of at most 9 digits"),
    ("time_left x 1 0", "? syntax error: 'x' is not a colour (black, b, white, w)"),
])
def test_clock_commands_refuse_bad_arguments_exactly(line: str, answer_text: str) -> None:
    eng = engine()
    assert answer(eng, line) == answer_text + "\n\n"
    assert eng.time_control is None and eng.time_left == {}


# -- standard phase names ------------------------------------------------------------------



@pytest.mark.parametrize("game", sorted(PHASES))
def test_an_unknown_phase_word_is_refused_with_the_game_s_phase_words(game: str) -> None:
    stranger = "open" if game in ("anda", "anda-prison", "marbanta") else "pair"
    eng = engine()
    before = answer(eng, "position")
    out = answer(eng, f"1 set_position {game} 2 b ../.../.. phase={stranger}")
    assert out.startswith(f"?1 invalid position: phase={stranger}: "), out
    assert all(word in out for word in PHASES[game]), out
    assert answer(eng, "position") == before
