"""Spelde's and Marbanta's compiled search (core/src/search/spelde.rs, marbanta.rs) against
the Python rules and players, on positions of seeded random games of every variant: the
actions the search lists (``hexarena_core.search_probe``) are the legal actions, Spelde's leaf
evaluation is players/games/spelde.py's, and ``MctsBot``'s search in the core
(players/compiled_search.py) plays an immediate win, repeats itself under a seed and plays
whole games legally. The positions are the Python rules' states and the core's search runs
whatever HEXARENA_CORE says; the tests skip when the core is not installed."""
from __future__ import annotations

import importlib
import random
from collections.abc import Iterator

import pytest

from hexarena.engine import registry
from hexarena.engine.game import GameInfo, GameState
from hexarena.players.compiled_search import CompiledTree, search
from hexarena.players.mcts import SearchResult
from hexarena.players.games import evaluator_for

core = pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

GAMES = ["spelde", "marbanta"]
#: Listings compared when there are at most this many legal actions (the tree's ENUMERATION_CAP).
CAP = 256


def rules(game: str) -> GameInfo:
    """The game's Python rules (the specification)."""
    info: GameInfo = importlib.import_module(f"hexarena.engine.games.{registry.GAME_MODULES[game]}.state").RULES
    return info


def variants(game: str) -> list[list[str]]:
    if game == "spelde":
        return [[balance, f"flips={rule}"] for balance in ("pie", "nopie") for rule in ("literal", "dense", "standard")]
    return [["pie"], ["nopie"]]


def states(game: str, sizes: tuple[int, ...], seeds: int) -> Iterator[GameState]:
    """The states of seeded random games (Python rules) of every variant at each side, while not over."""
    info = rules(game)
    for n in sizes:
        for tokens in variants(game):
            for seed in range(seeds):
                rng = random.Random(1000 * n + seed)
                state = info.new_game(info.variant(n, tokens), 0)
                while state.outcome() is None:
                    yield state
                    state = state.play(state.random_action(rng))


def run(state: GameState, iterations: int, seed: int) -> SearchResult:
    """``mcts:iterations``'s search of `state` in the core."""
    return SearchResult(*search(state, random.Random(seed), iterations, None, None))


def wins(state: GameState, action: object) -> bool:
    outcome = state.play(action).outcome()
    return outcome is not None and outcome.winner is state.to_move


def test_both_games_have_a_compiled_search() -> None:
    assert {"spelde", "marbanta"} <= set(core.SEARCH_GAMES)


@pytest.mark.parametrize("game,sizes", [("spelde", (3, 5)), ("marbanta", (3, 5, 7))])
def test_the_listed_actions_are_the_legal_actions(game: str, sizes: tuple[int, ...]) -> None:
    """Where there are at most CAP legal actions the core lists each once (in its own order),
    in the notation the rules parse back; where there are more it says so."""
    listed = sampled = 0
    for state in states(game, sizes, 2):
        found, _ = core.search_probe(game, state, CAP, 0)
        expected = state.listed_actions(CAP)
        if expected is None:
            assert found is None, state.position()
            sampled += 1
            continue
        assert found is not None, state.position()
        assert len(found) == len(set(found)) == len(expected), state.position()
        assert {state.parse(token) for token in found} == set(expected), state.position()
        assert set(found) == {state.format(a) for a in expected}
        listed += 1
    assert listed > 100 and sampled > 10, (listed, sampled)


def test_spelde_leaf_evaluation_is_the_players_one() -> None:
    checked = 0
    for state in states("spelde", (4, 6), 1):
        evaluate = evaluator_for(state)
        _, value = core.search_probe("spelde", state, 0, 0)
        assert value == evaluate(state, random.Random(0)), state.position()
        checked += 1
    assert checked > 100


def test_a_marbanta_leaf_is_a_random_playouts_result() -> None:
    values = {core.search_probe("marbanta", state, 0, seed)[1]
              for seed, state in enumerate(states("marbanta", (5,), 1))}
    assert values == {0.0, 1.0}


@pytest.mark.parametrize("game,sizes", [("spelde", (3, 4)), ("marbanta", (2, 3, 4))])
def test_an_immediate_win_is_played(game: str, sizes: tuple[int, ...]) -> None:
    found = 0
    for state in states(game, sizes, 3):
        actions = state.listed_actions(CAP)
        if actions is None:
            continue
        winning = [a for a in actions if wins(state, a)]
        if winning and len(winning) < len(actions):
            assert wins(state, run(state, 10, state.ply).action), state.position()
            found += 1
    assert found >= 3, found


@pytest.mark.parametrize("game,size", [("spelde", 5), ("marbanta", 7)])
def test_mcts_n_with_a_seed_gives_the_same_move_twice(game: str, size: int) -> None:
    info = rules(game)
    rng = random.Random(3)
    state = info.new_game(info.variant(size), 0)
    for _ in range(6):
        state = state.play(state.random_action(rng))
    first, second = run(state, 300, 7), run(state, 300, 7)
    assert isinstance(first.tree, CompiledTree) and isinstance(second.tree, CompiledTree)
    assert first.action == second.action and first.iterations == second.iterations == 300
    assert first.tree.children() == second.tree.children()


@pytest.mark.parametrize("game,tokens", [("spelde", ["pie", "flips=dense"]), ("spelde", ["nopie", "flips=literal"]),
                                         ("marbanta", ["pie"]), ("marbanta", ["nopie"])])
def test_a_whole_game_of_mcts_against_random_is_legal(game: str, tokens: list[str]) -> None:
    info = rules(game)
    state = info.new_game(info.variant(5, tokens), 0)
    rng = random.Random(5)
    while state.outcome() is None:
        action = run(state, 100, rng.getrandbits(32)).action if state.ply % 2 == 0 else state.random_action(rng)
        assert state.is_legal(action), (state.position(), action)
        state = state.play(action)
    assert state.outcome() is not None


@pytest.mark.parametrize("game,size,answers", [("spelde", 4, {"swap"}), ("marbanta", 5, {"swap", "keep"})])
def test_the_pie_decision_comes_from_the_search(game: str, size: int, answers: set[str]) -> None:
    info = rules(game)
    state = info.new_game(info.variant(size, ["pie"]), 0)
    state = state.play(state.random_action(random.Random(3)))      # the pie's opening; White answers
    result = run(state, 300, 0)
    assert isinstance(result.tree, CompiledTree) and state.is_legal(result.action)
    children = {token for token, *_ in result.tree.children()}
    assert answers <= children
