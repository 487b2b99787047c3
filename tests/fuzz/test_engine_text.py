"""Fuzz the engine's parsers of outside text, per game: action tokens and position strings.

A token is an action or InvalidNotation / IllegalMove; a position string is a state or
InvalidPosition; what is accepted round-trips through its canonical text (and a state
accepted as written answers outcome())."""
from __future__ import annotations

from itertools import islice

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


#: The most legal actions listed of one state: a Spelde position can have millions (subsets of
#: flips), more than a second to list; past this the fresh state's actions are only played.
LISTED = 20_000
#: Starts kept because a played state once differed from its own position parsed afresh.
KEPT_STARTS = {"marbanta": ("marbanta 4 b w..w/..b../...w../.w...../.w..../..bw./.... phase=pie",),
               "spelde": ("spelde 5 w b.b.b/.b..w./b.ww.bw/bbb.b.w./w.ww.b..w/bbbww.b./bbbbb.b/.bbb../bbb.w ply=39",)}


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_played_positions(game: str, data: st.DataObject) -> None:
    """From a position (real, kept or mutated and accepted), a few legal plies: after each, the
    played state and its own position parsed afresh list the same legal actions, and an action
    the fresh one lists is one the played one plays (no cache of the played state goes stale)."""
    starts = positions(game) + KEPT_STARTS.get(game, ())
    text = data.draw(st.one_of(st.sampled_from(starts), st.sampled_from(starts).flatmap(
        lambda p: mutated(p.split(), _words(game)))), label="start")
    try:
        state = registry.from_position(text)
    except InvalidPosition:
        return
    for _ in range(data.draw(st.integers(1, 6), label="plies")):
        with one_second("legal actions"):
            legal = list(islice(state.legal_actions(), LISTED))
        if state.outcome() is not None or not legal:
            return
        state = state.play(legal[data.draw(st.integers(0, len(legal) - 1), label="ply")])
        fresh = registry.from_position(state.position())
        with one_second("legal actions, played and fresh"):
            mine = sorted(state.format(a) for a in islice(state.legal_actions(), LISTED + 1))
            theirs = list(islice(fresh.legal_actions(), LISTED + 1))
        if len(mine) <= LISTED or len(theirs) <= LISTED:                  # both listed whole: the same
            assert mine == sorted(fresh.format(a) for a in theirs), state.position()
        if theirs:
            state.play(theirs[data.draw(st.integers(0, len(theirs) - 1), label="fresh ply")])
