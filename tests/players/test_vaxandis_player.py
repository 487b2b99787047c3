"""Vaxandis's MCTS evaluation (players/games/vaxandis.py): what it counts and that MCTS uses it."""
from __future__ import annotations


import random

import pytest

from hexarena.engine.actions import Swap
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.players import Budget, MctsBot
from hexarena.players.evaluators import Bias, CutoffPlayout, for_searcher, squash
from hexarena.players.games import evaluator_for, vaxandis
from tests.support.vaxandis import board
from tests.support.positions import new, walk


@pytest.mark.parametrize("seed", range(6))
def test_actions_of_counts_each_sides_legal_actions(seed: int) -> None:
    state = walk(board("B1 e5 / W1 a1", "b", 4 + seed % 2), 20 + 7 * seed, seed)
    if state.outcome() is not None:
        pytest.skip("the walk ended the game")
    mover = state.to_move
    assert vaxandis.actions_of(state, mover) == len(list(state.legal_actions()))
    other = board(" / ".join(f"{'B' if state.black >> b & 1 else 'W'}{h} {state.board.name(b)}"
                             for b, h in enumerate(state.heights()) if h), mover.other.value,
                  state.variant.size)
    assert vaxandis.actions_of(state, mover.other) == len(list(other.legal_actions()))


def test_the_search_evaluation_rewards_taking_the_opponents_actions() -> None:
    # a crowded n=4 board (no placement left): White has 3 actions, Black 56.
    crowded = board("B3 e4 / W1 d4 / B1 a1 a3 c1 g4 g7 d7 b5 e2 / W2 f6", "b", 4)
    b = vaxandis.actions_of(crowded, Colour.BLACK)
    w = vaxandis.actions_of(crowded, Colour.WHITE)
    plain = vaxandis.evaluate(crowded)
    assert (b, w) == (56, 3)
    race = max(-vaxandis.TALL_CAP, min(vaxandis.TALL_CAP, 3 - 2))
    closeness = vaxandis.KILL * (1 / (1 + w) - 1 / (1 + b))
    share = vaxandis.MOBILITY * (b - w) / (b + w + 1)
    assert vaxandis.evaluate_search(crowded) == pytest.approx(plain + closeness + share + vaxandis.TALL * race)
    assert vaxandis.evaluate_search(crowded, kill=0.0, tall=0.0, mobility=0.0) == pytest.approx(plain)
    # each term alone: the share is Black's 53-action lead over the 59 actions (+1)
    assert vaxandis.evaluate_search(crowded, kill=0.0, tall=0.0) == pytest.approx(plain + 5.0 * 53 / 60)
    assert vaxandis.evaluate_search(crowded, tall=0.0, mobility=0.0) == pytest.approx(plain + closeness)


def test_the_tallest_stack_race_is_capped() -> None:
    low = board("B1 a1 / W30 g7", "b", 4)
    lower = board("B1 a1 / W60 g7", "b", 4)
    assert vaxandis.evaluate_search(low, kill=0.0, mobility=0.0) == pytest.approx(
        vaxandis.evaluate(low) - vaxandis.TALL * vaxandis.TALL_CAP)
    assert vaxandis.evaluate_search(low, kill=0.0, mobility=0.0) - vaxandis.evaluate(low) == pytest.approx(
        vaxandis.evaluate_search(lower, kill=0.0, mobility=0.0) - vaxandis.evaluate(lower))


def test_mcts_values_vaxandis_leaves_by_the_search_evaluation() -> None:
    state = board("B1 e5 / W1 a1", "b", 4)
    evaluator = evaluator_for(state)
    assert isinstance(evaluator, CutoffPlayout)
    assert evaluator.evaluation is vaxandis.evaluate_search
    assert evaluator.scale == vaxandis.SEARCH_SCALE
    assert evaluator.bias is vaxandis.trailing and evaluator.searcher is None


