"""Lines of an openings file: a position string is refused with a clear error (found by mypy: the
check called a game's from_position without its keys and crashed with a TypeError)."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import registry
from hexarena.referee.game.openings import OpeningError, parse_line


def test_a_position_string_is_refused_with_the_reason():
    info = registry.get("spelde")
    state = info.new_game(info.variant(5, ["pie"]), 0)
    rng = random.Random(1)
    for _ in range(3):
        state = state.play(state.random_action(rng))
    with pytest.raises(OpeningError, match="a position string; give the actions"):
        parse_line(state.position(), "spelde", 5, "pie")


def test_a_line_of_actions_is_kept_in_canonical_form():
    info = registry.get("spelde")
    state = info.new_game(info.variant(5, ["pie"]), 0)
    action = next(iter(state.legal_actions()))
    token = state.format(action)
    assert parse_line(token, "spelde", 5, "pie") == (token,)


@pytest.mark.parametrize("line, what", [
    ("a" + "9" * 5000, "action 1 'a9999"),
    ("e5 a" + "9" * 5000, "action 2 'a9999"),
    ("komi=" + "9" * 5000, "action 1 'komi=9999"),
    ("spelde \u00b2 b .../..../...../..../...", "action 1 'spelde'"),
])
def test_a_line_with_a_number_of_thousands_of_digits_or_other_digits_is_an_opening_error(line, what):
    with pytest.raises(OpeningError) as info:
        parse_line(line, "anda" if line.startswith("komi") else "spelde", 5, "pie")
    assert str(info.value).startswith(what) and len(str(info.value)) < 300, info.value


def test_a_config_with_such_an_opening_is_a_config_error(tmp_path):
    from hexarena.referee.tournament import config as C
    path = tmp_path / "openings.txt"
    path.write_text("c3\na" + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(C.ConfigError, match=f"openings.txt:2: on spelde size 5 'pie': action 1 'a9999"):
        C.from_dict({"engines": {"a": {"cmd": ["x"]}, "b": {"cmd": ["y"]}},
                     "games": [{"game": "spelde", "size": 5, "openings": str(path)}]})
