"""The engine side against numbers of thousands of digits and digits that are not ASCII:
every command answers `? syntax error` (or `? invalid position`) naming the argument, quoting
only its start, and the engine goes on; none answers `? internal error` or dies."""
from __future__ import annotations

import pytest

from hexarena.engine.numbers import SHOWN
from hexarena.players.serve import make_engine

from tests.support.transcript import answer, engine

HUGE = "9" * 5000
SECONDS = "is not seconds (a whole number or a decimal with up to 3 digits after the point, e.g. 4.250)"
CUT = f"{'9' * SHOWN!r}... (5000 characters)"
SPELDE_3 = "spelde {} b .../..../...../..../..."


@pytest.mark.parametrize("line, expected", [
    ("play b a" + HUGE, "? syntax error: row of site a " + CUT + " has more than 20 digits"),
    ("play b komi=" + HUGE, "? syntax error: komi=" + "9" * SHOWN + "... (5000 characters): expected a whole number "
                            ">= 0 of at most 20 digits"),
    ("komi " + HUGE, "? syntax error: komi " + CUT + " has more than 20 digits"),
    ("boardsize " + HUGE, "? syntax error: board size " + CUT + " has more than 20 digits"),
    ("boardsize -" + HUGE, "? syntax error: board size '-" + "9" * (SHOWN - 1) + "'... (5001 characters) has more than "
                           "20 digits"),
    # time words (docs/protocol.md, "Times"): at most 9 digits before the point, the first 40 quoted
    ("time_left b " + HUGE + " 0", f"? syntax error: seconds '{'9' * 40}' " + SECONDS),
    ("time_left b 10 " + HUGE, f"? syntax error: count '{'9' * 40}' is not a whole number >= 0 of at most 9 digits"),
    ("time_settings " + HUGE + " 0 0", f"? syntax error: main '{'9' * 40}' " + SECONDS),
    ("kgs-time_settings fischer 60 " + HUGE, f"? syntax error: increment '{'9' * 40}' " + SECONDS),
    ("set_position " + SPELDE_3.format(HUGE), "? invalid position: size " + CUT + " has more than 20 digits"),
    ("set_position " + SPELDE_3.format(3) + " ply=" + HUGE,
     "? invalid position: ply=" + "9" * SHOWN + "... (5000 characters): expected a whole number >= 0 of at most "
                                             "20 digits"),
])
def test_a_number_of_thousands_of_digits_is_a_syntax_error(line: str, expected: str) -> None:
    eng = engine()
    assert answer(eng, "1 game anda") == "=1 \n\n"
    before = eng.session.current.position()
    assert answer(eng, line) == expected + "\n\n"
    assert eng.session.current.position() == before                       # nothing changed


@pytest.mark.parametrize("digit", ["\u00b2", "\u0663", "\uff15"])
@pytest.mark.parametrize("line, expected", [
    ("komi {}", "? syntax error: komi {!r} is not a whole number >= 0"),
    ("boardsize {}", "? syntax error: board size {!r} is not a whole number"),
    ("time_left b {} 0", "? syntax error: seconds {!r} " + SECONDS),
    ("set_position " + SPELDE_3, "? invalid position: size {!r} is not a whole number >= 0"),
    ("set_position " + SPELDE_3.format(3) + " ply={}", "? invalid position: ply={}: expected a whole number >= 0"),
])
def test_digits_that_are_not_ascii_are_a_syntax_error(digit: str, line: str, expected: str) -> None:
    eng = engine()
    before = eng.session.current.position()
    assert answer(eng, line.format(digit)) == expected.format(digit) + "\n\n"
    assert eng.session.current.position() == before                       # nothing changed


def test_a_command_id_of_thousands_of_digits_is_answered_without_an_id() -> None:
    eng = engine()
    assert answer(eng, HUGE + " protocol_version") == ("? syntax error: command id " + CUT
                                                      + " has more than 1000 digits\n\n")
    assert answer(eng, "7 protocol_version") == "=7 2\n\n"


def test_hexarena_seed_of_thousands_of_digits_is_a_syntax_error() -> None:
    eng = make_engine("random", seed=1)
    assert answer(eng, "1 hexarena-seed " + HUGE) == ("?1 syntax error: seed " + CUT
                                                      + " has more than 20 digits\n\n")
    assert answer(eng, "2 hexarena-seed \u0663") == "?2 syntax error: seed '\u0663' is not a whole number >= 0\n\n"
    assert answer(eng, "3 hexarena-seed 12") == "=3 \n\n"
