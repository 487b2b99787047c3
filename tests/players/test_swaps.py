"""MCTS across a swap: a result is credited to the player who earned it, not to the colour.

After ``swap`` the players exchange colours, so Black's win at the end of a line is
a win for the player who held White above the swap. Tree statistics, proofs and
playout values are each in the colours of their own state (players/tree.py).
"""
from __future__ import annotations

import random

from hexarena.engine import registry
from hexarena.engine.actions import Swap
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.players import MctsBot
from hexarena.players.choice import lost
from hexarena.players.compiled_search import CompiledTree
from hexarena.players.evaluators import CutoffPlayout, PolicyPlayout

from tests.support.positions import new


def black_always_wins(state: GameState, rng: random.Random, trace: object = None) -> float:
    """An evaluator: Black (of the state evaluated) wins."""
    return 1.0


def test_a_win_below_a_swap_is_credited_to_the_swapper_not_to_the_colour() -> None:
    """Spelde's pie: Black places, White may swap and take Black's stone. With every leaf
    won by its Black, Black's first placements score 1 through White's ordinary replies
    and 0 through the swap (the swapper then holds Black)."""
    root = MctsBot(iterations=600, seconds=None, evaluator=black_always_wins).search(
        new("spelde", 4), random.Random(0)).tree.root
    swapped = 0
    for child in root.children:
        through_swap = sum(g.visits for g in child.children if isinstance(g.action, Swap))
        swapped += through_swap
        assert child.holder is Colour.BLACK
        assert child.wins == child.visits - through_swap
        for g in child.children:           # the swapper holds Black: every visit its win
            assert g.wins == (g.visits if isinstance(g.action, Swap) else 0)
    assert swapped > 0                     # the situation occurred


def test_a_playout_is_valued_in_the_colours_of_the_state_it_starts_from() -> None:
    """A playout that swaps: the returned value is the score of the player holding Black
    where the playout started, who holds White after the swap."""
    state = new("spelde", 4)
    state = state.play(state.random_action(random.Random(3)))       # White may swap now

    def swap_first(s: GameState, rng: random.Random):
        return Swap() if s.is_legal(Swap()) else s.random_action(rng)
    trace: list = []
    value = PolicyPlayout(swap_first)(state, random.Random(1), trace)
    end = state
    for _, action in trace:
        end = end.play(action)
    assert isinstance(trace[0][1], Swap) and end.outcome() is not None
    assert value == (0.0 if end.outcome().winner is Colour.BLACK else 1.0)
    # one ply (the swap), then an evaluation that says Black (of the end) is far ahead
    assert CutoffPlayout(lambda s: 1e9, depth=1, policy=swap_first)(state, random.Random(1)) == 0.0


def komi_root() -> GameState:
    """Anda-prison n=7 from a strength study game MCTS lost in 6 plies: Black kept and offered komi 0;
    White swapped, and Black (the swapper) joined its pair at k12, leaving White no placement
    and, with an empty prison, no release."""
    state = new("anda-prison", 7)
    for word in ("k11,k13", "f7,l8", "keep"):
        state = state.play(state.parse(word))
    return state


def test_a_komi_that_loses_to_a_swap_is_a_proven_loss_and_not_offered() -> None:
    state = komi_root()
    line = state
    for word in ("komi=0", "swap", "k12"):
        line = line.play(line.parse(word))
    outcome = line.outcome()
    assert outcome is not None and outcome.winner is Colour.BLACK   # the swapper, who was White
    for seed in range(3):
        result = MctsBot(iterations=300, seconds=None).search(state, random.Random(seed))
        assert state.format(result.action) != "komi=0"
        if isinstance(result.tree, CompiledTree):    # the core's search: (action, visits, mean, exact value)
            exact = next(c[3] for c in result.tree.children() if c[0] == "komi=0")
            assert exact is None or exact == 0.0     # never proven a win for the one who offers it
            continue
        zero = next(c for c in result.tree.root.children if state.format(c.action) == "komi=0")
        assert not zero.solved or lost(zero)
