"""engine.numbers, and every engine parser of outside text with a number of thousands of digits
and with digits that are not ASCII (`str.isdigit` accepts `²` and `٣`; `int()` refuses the first
with a bare ValueError and reads the second as 3)."""
from __future__ import annotations

import pytest

from hexarena.engine import registry
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition
from hexarena.engine.geometry import hexagon
from hexarena.engine.numbers import MAX_DIGITS, SHOWN, decimal, integer, signed_decimal, whole
from hexarena.engine.position import parse_position

HUGE = "9" * 5000                   # past int()'s 4,300-digit limit
OTHER_DIGITS = ["\u00b2", "\u0663", "\uff15", "\u0967"]    # superscript two, Arabic-Indic 3, fullwidth 5, Devanagari 1


def _short(exc: pytest.ExceptionInfo) -> str:
    text = str(exc.value)
    assert len(text) < 200, text           # a hostile text is quoted in part, not in full
    return text


# -- the readers -------------------------------------------------------------------------------

def test_whole_reads_ascii_digits_up_to_the_bound() -> None:
    assert whole("0", "n") == 0 and whole("007", "n") == 7
    assert whole("9" * MAX_DIGITS, "n") == 10 ** MAX_DIGITS - 1
    assert whole("123", "n", digits=3) == 123


@pytest.mark.parametrize("text", ["", " 1", "1 ", "+1", "-1", "1.0", "1e3", "1_000", "x", *OTHER_DIGITS])
def test_whole_refuses_what_is_not_ascii_digits(text: str) -> None:
    with pytest.raises(InvalidNotation, match=r"^komi .* is not a whole number >= 0$"):
        whole(text, "komi")


def test_whole_refuses_more_digits_than_the_bound_quoting_a_part() -> None:
    with pytest.raises(InvalidNotation) as info:
        whole(HUGE, "komi")
    assert _short(info) == f"komi {'9' * SHOWN!r}... (5000 characters) has more than {MAX_DIGITS} digits"
    with pytest.raises(InvalidNotation, match="more than 3 digits"):
        whole("1234", "n", digits=3)
    with pytest.raises(InvalidNotation, match="more than 20 digits"):
        whole("0" * 21, "n")                    # leading zeros count


def test_the_error_kind_and_the_key_form_are_the_callers() -> None:
    with pytest.raises(InvalidPosition, match=r"^ply=x: expected a whole number >= 0$"):
        whole("x", "ply=", InvalidPosition)
    with pytest.raises(InvalidPosition, match=rf"^ply=9{{{SHOWN}}}\.\.\. \(5000 characters\): expected a whole number "
                                              r">= 0 of at most 20 digits$"):
        whole(HUGE, "ply=", InvalidPosition)


def test_integer_takes_a_sign() -> None:
    assert integer("-5", "n") == -5 and integer("+5", "n") == 5 and integer("5", "n") == 5
    for bad in ("", "-", "+-5", "5-", "\u0663", "-\u00b2", "--5"):
        with pytest.raises(InvalidNotation, match="is not a whole number$"):
            integer(bad, "n")
    with pytest.raises(InvalidNotation, match="more than 20 digits"):
        integer("-" + HUGE, "n")


def test_decimal_reads_digits_with_one_point() -> None:
    assert decimal("12", "t") == 12.0 and decimal("0.25", "t") == 0.25
    for bad in ("", ".5", "5.", "1.2.3", "-1", "1e3", "inf", "nan", "1_0", " 1", "\u0663.5", "1.\u00b2"):
        with pytest.raises(InvalidNotation, match="is not a decimal number >= 0$"):
            decimal(bad, "t")
    with pytest.raises(InvalidNotation, match="more than 20 digits"):
        decimal("1." + HUGE, "t")
    assert decimal("1." + "5" * 19, "t") == 1.5555555555555556     # 20 digits in all


