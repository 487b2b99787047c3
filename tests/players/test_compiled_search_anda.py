"""Anda's compiled search (core/src/search/anda.rs) with real Anda states: the static evaluation
equals players/games/anda.py's, the root's actions are the rules' in every phase and read back
as notation, an immediate win is played, a seeded search and `mcts:N` repeat, and a whole game
of `mcts` against random play stays legal. Skips when the core is not installed."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import compiled
from hexarena.engine.game import GameState
from hexarena.players import MctsBot, get
from hexarena.players.base import Budget
from hexarena.players.compiled_search import CompiledTree
from hexarena.players.games import narrow_for, selection_for
from hexarena.players.games.anda import evaluate
from hexarena.players.selection import UCT
from tests.support.positions import new

core = pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

#: (size, variant tokens) of the games the tests walk.
VARIANTS = ((5, "pie"), (5, "nopie opening=cells"), (7, "pie opening=cells"), (9, "nopie"))


def as_core(state: GameState) -> GameState:
    from hexarena.engine.games.anda.compiled import _core
    return _core(state)


def states(seed: int, size: int, tokens: str, komi: int = 0) -> list[GameState]:
    """The states of one seeded random Anda game (Python rules), while not over."""
    rng = random.Random(seed)
    state = new("anda", size, *tokens.split())
    if komi:
        state = state.info.new_game(state.variant, komi)
    out = []
    while state.outcome() is None and state.ply < state.info.ply_cap(size):
        out.append(state)
        state = state.play(state.random_action(rng))
    return out


def open_search(state: GameState, seed: int = 1):
    selection = selection_for(state)
    assert isinstance(selection, UCT)
    return core.search_open("anda", state, selection.exploration, None, narrow_for(state), seed)


def wins(state: GameState, action: object) -> bool:
    outcome = state.play(action).outcome()
    return outcome is not None and outcome.winner is state.to_move


def test_anda_has_a_compiled_search() -> None:
    assert "anda" in core.SEARCH_GAMES


@pytest.mark.parametrize("size,tokens", VARIANTS)
def test_the_static_evaluation_is_the_players(size: int, tokens: str) -> None:
    checked = 0
    for seed in range(3):
        for state in states(seed, size, tokens, komi=seed * 3)[::3]:
            for s in (state, as_core(state)):
                assert core.anda_search_score(s) == evaluate(s), s.position()
            checked += 1
    assert checked > 30


def test_the_roots_children_are_the_legal_actions_in_notation() -> None:
    phases = set()
    for size, tokens in VARIANTS[:3]:
        walked = states(7, size, tokens, komi=2)
        for state in walked[:4] + walked[4:40:4]:
            search = open_search(state)
            search.run(iterations=20)
            tokens_seen = [child[0] for child in search.children()]
            actions = [state.parse(token) for token in tokens_seen]
            assert len(set(actions)) == len(actions)
            for action in actions:
                state.play(action)                  # IllegalMove fails the test
            legal = list(state.legal_actions())
            if len(legal) <= 256:                   # listed: the root expands every one
                assert set(actions) == set(legal), state.position()
            assert [state.format(a) for a in actions] == tokens_seen
            phases.add((state.phase, state.to_move in state.first))
    assert len(phases) == 4


def test_an_immediate_win_is_played() -> None:
    found = 0
    for seed in range(40):
        for state in states(seed, 5, "nopie")[-12:]:
            actions = list(state.legal_actions())
            winning = [a for a in actions if wins(state, a)]
            if winning and len(winning) < len(actions):
                search = open_search(state, seed=state.ply)
                search.run(iterations=5)
                assert wins(state, state.parse(search.choose()))
                found += 1
    assert found


def test_a_seeded_search_repeats() -> None:
    state = states(3, 7, "pie")[30]
    def run(seed: int) -> tuple[str, list]:
        search = open_search(state, seed)
        search.run(iterations=300)
        return search.choose(), search.children()
    assert run(4) == run(4)


def test_mcts_n_with_a_seed_gives_the_same_move_twice() -> None:
    for state in (states(5, 7, "pie")[20], as_core(states(5, 7, "pie")[20]), new("anda", 7)):
        bot = MctsBot(iterations=200, seconds=None)
        first, second = (bot.search(state, random.Random(7)) for _ in range(2))
        assert first.action == second.action and first.iterations == 200
        assert isinstance(first.tree, CompiledTree) == (compiled.active() is not None)  # HEXARENA_CORE
        if isinstance(first.tree, CompiledTree) and isinstance(second.tree, CompiledTree):
            assert first.tree.children() == second.tree.children()
        assert get("mcts:200")(state, random.Random(7)) == first.action


@pytest.mark.parametrize("tokens", ["pie", "nopie opening=cells"])
def test_a_whole_game_of_mcts_against_random_play_is_legal(tokens: str) -> None:
    state = as_core(new("anda", 5, *tokens.split()))
    rng, tree = random.Random(11), None
    bot = MctsBot(iterations=60, seconds=None)
    cap = state.info.ply_cap(5)
    while state.outcome() is None and state.ply < cap:
        if state.ply % 2 == 0:
            found = bot.search(state, rng, Budget(), tree)
            action, tree = found.action, found.tree
        else:
            action = state.random_action(rng)
        state = state.play(action)               # IllegalMove fails the test
    assert state.outcome() is not None or state.ply == cap
