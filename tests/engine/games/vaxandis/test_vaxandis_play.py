"""Vaxandis: bitboard rules against the naive oracle, and seeded random playthroughs."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from hexarena.engine.actions import Move, Place, Swap
from hexarena.engine.core import Colour
from hexarena.engine.errors import IllegalMove
from hexarena.engine.games.vaxandis.state import RULES, VaxandisState
from hexarena.engine.games.vaxandis.moves import heights_of

from tests.support.differential import load
from tests.support.playthrough import playthrough
from tests.support.vaxandis import board, naive_after, naive_moves, naive_places

OPTIONS = [(f, t) for f in ("stack", "group") for t in ("path", "landing")]


def random_board(rng: random.Random, size: int, freeze: str, touch: str) -> VaxandisState:
    geo = RULES.variant(size).board
    parts = []
    for site in geo.sites:
        if rng.random() < 0.45:
            parts.append(f"{rng.choice('BW')}{rng.choice((1, 1, 1, 2, 2, 3, 4))} {geo.name(site)}")
    return board(" / ".join(parts), rng.choice("bw"), size, freeze=freeze, touch=touch)


@pytest.mark.parametrize("freeze, touch", OPTIONS)
def test_moves_and_effects_match_the_oracle(freeze, touch):
    rng = random.Random(f"{freeze}{touch}")
    checked = Counter()
    for i in range(60):
        state = random_board(rng, (3, 4, 5)[i % 3], freeze, touch)
        expected = naive_moves(state)
        got = {(a.src, a.dst) for a in state.legal_actions() if isinstance(a, Move)}
        assert got == set(expected), state.position()
        places = {a.cell for a in state.legal_actions() if isinstance(a, Place)}
        assert places == naive_places(state)
        for (src, dst), touched in expected.items():
            after = state.play(Move(src, dst)).to_position().stacks
            assert after == naive_after(state, src, dst, touched), (state.position(), state.format(Move(src, dst)))
            checked["moves"] += 1
        sampler = random_board_copy(state)          # no move list cached: the rejection sampler
        for _ in range(5):
            if sampler.outcome() is not None:
                break
            action = sampler.random_action(rng)
            if isinstance(action, Move):            # played from the sampler's kept effect
                key = (action.src, action.dst)
                assert sampler.play(action).to_position().stacks == naive_after(state, *key, expected[key])
                checked["sampled"] += 1
        own = state.black if state.to_move is Colour.BLACK else state.white
        for src in [b for b in state.board.sites if own >> b & 1]:
            for dst in state.board.sites:
                if (src, dst) not in expected and src != dst:
                    with pytest.raises(IllegalMove):
                        state.play(Move(src, dst))
                    checked["refused"] += 1
    assert checked["moves"] > 100 and checked["refused"] > 1000 and checked["sampled"] > 50


def random_board_copy(state: VaxandisState) -> VaxandisState:
    return VaxandisState(state.variant, state.to_move, state.ply, state.black, state.white, state.levels, state.phase)


def total_height(state: VaxandisState) -> int:
    return sum(h * bb.bit_count() for h, bb in state.levels)


def invariants(state: VaxandisState, parent: VaxandisState | None) -> None:
    """Height table canonical; heights never shrink; a move adds >= 2 to the total height."""
    heights = [h for h, _ in state.levels]
    assert heights == sorted(set(heights)) and all(h >= 1 and bb for h, bb in state.levels)
    union = 0
    for _, bb in state.levels:
        assert not union & bb
        union |= bb
    assert union == state.black | state.white and not state.black & state.white
    assert state.heights() == heights_of(state.levels, state.variant.size)
    cells = {a.cell for a in state.legal_actions() if isinstance(a, Place)}
    assert cells == _bits(state.legal_cells())
    if parent is None:
        return
    assert state.ply == parent.ply + 1
    before, after = parent.heights(), state.heights()
    vacated = [b for b in parent.board.sites if before[b] and not after[b]]
    grown = total_height(state) - total_height(parent)
    if (state.black | state.white) == (parent.black | parent.white):          # swap
        assert state.levels == parent.levels and grown == 0 and state.to_move is parent.to_move
        return
    if not vacated:                                                           # placement
        assert grown == 1
    else:                                                                     # move
        landed = [b for b in parent.board.sites if after[b] and not before[b]]
        assert len(vacated) == 1 and len(landed) == 1 and grown >= 2
        assert after[landed[0]] == before[vacated[0]] + 1
    for b in parent.board.sites:
        if before[b] and after[b]:
            assert after[b] >= before[b]
    assert state.to_move is parent.to_move.other


def _bits(bb: int) -> set[int]:
    return {i for i in range(bb.bit_length()) if bb >> i & 1}


@pytest.mark.parametrize("size, tokens, seed, plies", [
    (4, [], 1, 400),
    (5, ["nopie", "touch=landing"], 2, 300),
    pytest.param(6, ["freeze=group"], 3, 250, marks=pytest.mark.slow),
])
def test_random_playthrough(size, tokens, seed, plies):
    state = RULES.new_game(RULES.variant(size, tokens), 0)
    end = playthrough(state, seed, max_plies=plies, extra=invariants)
    assert end.ply > 0


def test_long_random_games_at_n4_end_by_no_moves():
    """Cheaper checks over long games: invariants only, until the end or 3000 plies."""
    ends = Counter()
    for seed in range(4):
        rng = random.Random(seed)
        state = RULES.new_game(RULES.variant(4, ["nopie"] if seed % 2 else []), 0)
        parent = None
        while state.outcome() is None and state.ply < 3000:
            if state.ply % 7 == 0:
                invariants(state, parent)
            parent, state = state, state.play(state.random_action(rng))
        invariants(state, parent)
        out = state.outcome()
        ends["over" if out else "capped"] += 1
        if out:
            assert list(state.legal_actions()) == [] and out.winner is state.to_move.other
    assert ends["over"] >= 1 and sum(ends.values()) == 4


def chi_square(counts: Counter, actions: set) -> float:
    assert set(counts) == actions
    expected = sum(counts.values()) / len(actions)
    return sum((counts[a] - expected) ** 2 / expected for a in actions)


@pytest.mark.parametrize("freeze, exact", [("stack", False), ("group", False), ("stack", True)])
def test_random_action_is_uniform_over_actions(freeze, exact):
    """The Python rules' draw: rejection sampling (with frozen sources pruned) and the exact list
    draw the same uniform law (the core's draw: tests/engine/test_core_states.py)."""
    rng = random.Random(f"{freeze}{exact}")
    state = load(RULES, board("B1 e5 e8 c3 i6 i7 / B2 b6 c6 / W1 a1 g7 / W2 h5 / W3 c7", freeze=freeze).position())
    actions = set(state.legal_actions()) if exact else set(naive_place_moves(state))
    assert "targets" in state._memo if exact else "targets" not in state._memo
    draws = 60 * len(actions)
    counts = Counter(state.random_action(rng) for _ in range(draws))
    # chi-square with len-1 degrees of freedom (about 35 here): 80 is far in the tail
    assert chi_square(counts, actions) < 80, len(actions)
    pie = RULES.new_game(RULES.variant(5), 0).play(Place(RULES.variant(5).board.parse("e5")))
    counts = Counter(pie.random_action(rng) for _ in range(60 * 55))
    assert chi_square(counts, set(pie.legal_actions())) < 100 and counts[Swap()] > 20


def naive_place_moves(state: VaxandisState) -> list:
    return [Place(c) for c in naive_places(state)] + [Move(s, d) for s, d in naive_moves(state)]


def test_play_leaves_the_parent_unchanged():
    state = board("B1 c5 d5 g5 / W1 a1")
    text, h = state.position(), list(state.heights())
    state.play(state.parse("g5-e5"))
    state.play(state.parse("i9"))
    assert state.position() == text and state.heights() == h
