"""Anda-prison against a from-scratch oracle, and seeded random playthroughs at n=7 and n=9.

The oracle resolves a placement straight from the rule text with engine.regions
(one smothering test per group, no incremental bookkeeping); the engine's
incremental layout must agree with it and with a fresh analysis.
"""
from __future__ import annotations

import random

import pytest

from hexarena.engine.games import anda_regions as R
from hexarena.engine import registry
from hexarena.engine.actions import Pair, Place, Propose
from hexarena.engine.games.anda_prison.board import analyse
from hexarena.engine.core import Colour, Termination
from hexarena.engine.geometry import iter_bits
from tests.support.anda_prison import agree, oracle
from tests.support.playthrough import playthrough

INFO = registry.get("anda-prison")


def same_layout(state) -> None:
    lay, fresh = state.analysis(), analyse(state.board, state.black, state.white)
    assert sorted(lay.groups[0]) == sorted(fresh.groups[0]) and sorted(lay.groups[1]) == sorted(fresh.groups[1])
    assert sorted(zip(lay.regions, *lay.touch)) == sorted(zip(fresh.regions, *fresh.touch))


@pytest.mark.parametrize("seed", range(12))
def test_random_boards_against_the_oracle(seed):
    rng = random.Random(seed)
    board = INFO.variant(5).board
    stones = {}
    density = rng.choice((0.3, 0.5, 0.7))
    for bit in board.sites:
        if rng.random() < density:
            stones[bit] = rng.choice("bw")
    rows = []
    for ri in range(9):
        rows.append("".join(stones.get(ri * board.width + ci, ".") for ci in range(9) if abs(ci - ri) <= 4))
    keys = " annihilated=" + rng.choice("bw") if seed % 3 == 0 else ""
    s = registry.from_position(f"anda-prison 5 {rng.choice('bw')} {'/'.join(rows)}{keys}")
    for bit in board.sites:
        if not (s.black | s.white) >> bit & 1:
            agree(s, bit)
            if s.legal_cells() >> bit & 1:
                same_layout(s.play(Place(bit)))


def invariants(rng: random.Random):
    def extra(state, parent) -> None:
        board = state.board
        assert not state.black & state.white and not (state.black | state.white) & ~board.mask
        assert len(state.annihilated) <= 1
        if state.ply % 7 == 0:
            same_layout(state)
        out = state.outcome()
        if out is not None and out.termination is Termination.NO_MOVES:
            assert out.winner is state.to_move.other
        if state.normal and out is None:
            empty = [b for b in board.sites if not (state.black | state.white) >> b & 1]
            for site in rng.sample(empty, min(4, len(empty))):
                agree(state, site)
        if parent is None:
            return
        assert parent.annihilated <= state.annihilated
        mover = parent.to_move
        own = state.black if mover is Colour.BLACK else state.white
        before = parent.black if mover is Colour.BLACK else parent.white
        placed = own & ~before
        totals = (state.black.bit_count() + state.prison_black, state.white.bit_count() + state.prison_white)
        was = (parent.black.bit_count() + parent.prison_black, parent.white.bit_count() + parent.prison_white)
        if placed:                                   # a placement: stones move to the prison, none vanish
            assert placed.bit_count() in (1, 2) and state.last is mover
            grown = (placed.bit_count(), 0) if mover is Colour.BLACK else (0, placed.bit_count())
            assert totals == (was[0] + grown[0], was[1] + grown[1])
            empty = board.mask & ~(state.black | state.white)
            enemy = state.white if mover is Colour.BLACK else state.black
            for s in iter_bits(placed):                # the end-of-turn check held
                assert not R.smothered(board, R.group_at(board, own, s), enemy, empty)
        elif (state.prison_black, state.prison_white) != (parent.prison_black, parent.prison_white):
            if parent.phase == "komi":             # komi: black stones into the prison
                assert state.prison_black == parent.prison_black + state.komi
            else:                                  # a release: one enemy-coloured stone leaves
                assert state.last is mover
                assert totals == ((was[0] - 1, was[1]) if mover is Colour.WHITE else (was[0], was[1] - 1))
        else:
            assert (state.black, state.white) == (parent.black, parent.white)
    return extra


@pytest.mark.parametrize("n, balance, seed", [
    (7, "pie", 1), (7, "nopie", 2), (7, "corners", 3),
    pytest.param(9, "pie", 4, marks=pytest.mark.slow), pytest.param(9, "nopie", 5, marks=pytest.mark.slow),
])
def test_playthrough(n, balance, seed):
    start = INFO.new_game(INFO.variant(n, [balance]), seed % 3)
    end = playthrough(start, seed, max_plies=INFO.ply_cap(n), extra=invariants(random.Random(seed)))
    assert end.outcome() is not None


def test_playthrough_without_proposals_ends_with_no_moves():
    """Random play that never proposes runs until a player has no placement and no release."""
    rng = random.Random(11)
    s = INFO.new_game(INFO.variant(7, ["nopie"]), 0)
    while s.outcome() is None:
        action = s.random_action(rng)
        if not isinstance(action, Propose):
            s = s.play(action)
        assert s.ply < INFO.ply_cap(7)
    assert s.outcome().termination is Termination.NO_MOVES
    assert list(s.legal_actions()) == [] and s.legal_cells() == 0


@pytest.mark.parametrize("seed", range(6))
def test_first_turn_pairs_against_the_oracle(seed):
    """Pair listing (with its fast test for stones with nothing around) against the oracle."""
    rng = random.Random(100 + seed)
    board = INFO.variant(4).board
    stones = {bit: rng.choice("bw") for bit in rng.sample(board.sites, rng.choice((0, 2, 4, 7, 12)))}
    rows = ["".join(stones.get(ri * board.width + ci, ".") for ci in range(7) if abs(ci - ri) <= 3)
            for ri in range(7)]
    mover, first = rng.choice((("b", "bw"), ("w", "w")))
    s = registry.from_position(f"anda-prison 4 {mover} {'/'.join(rows)} variant=nopie first={first}")
    listed = set(s.legal_actions())
    empty = [b for b in board.sorted_sites(board.sites) if not (s.black | s.white) >> b & 1]
    for i, a in enumerate(empty):
        for b in empty[i + 1:]:
            if board.neighbour_mask[a] >> b & 1:
                continue
            assert (oracle(s, (a, b)) is not None) == (Pair(a, b) in listed), (s.position(), a, b)
