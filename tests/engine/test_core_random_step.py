"""The core's random ply of Anda (``AndaCore.random_action``, drawn and played in one call) against
the Python rules: each drawn action is one the Python rules list, the state the core hands back for
it is the Python rules' state after it, with the same end, and the draw is uniform over the listed
actions (placements and White's pass), from fresh states and from one state drawn again. The draws
call back into the caller's ``random.Random`` once per game, and a seed repeats its game. A core
state stands for the Python state: isinstance, equality, hash, pickling."""
from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

from hexarena.engine.actions import Pass, Place  # noqa: E402
from hexarena.engine.core import Colour  # noqa: E402
from hexarena.engine.game import GameState, StoneState  # noqa: E402
from hexarena.engine.games.anda.state import AndaState  # noqa: E402
from tests.support.core_step import CountingRandom, assert_uniform  # noqa: E402
from tests.support.differential import load, rules  # noqa: E402


@pytest.mark.parametrize("n", (3, 5, 7, 9))
def test_each_random_ply_is_a_listed_action_played_as_the_rules_play_it(n: int) -> None:
    python, core = rules("anda")
    played = 0
    for g, balance in enumerate(("nopie", "pie")):
        rng = random.Random(f"random step {n} {g}")
        for opening in ("features", "cells"):
            variant = core.variant(n, [balance, f"opening={opening}"])
            state = core.new_game(variant, 3)
            while state.outcome() is None and state.ply < 400:
                py = load(python, state.position())
                action = state.random_action(rng)
                assert action in list(py.legal_actions()), (state.position(), state.format(action))
                child = state.play(action)
                assert child == py.play(action), (state.position(), state.format(action))
                assert child.outcome() == load(python, child.position()).outcome(), child.position()
                state = child
                played += 1
    assert played > 50


def white_with_a_pass(seed: str) -> GameState:
    """A core state of side 5, White to move after the first turns with a komi pass in hand."""
    _, core = rules("anda")
    rng = random.Random(seed)
    state = core.new_game(core.variant(5, ["nopie"]), 2)
    while not (state.to_move is Colour.WHITE and not state.first and state.ply >= 6):
        state = state.play(state.random_action(rng))
    return state


def test_the_random_ply_is_uniform_over_the_listed_actions() -> None:
    """A placement or the pass, each about equally often over 3000 seeded draws from fresh states."""
    python, core = rules("anda")
    state = white_with_a_pass("uniform")
    listed = list(load(python, state.position()).legal_actions())
    assert Pass() in listed and any(isinstance(a, Place) for a in listed)
    rng = random.Random("uniform draws")
    assert_uniform(Counter(load(core, state.position()).random_action(rng) for _ in range(3000)), listed)


def test_draws_again_from_one_state_are_uniform_over_the_listed_actions() -> None:
    """The same state asked 3000 times with one rng: each answer a fresh draw of the core's stream."""
    python, _ = rules("anda")
    state = white_with_a_pass("again")
    listed = list(load(python, state.position()).legal_actions())
    rng = random.Random("again draws")
    assert_uniform(Counter(state.random_action(rng) for _ in range(3000)), listed)
    drawn = state.random_action(rng)
    assert state.play(drawn) == load(python, state.position()).play(drawn)
    for action in listed:                   # beside the kept child, every action by the rules
        assert state.play(action) == load(python, state.position()).play(action)


@pytest.mark.parametrize("n", (5, 9))
def test_a_game_drawn_with_one_rng_asks_it_once_and_repeats_with_its_seed(n: int) -> None:
    _, core = rules("anda")
    games = []
    for _ in range(2):
        rng = CountingRandom(f"once {n}")
        state = core.new_game(core.variant(n, ["nopie"]), 1)
        plies = [state]
        while state.outcome() is None and state.ply < core.ply_cap(n):
            state = state.play(state.random_action(rng))
            plies.append(state)
        assert rng.calls == 1 and len(plies) > 10
        games.append([s.position() for s in plies])
    assert games[0] == games[1]


def test_a_core_state_stands_for_the_python_state() -> None:
    python, core = rules("anda")
    rng = random.Random("stands")
    state = core.new_game(core.variant(7, ["nopie"]), 1)
    for _ in range(12):
        state = state.play(state.random_action(rng))
    py = load(python, state.position())
    assert isinstance(state, AndaState) and isinstance(state, StoneState)
    assert state == py and py == state and hash(state) == hash(py)
    assert (state.black, state.white, state.komi, state.first, state.phase) == (py.black, py.white, py.komi,
                                                                                py.first, py.phase)
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is type(state) and copy == state and copy.position() == state.position()
    assert state.changes(None) == py.changes(None)
