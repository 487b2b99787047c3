"""GTP v2 framing of the engine side, as docs/protocol.md states it: transcript rules.

Each case is one concrete rule: input lines fed to a fresh engine, the exact
bytes expected on its stdout.
"""
from __future__ import annotations

import pytest

from hexarena.engine.numbers import SHOWN
from hexarena.protocol.commands import ALL_COMMANDS
from hexarena.protocol.engine_side import COMMANDS
from hexarena.protocol.framing import Command, format_response, parse_command, preprocess

from tests.support.transcript import answer, engine, run

RULES: list[tuple[str, list[str], str]] = [
    # ids and the = / ? marks
    ("id echoed on success", ["7 protocol_version"], "=7 2\n\n"),
    ("no id, no echo", ["protocol_version"], "= 2\n\n"),
    ("id zero is an id", ["0 protocol_version"], "=0 2\n\n"),
    ("large id echoed", ["123456789012345678901234567890 protocol_version"],
     "=123456789012345678901234567890 2\n\n"),
    ("an id of a thousand digits echoed", ["9" * 1000 + " protocol_version"], f"={'9' * 1000} 2\n\n"),
    ("an id of thousands of digits is a syntax error, answered without an id", ["9" * 5000 + " protocol_version"],
     f"? syntax error: command id {'9' * SHOWN!r}... (5000 characters) has more than 1000 digits\n\n"),
    ("leading zeros: the id is echoed exactly, digit for digit", ["007 protocol_version"], "=007 2\n\n"),
    ("an id of zeros echoed as sent", ["00 frobnicate"], "?00 unknown command\n\n"),
    ("failure echoes the id", ["5 frobnicate"], "?5 unknown command\n\n"),
    ("failure without id", ["frobnicate"], "? unknown command\n\n"),
    ("empty answer is '=' id space then the empty line", ["3 clear_board"], "=3 \n\n"),
    ("answers come in order", ["1 protocol_version", "2 frobnicate", "3 known_command play"],
     "=1 2\n\n?2 unknown command\n\n=3 true\n\n"),
    # what is not an id
    ("a negative number is a command name", ["-1 protocol_version"], "? unknown command\n\n"),
    ("digits then letters is a command name", ["1a protocol_version"], "? unknown command\n\n"),
    ("non-ASCII digits are not an id", ["\u0661 protocol_version"], "? unknown command\n\n"),
    ("an id alone is a syntax error", ["12"], "?12 syntax error: no command after the id\n\n"),
    # preprocessing
    ("empty line: no response", ["", "1 protocol_version"], "=1 2\n\n"),
    ("blank line of spaces: no response", ["   ", "1 protocol_version"], "=1 2\n\n"),
    ("blank line of tabs: no response", ["\t\t", "1 protocol_version"], "=1 2\n\n"),
    ("comment line: no response", ["# a comment", "1 protocol_version"], "=1 2\n\n"),
    ("comment after spaces: no response", ["   # indented", "1 protocol_version"], "=1 2\n\n"),
    ("trailing comment cut", ["1 protocol_version # trailing"], "=1 2\n\n"),
    ("comment cuts the arguments", ["1 known_command #play"],
     "?1 syntax error: expected known_command NAME\n\n"),
    ("comment right after the name", ["1 protocol_version#x"], "=1 2\n\n"),
    ("HT separates words", ["1\tknown_command\tplay"], "=1 true\n\n"),
    ("leading and trailing HT", ["\t1 name\t"], "=1 testbot\n\n"),
    ("CR LF accepted", ["1 protocol_version\r\n"], "=1 2\n\n"),
    ("LF at the end accepted", ["1 protocol_version\n"], "=1 2\n\n"),
    ("CR inside dropped", ["1 proto\rcol_version"], "=1 2\n\n"),
    ("SOH dropped", ["1 proto\x01col_version"], "=1 2\n\n"),
    ("NUL dropped", ["1 protocol_version\x00"], "=1 2\n\n"),
    ("DEL dropped", ["1 protocol\x7f_version"], "=1 2\n\n"),
    ("ESC dropped", ["\x1b1 protocol_version"], "=1 2\n\n"),
    ("only control characters: no response", ["\x01\x02\r", "1 protocol_version"], "=1 2\n\n"),
    ("many spaces between words", ["1    known_command     play"], "=1 true\n\n"),
    # command names and standard words
    ("command names are case-insensitive", ["1 PROTOCOL_VERSION"], "=1 2\n\n"),
    ("known_command true", ["1 known_command genmove"], "=1 true\n\n"),
    ("known_command false", ["1 known_command frobnicate"], "=1 false\n\n"),
    ("known_command needs a name", ["1 known_command"], "?1 syntax error: expected known_command NAME\n\n"),
    ("name", ["1 name"], "=1 testbot\n\n"),
    ("version", ["1 version"], "=1 9.9\n\n"),
    ("unacceptable size", ["1 boardsize 99"], "?1 unacceptable size: side 99 outside 2..13\n\n"),
    ("boardsize of a word is a syntax error", ["1 boardsize abc"],
     "?1 syntax error: board size 'abc' is not a whole number\n\n"),
    ("boardsize of other digits is a syntax error", ["1 boardsize \u0665"],
     "?1 syntax error: board size '\u0665' is not a whole number\n\n"),
    ("boardsize of thousands of digits is a syntax error", ["1 boardsize " + "9" * 5000],
     f"?1 syntax error: board size {'9' * SHOWN!r}... (5000 characters) has more than 20 digits\n\n"),
    ("cannot undo", ["1 undo"], "?1 cannot undo\n\n"),
    ("cannot score", ["1 final_score"], "?1 cannot score: the game is not over\n\n"),
    ("quit answers empty", ["9 quit"], "=9 \n\n"),
]


