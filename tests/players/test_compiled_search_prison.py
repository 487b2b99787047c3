"""Anda-prison's compiled search (core/src/search/anda_prison.rs) with real Anda-prison states:
the static evaluation equals players/games/anda_prison.py's, the root's actions are the rules'
in every phase and read back as notation, an immediate win is played, a seeded ``mcts:N``
repeats, and whole games of the core's MCTS against random play stay legal. Skips when the core is not installed."""
from __future__ import annotations

import random

import pytest

from hexarena.engine.game import GameState
from hexarena.players.mcts import SearchResult
from hexarena.players.compiled_search import CompiledTree, search
from hexarena.players.games import narrow_for, selection_for
from hexarena.players.games.anda_prison import KNOWLEDGE, evaluate
from hexarena.players.random_bot import random_bot
from hexarena.players.selection import UCT
from tests.support.positions import new

core = pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

#: (size, balance) of the games the tests walk.
VARIANTS = ((5, "pie"), (5, "nopie"), (7, "corners"), (9, "nopie"))


def as_core(state: GameState) -> GameState:
    from hexarena.engine.games.anda_prison import compiled
    return compiled._core(state)


def states(seed: int, size: int, balance: str, komi: int = 0) -> list[GameState]:
    """The states of one seeded random Anda-prison game (Python rules), while not over."""
    rng = random.Random(seed)
    state = new("anda-prison", size, balance)
    state = state.info.new_game(state.variant, komi)
    out = []
    while state.outcome() is None and state.ply < state.info.ply_cap(size):
        out.append(state)
        state = state.play(state.random_action(rng))
    return out


def open_search(state: GameState, seed: int = 1):
    selection = selection_for(state)
    assert isinstance(selection, UCT)
    return core.search_open("anda-prison", state, selection.exploration, None, narrow_for(state), seed)


def test_anda_prison_has_a_compiled_search() -> None:
    assert "anda-prison" in core.SEARCH_GAMES


@pytest.mark.parametrize("size,balance", VARIANTS)
def test_the_static_evaluation_is_the_players(size: int, balance: str) -> None:
    """`evaluate` and the leaf value (StaticEvaluation, SCALE 6) of the core equal the Python
    player's exactly, on the states of seeded games (Python and core states)."""
    leaf = KNOWLEDGE.evaluator(size)
    rng = random.Random(0)
    checked = 0
    for seed in range(3):
        for state in states(seed, size, balance, komi=2 * seed)[::2]:
            for s in (state, as_core(state)):
                assert core.prison_search_value(s) == (evaluate(s), leaf(s, rng)), s.position()
            checked += 1
    assert checked > 20


def test_the_roots_children_are_the_legal_actions_in_notation() -> None:
    phases = set()
    for size, balance in VARIANTS[:3]:
        walked = states(7, size, balance, komi=2)
        for state in walked[:8] + walked[8:60:6]:
            search = open_search(state)
            search.run(iterations=30)
            seen = [child[0] for child in search.children()]
            actions = [state.parse(token) for token in seen]
            assert len(set(actions)) == len(actions)
            for action in actions:
                state.play(action)                  # IllegalMove fails the test
            assert [state.format(a) for a in actions] == seen
            legal = list(state.legal_actions())
            if len(legal) <= 30:                    # few: the root tries every one
                assert set(actions) == set(legal), state.position()
            phases.add(state.phase)
    assert len(phases) >= 7, phases


def test_an_immediate_win_is_played() -> None:
    """Where some actions win at once (a placement leaving the opponent no placement and no
    release, an `accept` when ahead) and others do not, a short search plays a winning one."""
    def wins(state: GameState, action: object) -> bool:
        outcome = state.play(action).outcome()
        return outcome is not None and outcome.winner is state.to_move

    found = 0
    for seed in range(8):
        for state in states(seed, 5, "nopie")[-16:]:
            actions = list(state.legal_actions())
            winning = [a for a in actions if wins(state, a)]
            if winning and len(winning) < len(actions):
                search = open_search(state, seed=state.ply)
                search.run(iterations=20)
                assert wins(state, state.parse(search.choose())), state.position()
                found += 1
    assert found


def test_mcts_n_with_a_seed_gives_the_same_move_twice() -> None:
    state = as_core(states(3, 7, "pie")[20])
    def run(seed: int) -> tuple[object, list]:
        result = SearchResult(*search(state, random.Random(seed), 300, None, None))
        assert isinstance(result.tree, CompiledTree) and result.iterations == 300
        return result.action, result.tree.children()
    assert run(4) == run(4)


@pytest.mark.parametrize("size,balance", ((5, "pie"), (7, "nopie")))
def test_a_whole_game_against_random_play_stays_legal(size: int, balance: str) -> None:
    """The core's MCTS (its tree handed from move to move) against `random`, every other ply
    (first or second): every action it plays is legal (state.play raises IllegalMove else)
    until the rules end the game or the ply cap."""
    for first in (0, 1):
        rng = random.Random(size + first)
        state = as_core(new("anda-prison", size, balance))
        tree: object = None
        searched = 0
        while state.outcome() is None and state.ply < state.info.ply_cap(size):
            if state.ply % 2 == first:
                result = SearchResult(*search(state, rng, 60, None, tree))
                action, tree = result.action, result.tree
                searched += 1
            else:
                action = random_bot(state, rng)
            state = state.play(action)
        assert searched > 0