def test_trailing_costs_the_searcher_the_ranks_where_the_opponent_is_taller() -> None:
    # Black's tallest three: 5 3 (none); White's: 7 1 1
    state = board("B5 a1 / B3 a3 / W7 g7 / W1 e4 e6", "b", 4)
    # Black searching trails at rank 1 by 2 and at rank 3 by 1 (a missing stack is 0); leads earn nothing
    assert vaxandis.trailing(state, Colour.BLACK) == pytest.approx(-vaxandis.TRAILING * 3)
    # White searching trails at rank 2 by 2: Black's advantage goes up
    assert vaxandis.trailing(state, Colour.WHITE) == pytest.approx(vaxandis.TRAILING * 2)
    # a gap counts at most TALL_CAP levels a rank
    far = board("B1 a1 / W30 g7", "b", 4)
    assert vaxandis.trailing(far, Colour.BLACK) == pytest.approx(-vaxandis.TRAILING * vaxandis.TALL_CAP)
    assert vaxandis.trailing(far, Colour.WHITE) == 0.0


def _recording(calls: list[Colour]) -> Bias:
    def bias(state: GameState, searcher: Colour) -> float:
        calls.append(searcher)
        return 1.5 if searcher is Colour.BLACK else -0.5
    return bias


def test_a_bias_counts_only_once_the_searcher_is_bound() -> None:
    state = board("B2 e5 / W1 a1 b3", "w", 5)
    calls: list[Colour] = []
    evaluator = CutoffPlayout(vaxandis.evaluate, depth=0, scale=2.0, bias=_recording(calls))
    plain = squash(vaxandis.evaluate(state), 2.0)
    assert evaluator(state, random.Random(0)) == pytest.approx(plain) and calls == []
    white = for_searcher(evaluator, Colour.WHITE)
    assert white(state, random.Random(0)) == pytest.approx(squash(vaxandis.evaluate(state) - 0.5, 2.0))
    assert calls == [Colour.WHITE]
    # evaluators without a bias are used as they are
    unbiased = CutoffPlayout(vaxandis.evaluate, depth=0)
    assert for_searcher(unbiased, Colour.BLACK) is unbiased


def test_a_swap_in_the_playout_hands_the_searcher_the_other_colour() -> None:
    start = new("vaxandis", 4, "pie")
    state = start.play(start.parse("e5"))                  # Black placed; White may swap
    assert state.is_legal(Swap())
    calls: list[Colour] = []
    evaluator = CutoffPlayout(vaxandis.evaluate, depth=1, scale=2.0, bias=_recording(calls),
                              policy=lambda s, rng: Swap()).for_searcher(Colour.WHITE)
    after = state.play(Swap())
    value = evaluator(state, random.Random(0))
    # the searcher (White at the root) holds Black after the swap; the value is seen from the root's colours
    assert calls == [Colour.BLACK]
    assert value == pytest.approx(1.0 - squash(vaxandis.evaluate(after) + 1.5, 2.0))


def test_mcts_binds_the_searchers_colour_and_drops_a_tree_grown_for_the_other() -> None:
    calls: list[Colour] = []
    bot = MctsBot(iterations=60, seconds=None, evaluator=CutoffPlayout(
        vaxandis.evaluate, depth=2, scale=vaxandis.SEARCH_SCALE, bias=_recording(calls)))
    state = walk(board("B1 e5 / W1 a1", "w", 5), 6, 1)
    mover = state.to_move
    first = bot.search(state, random.Random(0))
    assert set(calls) == {mover}
    # the same player's next move: the subtree is kept
    reply = max(next(c for c in first.tree.root.children if c.action == first.action).children,
                key=lambda c: c.visits)
    now = state.play(first.action).play(reply.action)
    assert bot.search(now, random.Random(1), Budget(), first.tree).tree.root is reply
    # a tree whose root the other colour was to move in (as after a swap) is not reused
    calls.clear()
    other = state.play(first.action)
    fresh = bot.search(other, random.Random(1), Budget(), first.tree)
    assert fresh.tree.root.visits == fresh.iterations and set(calls) == {mover.other}
