"""The core's random ply of Anda (``anda_random_step``, drawn and played in one call) against the
Python rules: each drawn action is one the Python rules list, the state the core hands back for it
is the Python rules' state after it, with the same end, and the draw is uniform over the listed
actions (placements and White's pass)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

from hexarena.engine.actions import Pass, Place  # noqa: E402
from hexarena.engine.core import Colour  # noqa: E402
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


def test_the_random_ply_is_uniform_over_the_listed_actions() -> None:
    """White to move with a pass in hand: a placement or the pass, each about equally often
    (3000 seeded draws; the bound is a chi-square of about five times its degrees of freedom)."""
    python, core = rules("anda")
    rng = random.Random("uniform")
    state = core.new_game(core.variant(5, ["nopie"]), 2)
    while not (state.to_move is Colour.WHITE and not state.first and state.ply >= 6):
        state = state.play(state.random_action(rng))
    listed = list(load(python, state.position()).legal_actions())
    assert Pass() in listed and any(isinstance(a, Place) for a in listed)
    draws = 3000
    seen = Counter(load(core, state.position()).random_action(rng) for _ in range(draws))
    assert set(seen) == set(listed)
    expected = draws / len(listed)
    chi2 = sum((seen[a] - expected) ** 2 / expected for a in listed)
    assert chi2 < 5 * len(listed) + 20, (seen, expected)
