"""Vaxandis's MCTS evaluation (players/games/vaxandis.py): what it counts and that MCTS uses it."""
from __future__ import annotations


import pytest

from hexarena.engine.core import Colour
from hexarena.players.evaluators import CutoffPlayout
from hexarena.players.games import evaluator_for, vaxandis
from tests.engine.games.vaxandis.test_vaxandis_helpers import board
from tests.players.test_search import walk


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
