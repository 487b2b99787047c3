"""Anda: seeded random playthroughs, and the incremental engine against a from-scratch oracle."""
from __future__ import annotations

import random

import pytest

from hexarena.engine.games import anda_regions as R
from hexarena.engine import registry
from hexarena.engine.actions import Pass, Place
from hexarena.engine.games.anda.state import RULES, AndaState
from hexarena.engine.games.anda.board import analyse
from hexarena.engine.core import Colour
from tests.support.playthrough import playthrough


def oracle_place(state: AndaState, s: int) -> tuple[int, int] | None:
    """(black, white) after placing on s, None if illegal: docs/rules/anda.md from scratch."""
    board = state.board
    own, other = (state.black, state.white) if state.to_move is Colour.BLACK else (state.white, state.black)
    bit = 1 << s
    empty = board.mask & ~(own | other)
    if not empty & bit or R.territory(board, other, own, empty) & bit:
        return None
    own |= bit
    empty &= ~bit
    dead = R.smothered_stones(board, other, own, empty)
    other &= ~dead
    empty |= dead
    own_dead = R.smothered_stones(board, own, other, empty)
    own &= ~own_dead
    if not dead and own_dead == bit:
        return None
    return (own, other) if state.to_move is Colour.BLACK else (other, own)


def check_against_oracle(state: AndaState) -> None:
    """The cached analysis equals a fresh one; every placement agrees with the oracle."""
    an = state._analysis()
    fresh = analyse(state.board, state.black, state.white)
    assert sorted(an.regions) == sorted(fresh.regions), state.position()
    for c in (0, 1):
        assert sorted(an.groups[c]) == sorted(fresh.groups[c]), state.position()
    assert an.smothered == fresh.smothered, state.position()
    if state.phase != "play" or state.first or state.outcome() is not None:
        return
    cells = state.legal_cells()
    for s in state.board.sites:
        want = oracle_place(state, s)
        assert bool(cells >> s & 1) == (want is not None), (state.position(), state.board.name(s))
        if want is not None:
            child = state.play(Place(s))
            assert (child.black, child.white) == want, (state.position(), state.board.name(s))


def invariants(state: AndaState, parent: AndaState | None) -> None:
    outcome = state.outcome()
    own = state.black if state.to_move is Colour.BLACK else state.white
    if state.phase == "play" and not state.first:
        if outcome is None:
            assert own and state.legal_cells(), state.position()   # stones -> a legal placement
        else:
            assert not state.black or not state.white
    if parent is not None:
        assert state.ply == parent.ply + 1
        assert state.komi <= parent.komi or parent.phase == "offer"


def oracle_extra(state: AndaState, parent: AndaState | None) -> None:
    invariants(state, parent)
    check_against_oracle(state)


@pytest.mark.parametrize("n,seed,balance,plies", [(7, 1, "pie", None), pytest.param(9, 2, "pie", None, marks=pytest.mark.slow),
                                                  pytest.param(9, 4, "nopie", 120, marks=pytest.mark.slow),
                                                  pytest.param(11, 3, "nopie", 90, marks=pytest.mark.slow)])
def test_random_playthrough(n, seed, balance, plies):
    # whole games at n=7 and 9; a shorter stretch (first turns and middle game) elsewhere
    start = RULES.new_game(RULES.variant(n, [balance]), 3)
    end = playthrough(start, seed, max_plies=plies or RULES.ply_cap(n), extra=invariants)
    if plies is None:
        assert end.outcome() is not None


@pytest.mark.parametrize("n,seed,opening", [(3, 5, "features"), (4, 6, "cells"), (5, 7, "features"),
                                            (5, 8, "cells"), pytest.param(7, 9, "features", marks=pytest.mark.slow)])
def test_incremental_engine_matches_oracle(n, seed, opening):
    start = RULES.new_game(RULES.variant(n, ["nopie", f"opening={opening}"]), 4)
    playthrough(start, seed, max_plies=RULES.ply_cap(n), extra=oracle_extra)


@pytest.mark.parametrize("n,seed,skip,plies", [(9, 21, 120, 25), (11, 22, 200, 10)])
def test_incremental_engine_matches_oracle_mid_game(n, seed, skip, plies):
    # big boards: jump to the middle game unchecked, then check every ply
    rng = random.Random(seed)
    state = RULES.new_game(RULES.variant(n, ["nopie"]), 2)
    while state.ply < skip and state.outcome() is None:
        state = state.play(state.random_action(rng))
    playthrough(state, seed, max_plies=plies, extra=oracle_extra)


def test_undo_restores_the_previous_position():
    # the protocol's undo goes back to the parent state or rebuilds it from its position
    # string; both must play on exactly as the original did (removals included)
    rng = random.Random(11)
    s = RULES.new_game(RULES.variant(7, []), 0)
    removals = 0
    while s.outcome() is None:
        action = s.random_action(rng)
        before = s.position()
        child = s.play(action)
        assert s.position() == before
        rebuilt = registry.from_position(before)
        assert rebuilt == s and rebuilt.play(action) == child
        assert rebuilt.play(action).position() == child.position()
        if (s.black | s.white) & ~(child.black | child.white):
            removals += 1
        s = child
    assert removals > 0


def test_random_action_is_uniform_over_placements_and_pass():
    s = RULES.new_game(RULES.variant(3, ["nopie"]), 5)
    s = s.play(s.parse("a1,e5")).play(s.parse("a3,e3"))
    s = s.play(s.parse("c3"))
    legal = list(s.legal_actions())
    assert Pass() in legal
    rng = random.Random(3)
    counts = {a: 0 for a in legal}
    draws = 400 * len(legal)
    for _ in range(draws):
        counts[s.random_action(rng)] += 1
    for a, c in counts.items():
        assert abs(c - 400) < 120, (s.format(a), c)
