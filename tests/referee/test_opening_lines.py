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
