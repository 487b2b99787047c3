"""Spelde's MCTS settings (players/games/spelde.py, docs/players.md): the search commits to its best placements.

Spelde's leaves are valued by `spelde.evaluate` squashed to [0, 1], where one exclusive
open site is worth ~0.16; with UCT's default exploration of 1 the visits spread almost
evenly over the root's placements, and the most visited one (the move played) is noise.
Spelde's own selection rule concentrates the search: measured with fixed iteration
budgets, so the test does not depend on the machine's speed.
"""
from __future__ import annotations

import importlib
import random

import pytest

from hexarena.engine.game import GameState
from hexarena.engine.geometry import iter_bits
from hexarena.players import MctsBot
from hexarena.players.compiled_search import CompiledTree
from hexarena.players.games import selection_for
from hexarena.players.selection import UCT
from tests.support.positions import new, walk


def top_share(state: GameState, bot: MctsBot) -> float:
    """The most visited root child's share of the root's visits after one search (in the
    core's tree where the bot searches in the core, players/compiled_search.py)."""
    tree = bot.search(state, random.Random(1)).tree
    if isinstance(tree, CompiledTree):
        return max(visits for _, visits, _, _ in tree.children()) / tree.search.visits
    return max(child.visits for child in tree.root.children) / tree.root.visits


@pytest.mark.parametrize("seed", range(4))
def test_spelde_search_concentrates_on_its_best_placement(seed: int) -> None:
    """At n=5 after 10 random plies (28-42 placements), 1,500 iterations: Spelde's rule gives
    its favourite at least 1.5 times the share plain UCT(1) does (measured: 0.09-0.70
    against 0.03-0.21)."""
    state = walk(new("spelde", 5, "nopie"), 10, seed)
    assert state.outcome() is None
    own = top_share(state, MctsBot(iterations=1500, seconds=None))
    plain = top_share(state, MctsBot(iterations=1500, seconds=None, selection=UCT(1.0)))
    assert own >= 1.5 * plain, (state.position(), own, plain)


def test_spelde_selection_is_a_low_exploration_uct() -> None:
    rule = selection_for(new("spelde", 5, "nopie"))
    assert isinstance(rule, UCT) and rule.exploration < 1.0


def _unsplittable(board, stones: int) -> int:
    """The stones of groups with no two non-adjacent stones (a singleton, a pair, a triangle),
    group by group: the definition the evaluation's open sites rest on."""
    out = 0
    for group in board.components(stones):
        sites = list(iter_bits(group))
        if all(board.neighbour_mask[a] >> b & 1 for i, a in enumerate(sites) for b in sites[i + 1:]):
            out |= group
    return out


@pytest.mark.parametrize("core", [False, True], ids=["python", "core"])
def test_open_sites_are_next_to_no_unsplittable_enemy_group(core: bool) -> None:
    """`SpeldeState.open_sites` (the evaluation's input; the core's when it runs) against the
    definition, on positions along seeded random games at sides 2..9."""
    module = "compiled" if core else "state"
    if core:
        pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")
    rules = importlib.import_module(f"hexarena.engine.games.spelde.{module}").RULES
    checked = 0
    for n in range(2, 10):
        rng = random.Random(n)
        state = rules.new_game(rules.variant(n, ["nopie"]), 0)
        while state.outcome() is None:
            board = state.board
            empty = board.mask & ~(state.black | state.white)
            expected = (empty & ~board.expand(_unsplittable(board, state.white)),
                        empty & ~board.expand(_unsplittable(board, state.black)))
            assert state.open_sites() == expected, state.position()
            checked += 1
            state = state.play(state.random_action(rng))
    assert checked > 100