@pytest.mark.parametrize("lines,expected", [(lines, out) for _, lines, out in RULES],
                         ids=[name for name, _, _ in RULES])
def test_transcript_rule(lines: list[str], expected: str) -> None:
    assert run(lines) == expected


def test_at_least_thirty_rules() -> None:
    assert len(RULES) >= 30


def test_list_commands_is_multiline_without_empty_line() -> None:
    out = answer(engine(), "4 list_commands")
    assert out.startswith("=4 ") and out.endswith("\n\n")
    body = out[3:-2]
    assert "\n\n" not in body
    assert body.split("\n") == list(COMMANDS)


def test_list_commands_has_every_protocol_command() -> None:
    expected = {"protocol_version", "name", "version", "known_command", "list_commands", "quit",
                "list_games", "game", "boardsize", "clear_board", "komi", "play", "genmove", "undo",
                "showboard", "legal_moves", "legal_cells", "position", "set_position", "final_score",
                "time_settings", "time_left", "kgs-time_settings", "hgp_version", "genmove_analyze"}
    assert set(COMMANDS) == expected == set(ALL_COMMANDS)
    eng = engine()
    for name in expected:
        assert answer(eng, f"known_command {name}") == "= true\n\n"


def test_showboard_is_multiline_without_empty_line() -> None:
    out = answer(engine(), "2 showboard")
    assert out.startswith("=2 ") and out.endswith("\n\n") and not out.endswith("\n\n\n")
    assert out[:-2].count("\n") >= 3
    assert "\n\n" not in out[:-2]


def test_quit_sets_finished() -> None:
    eng = engine()
    assert not eng.finished
    answer(eng, "1 protocol_version")
    assert not eng.finished
    assert answer(eng, "2 quit") == "=2 \n\n"
    assert eng.finished


def test_internal_error_keeps_engine_alive() -> None:
    def broken(state, seconds):
        raise RuntimeError("boom\nsecond line")

    eng = engine(broken)
    out = answer(eng, "3 genmove b")
    assert out == "?3 internal error: RuntimeError: boom second line\n\n"
    assert answer(eng, "4 protocol_version") == "=4 2\n\n"


def test_every_response_ends_in_exactly_one_empty_line() -> None:
    eng = engine()
    for line in ["1 protocol_version", "2 list_commands", "3 showboard", "4 legal_cells",
                 "5 position", "6 frobnicate", "7 game", "8 clear_board"]:
        out = answer(eng, line)
        assert out.endswith("\n\n") and not out.endswith("\n\n\n"), out
        assert "\n\n" not in out[:-2], out


# -- the framing functions themselves ----------------------------------------------

def test_preprocess() -> None:
    assert preprocess("  a\tb  # c") == "a b"
    assert preprocess("#") is None
    assert preprocess("\r\n") is None
    assert preprocess("x\x07y") == "xy"


def test_parse_command() -> None:
    assert parse_command("12 Play B e5") == Command("12", "play", ("B", "e5"))
    assert parse_command("007 name") == Command("007", "name", ())
    assert parse_command("genmove w") == Command(None, "genmove", ("w",))
    assert parse_command(" # nothing") is None


def test_format_response_removes_empty_lines_inside() -> None:
    assert format_response(3, True, "a\n\nb\n") == "=3 a\nb\n\n"
    assert format_response(None, False, "illegal move: x  ") == "? illegal move: x\n\n"
    assert format_response(1, True, "row\n   \nrow") == "=1 row\nrow\n\n"
