"""MCTS in the compiled core (players/compiled_search.py, core/src/search/) with real Vaxandis
states: the tactics the search guarantees, reproducibility, reuse between moves, the pie and the
info line. The core's search runs whatever HEXARENA_CORE says (the states are the core's); the
tests skip when the core is not installed."""
from __future__ import annotations

import random

import pytest

from hexarena.engine.actions import Swap
from hexarena.engine.game import GameState
from hexarena.players import MctsBot
from hexarena.players.base import Budget
from hexarena.players.compiled_search import CompiledTree, search
from hexarena.players.insight import search_info
from hexarena.players.mcts import SearchResult
from tests.support.positions import new, walk

core = pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")


def as_core(state: GameState) -> GameState:
    from hexarena.engine.games.vaxandis import compiled
    return compiled._core(state)


def run(state: GameState, iterations: int, seed: int = 1, tree: object = None) -> SearchResult:
    return search(MctsBot(iterations=iterations, seconds=None), state, random.Random(seed), Budget(), tree)


def wins(state: GameState, action: object) -> bool:
    after = state.play(action)
    outcome = after.outcome()
    return outcome is not None and outcome.winner is state.to_move


def states(seed: int, games: int) -> list[GameState]:
    """The states of random Vaxandis games on side 4 (nopie), while not over."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = as_core(new("vaxandis", 4, "nopie"))
        while state.outcome() is None:
            out.append(state)
            state = state.play(state.random_action(rng))
    return out


def test_vaxandis_has_a_compiled_search() -> None:
    assert "vaxandis" in core.SEARCH_GAMES


def test_an_immediate_win_is_played() -> None:
    found = 0
    for state in states(1, 6):
        actions = list(state.legal_actions())
        winning = [a for a in actions if wins(state, a)]
        if winning and len(winning) < len(actions):
            assert wins(state, run(state, 10, seed=state.ply).action)
            found += 1
    assert found


def test_a_move_that_hands_the_opponent_a_win_is_avoided() -> None:
    def loses(state: GameState, action: object) -> bool:
        after = state.play(action)
        return after.outcome() is None and any(wins(after, r) for r in after.legal_actions())

    found = 0
    for state in states(2, 6)[-60:]:
        actions = list(state.legal_actions())
        if any(wins(state, a) for a in actions):
            continue
        bad = [a for a in actions if loses(state, a)]
        if bad and len(bad) < len(actions):
            assert not loses(state, run(state, 30).action)
            found += 1
    assert found


def test_mcts_n_with_a_seed_gives_the_same_move_twice() -> None:
    state = as_core(walk(new("vaxandis", 5), 12, 3))
    first, second = run(state, 300, seed=7), run(state, 300, seed=7)
    assert first.action == second.action
    assert isinstance(first.tree, CompiledTree) and isinstance(second.tree, CompiledTree)
    assert first.tree.children() == second.tree.children()
    assert first.iterations == 300


def test_reuse_keeps_the_statistics_of_the_subtree_played() -> None:
    state = as_core(walk(new("vaxandis", 5, "nopie"), 10, 5))
    first = run(state, 600)
    assert isinstance(first.tree, CompiledTree)
    mine = state.play(first.action)
    _, pv = first.tree.search.chosen(3)
    now = mine.play(mine.parse(pv[1]))          # the chosen move's most visited reply
    second = run(now, 100, seed=2, tree=first.tree)
    assert isinstance(second.tree, CompiledTree)
    assert second.iterations == 100
    assert second.tree.search.visits > 100      # the reply's visits in the first search, and 100 more
    fresh = run(now, 100)
    assert isinstance(fresh.tree, CompiledTree)
    assert fresh.tree.search.visits == 100


def test_the_pie_is_decided_by_value() -> None:
    start = as_core(new("vaxandis", 4))
    opened = start.play(start.parse("d4"))
    result = run(opened, 400)
    assert isinstance(result.tree, CompiledTree)
    children = {token: (visits, mean) for token, visits, mean, _ in result.tree.children()}
    assert "swap" in children
    others = [(visits, mean, token) for token, (visits, mean) in children.items() if token != "swap"]
    _, best_mean, best = max(others, key=lambda c: (c[0], c[1]))
    expected = "swap" if children["swap"][1] >= best_mean else best
    assert opened.format(result.action) == expected
    assert isinstance(result.action, Swap) == (expected == "swap")


def test_the_info_line_of_a_compiled_search() -> None:
    state = as_core(walk(new("vaxandis", 5, "nopie"), 8, 6))
    result = run(state, 300)
    info = search_info(result)
    assert info.visits == 300 and info.depth == result.depth and info.depth >= 2
    assert info.winrate is not None and 0.0 <= info.winrate <= 1.0
    assert info.pv[0] == state.format(result.action) and len(info.pv) >= 2
    walked = state
    for token in info.pv:
        walked = walked.play(walked.parse(token))
        if walked.outcome() is not None:
            break


def test_the_bot_searches_in_the_core_only_with_the_games_own_parts() -> None:
    from hexarena.players.compiled_search import usable
    from hexarena.players.selection import UCT
    state = as_core(new("vaxandis", 4, "nopie"))
    assert usable(MctsBot(iterations=10, seconds=None), state) == _active()
    assert not usable(MctsBot(iterations=10, seconds=None, selection=UCT()), state)
    assert not usable(MctsBot(iterations=10, seconds=None, narrow=False), state)


def _active() -> bool:
    from hexarena.engine import compiled
    return compiled.active() is not None


@pytest.mark.parametrize("searcher", [0, 1])
def test_the_cut_off_score_is_players_games_vaxandis(searcher: int) -> None:
    """The core's leaf score: `evaluate_search` plus `trailing` for the searching player, on the
    states of random games of both sizes 4 and 5 and every phase."""
    from hexarena.engine.core import Colour
    from hexarena.players.games.vaxandis import evaluate_search, trailing
    colour = Colour.BLACK if searcher == 0 else Colour.WHITE
    for size, tokens in ((4, ()), (5, ("nopie",))):
        state = new("vaxandis", size, *tokens)
        rng = random.Random(size)
        while state.outcome() is None and state.ply < 120:
            want = evaluate_search(state) + trailing(state, colour)
            assert core.vaxandis_search_score(state, searcher) == pytest.approx(want, abs=1e-9)
            state = state.play(state.random_action(rng))
