"""Fuzz the engine's parsers of outside text, per game: action tokens and position strings.

A token is an action or InvalidNotation / IllegalMove; a position string is a state or
InvalidPosition; what is accepted round-trips through its canonical text (and a state
accepted as written answers outcome())."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition

from tests.support.fuzz_games import positions, states, tokens
from tests.support.fuzz_texts import fragments, mutated, one_second

GAMES = registry.playable()


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_action_tokens(game: str, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(states(game)), label="state")
    token = data.draw(st.one_of(fragments(tokens(game)), mutated(list(data.draw(st.sampled_from(tokens(game)))),
                                                                  tokens(game), sep="")), label="token")
    with one_second("parse"):
        try:
            action = state.parse(token)
        except (InvalidNotation, IllegalMove):
            return
    assert state.parse(state.format(action)) == action


def _words(game: str) -> tuple[str, ...]:
    words = {w for p in positions(game) for w in p.split()} | {"b", "w", *GAMES}
    words |= {row for p in positions(game) for row in p.split()[3].split("/")}
    words |= {f"{name}=" for name in registry.get(game).position_defaults()}
    return tuple(sorted(words))


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_position_strings(game: str, data: st.DataObject) -> None:
    real = data.draw(st.sampled_from(positions(game)), label="position")
    text = data.draw(st.one_of(mutated(real.split(), _words(game)), fragments(_words(game))), label="text")
    with one_second("from_position"):
        try:
            state = registry.from_position(text)
        except InvalidPosition:
            return
    with one_second("position and outcome"):
        again = registry.from_position(state.position())
        assert again == state and again.position() == state.position()
        state.outcome()