def test_signed_decimal_takes_one_sign_then_reads_as_decimal() -> None:
    assert signed_decimal("-12.5", "t") == -12.5 and signed_decimal("+3", "t") == 3.0
    assert signed_decimal("0.25", "t") == 0.25
    for bad in ("", "-", "--1", "+-1", "1e3", "-inf", "nan", "- 1", "\u0663"):
        with pytest.raises(InvalidNotation, match="is not a decimal number$"):
            signed_decimal(bad, "t")
    with pytest.raises(InvalidNotation, match="elo=-1000: expected a decimal number of at most 3 digits"):
        signed_decimal("-1000", "elo=", digits=3)


# -- the engine's parsers of outside text ------------------------------------------------------

@pytest.mark.parametrize("game", registry.playable())
def test_a_site_with_thousands_of_digits_is_a_syntax_error_in_every_game(game: str) -> None:
    info = registry.get(game)
    state = info.new_game(info.variant(5), 0)
    with pytest.raises(InvalidNotation) as exc:
        state.parse("a" + HUGE)
    assert "row of site a" in _short(exc)
    with pytest.raises(IllegalMove, match="off the board"):
        state.parse("a" + "9" * MAX_DIGITS)         # well formed, off the board


def test_every_token_form_with_a_huge_row_is_a_syntax_error() -> None:
    board, cell = hexagon(5), "a" + HUGE
    with pytest.raises(InvalidNotation):
        board.parse(cell)
    forms = {"anda-prison": ["e5," + cell, cell + ",e5"], "spelde": ["e5/" + cell, cell + "/e5"],
             "vaxandis": ["e5-" + cell, cell + "-e5"], "marbanta": ["e5:" + cell, cell + ":e5"]}
    for game, tokens in forms.items():
        state = registry.get(game).new_game(registry.get(game).variant(5), 0)
        for token in tokens:
            with pytest.raises(InvalidNotation):
                state.parse(token)


def test_a_komi_offer_of_thousands_of_digits_is_a_syntax_error() -> None:
    for game in ("anda", "anda-prison"):
        info = registry.get(game)
        state = info.new_game(info.variant(5), 0)
        with pytest.raises(InvalidNotation) as exc:
            state.parse("komi=" + HUGE)
        assert _short(exc).startswith("komi=99999")


def _initial(game: str, size: int = 3) -> str:
    info = registry.get(game)
    return info.new_game(info.variant(size), 0).position()


def _with_size(text: str, size: str) -> str:
    fields = text.split()
    fields[1] = size
    return " ".join(fields)


@pytest.mark.parametrize("size", [HUGE, *OTHER_DIGITS])
def test_a_position_size_must_be_ascii_digits_of_bounded_length(size: str) -> None:
    with pytest.raises(InvalidPosition, match="^size ") as exc:
        parse_position(_with_size(_initial("spelde"), size))
    _short(exc)


@pytest.mark.parametrize("game, key", [(g, k.name) for g in registry.playable()
                                       for k in registry.get(g).keys if k.default[:1].isdigit()])
@pytest.mark.parametrize("value", [HUGE, *OTHER_DIGITS])
def test_every_numeric_position_key_of_every_game_refuses_huge_and_other_digits(game: str, key: str,
                                                                                value: str) -> None:
    text = f"{_initial(game)} {key}={value if key != 'prison' else value + ',0'}"
    with pytest.raises(InvalidPosition, match=f"^{key}") as exc:
        registry.from_position(text)
    _short(exc)
    if key == "prison":
        with pytest.raises(InvalidPosition, match="^prison of white"):
            registry.from_position(f"{_initial(game)} prison=0,{value}")


def test_the_numeric_keys_are_those_expected() -> None:
    numeric = {(g, k.name) for g in registry.playable() for k in registry.get(g).keys if k.default[:1].isdigit()}
    assert numeric >= {("anda", "komi"), ("anda", "ply"), ("anda-prison", "prison"), ("spelde", "ply"),
                       ("vaxandis", "ply"), ("marbanta", "ply")}


def test_a_vaxandis_height_of_thousands_of_digits_is_refused() -> None:
    board = "b" + HUGE + "./.../.."
    with pytest.raises(InvalidPosition, match="^row 1: height") as exc:
        parse_position(f"vaxandis 2 b {board}")
    _short(exc)
    assert parse_position("vaxandis 2 b b12./.../..").stacks[0][1] == 12
