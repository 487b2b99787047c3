"""What MCTS reads from the compiled core (core/src/python_search.rs) against the Python
definitions: the Anda games' board summary behind their evaluations, Marbanta's traced
playouts for RAVE, and ``mcts:N``'s reproducibility with the core's rules and without.

Core states are built from the Python state of the same position (``compiled.RULES``), so
the comparisons run whatever HEXARENA_CORE says; they skip when the core is not installed.
"""
from __future__ import annotations

import importlib
import random

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Swap
from hexarena.engine.core import Colour
from hexarena.engine.game import GameInfo, GameState
from hexarena.engine.games import anda_regions as R
from hexarena.players import MctsBot
from hexarena.players.compiled_search import CompiledTree
from hexarena.players.tree import Tree
from hexarena.players.games import evaluation_for

GAMES = ["anda", "anda-prison", "marbanta", "spelde", "vaxandis"]


def rules(game: str, core: bool) -> GameInfo:
    """The game's Python rules, or its core's (skipping when the core is not installed)."""
    if core:
        pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")
    module = "compiled" if core else "state"
    package = registry.GAME_MODULES[game]
    info: GameInfo = importlib.import_module(f"hexarena.engine.games.{package}.{module}").RULES
    return info


def as_core(state: GameState) -> GameState:
    """The core's state of the position of `state`."""
    core = rules(state.info.id, True)
    pos = state.to_position()
    return core.from_position(state.variant, pos, core.read_keys(pos))


def positions(game: str, sizes: range, seed: int = 0, plies: int = 1000):
    """Python states along seeded random games at each side of `sizes` (their first `plies`)."""
    python = rules(game, False)
    for n in sizes:
        rng = random.Random(seed + n)
        state = python.new_game(python.variant(n), 0)
        while state.outcome() is None and state.ply < plies:
            yield state
            state = state.play(state.random_action(rng))


@pytest.mark.parametrize("game", ["anda", "anda-prison"])
def test_the_core_summary_and_evaluation_are_the_python_ones(game: str) -> None:
    """`summary` (the evaluations' input) in the core equals the Python definition, which
    agrees with the rules' words (territory, smothered); the evaluation's values are equal."""
    evaluate, _ = evaluation_for(game)
    checked = 0
    for state in positions(game, range(2, 10)):
        board, b, w = state.board, state.black, state.white
        empty = board.mask & ~(b | w)
        summary = state.summary()
        tb, tw, groups_b, groups_w = summary
        assert (tb, tw) == (R.territory(board, b, w, empty).bit_count(), R.territory(board, w, b, empty).bit_count())
        for groups, own, enemy in ((groups_b, b, w), (groups_w, w, b)):
            found = R.groups(board, own)
            assert [size for size, _ in groups] == [g.bit_count() for g in found]
            assert [safe == 0 for _, safe in groups] == [R.smothered(board, g, enemy, empty) for g in found]
        core = as_core(state)
        assert core.summary() == summary, state.position()
        assert evaluate(core) == evaluate(state), state.position()
        checked += 1
    assert checked > 300


def test_the_core_vaxandis_summary_and_evaluations_are_the_python_ones() -> None:
    """Vaxandis's `summary` in the core equals the Python one, which counts each colour's actions
    as its legal actions; the search's evaluation and the searcher's term are equal."""
    from hexarena.players.games.vaxandis import RANKS, evaluate_search, trailing
    checked = 0
    for state in positions("vaxandis", range(2, 8), plies=60):
        summary = state.summary(RANKS)
        core = as_core(state)
        assert core.summary(RANKS) == summary, state.position()
        actions = [a for a in state.legal_actions() if type(a) is not Swap]
        assert summary[4 if state.to_move is Colour.BLACK else 5] == len(actions)
        assert evaluate_search(core) == evaluate_search(state)
        assert [trailing(core, c) for c in Colour] == [trailing(state, c) for c in Colour]
        checked += 1
    assert checked > 200


def test_marbanta_traced_playouts_replay_through_the_python_rules() -> None:
    """The core's traced playout: its actions, played by the Python rules from the start,
    reach its last state; the swaps are counted; the draws are those of the untraced playout."""
    python = rules("marbanta", False)
    checked = 0
    for n, balance in ((3, "pie"), (5, "nopie"), (7, "pie"), (9, "pie")):
        for seed in range(6):
            start = python.new_game(python.variant(n, [balance]), 0)
            start = start.play(start.random_action(random.Random(seed))) if seed % 2 else start
            cap = python.ply_cap(n)
            end, swaps, trace = as_core(start).traced_playout(random.Random(seed), cap)
            plain, plain_swaps = as_core(start).playout(random.Random(seed), cap)
            assert (end, swaps) == (plain, plain_swaps)
            state, swapped = start, 0
            for mover, action in trace:
                assert mover is state.to_move
                swapped += type(action) is Swap
                state = state.play(action)
                checked += 1
            assert state == end and swapped == swaps
            assert state.outcome() is not None or state.ply >= cap
    assert checked > 200


@pytest.mark.parametrize("game", ["anda", "marbanta"])
def test_the_python_traced_playout_draws_as_the_playout(game: str) -> None:
    python = rules(game, False)
    start = python.new_game(python.variant(5), 0)
    cap = python.ply_cap(5)
    end, swaps, trace = start.traced_playout(random.Random(3), cap)
    assert (end, swaps) == start.playout(random.Random(3), cap)
    assert len(trace) == end.ply - start.ply


@pytest.mark.parametrize("core", [False, True], ids=["python", "core"])
@pytest.mark.parametrize("game", GAMES)
def test_mcts_n_with_a_seed_is_reproducible(game: str, core: bool) -> None:
    """``mcts:N``: the same state and seed give the same move and the same root statistics,
    with the core's rules and with the Python ones."""
    python = rules(game, False)
    state = python.new_game(python.variant(None), 0)
    rng = random.Random(11)
    for _ in range(8):
        state = state.play(state.random_action(rng))
    if core:
        state = as_core(state)
    bot = MctsBot(iterations=150, seconds=None)
    runs = [bot.search(state, random.Random(7)) for _ in range(2)]
    assert runs[0].action == runs[1].action
    stats = [root_stats(run.tree) for run in runs]
    assert stats[0] == stats[1]


def root_stats(tree: Tree | CompiledTree) -> list[tuple[object, ...]]:
    """Each root child's action and statistics, from the Python tree or the core's
    (players/compiled_search.py)."""
    if isinstance(tree, CompiledTree):
        return list(tree.children())
    return [(c.action, c.visits, c.wins) for c in tree.root.children]

