"""Vaxandis's core state (``VaxandisCore``) on what only Vaxandis has: tokens read as the
notation reads them (the referee's check reads each answer so), the height table and the
players' questions (``targets``, ``actions``, ``summary``, ``legal_actions``, ``changes``) answered as
the Python rules answer them, from states that reach the tall stacks of long games, and the
draw uniform where frozen and blocked stacks make the moves hard to count. (The
cases every core state shares: tests/engine/test_core_states.py.)"""
from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

from hexarena.engine.actions import Move, Swap  # noqa: E402
from hexarena.engine.compiled import places  # noqa: E402
from hexarena.engine.core import Colour  # noqa: E402
from hexarena.engine.game import GameState  # noqa: E402
from tests.support.core_step import assert_uniform, read_outcome  # noqa: E402
from tests.support.differential import load, rules  # noqa: E402
from tests.support.vaxandis import board  # noqa: E402

VARIANTS = (["pie", "freeze=stack", "touch=path"], ["nopie", "freeze=group", "touch=landing"])


def tokens(state: GameState, rng: random.Random) -> list[str]:
    """Tokens the referee may be answered with: legal actions' tokens, mangled (case, blanks,
    leading zeros, repeated and off-board sites) and other games' forms."""
    board = state.board
    out = ["swap", " SWAP\t", "resign", "pass", "komi=3", "a1,b2", "e5:e6", "e5/e6", "e5-", "-e5", "", "a", "z99",
           "a01", "a1-a1", "e5 -e6", "e5-e6-e7", "ü5", "a" + "1" * 30, "A1-B2", "a0-a1"]
    listed = [state.format(a) for a in state.legal_actions()]
    for token in rng.sample(listed, min(len(listed), 20)):
        out += [token, token.upper(), f"  {token} ", token.replace("1", "01", 1)]
    for _ in range(20):
        a, b = rng.choice(board.sites), rng.choice(board.sites)
        token = f"{board.name(a)}-{board.name(b)}"
        out += [token, board.name(a), token.replace(board.name(b), f"{chr(97 + 2 * board.n)}{2 * board.n + 2}")]
    return out


@pytest.mark.parametrize("n", (4, 6))
def test_tokens_are_read_as_the_notation_reads_them(n: int) -> None:
    """The same action and canonical token as the Python rules, or the same error; a read
    action plays as the Python rules play it, or is refused with their reason."""
    python, core = rules("vaxandis")
    rng = random.Random(f"vaxandis read {n}")
    for tokens_of_variant in VARIANTS:
        state = core.new_game(core.variant(n, tokens_of_variant), 0)
        for _ in range(30):
            py = load(python, state.position())
            for token in tokens(state, rng):
                got = read_outcome(state, token)
                assert got == read_outcome(py, token), token
            cell = rng.choice(state.board.sites)         # read in the core: the shared Place
            assert state.read(f" {state.board.name(cell).upper()}")[0] is places()[cell]
            if state.outcome() is not None:
                break
            for _ in range(3):
                state = state.play(state.random_action(rng))
                if state.outcome() is not None:
                    break


@pytest.mark.parametrize("n", (4, 5, 6))
def test_the_players_questions_are_answered_as_the_rules_answer_them(n: int) -> None:
    """Along long seeded games (tall stacks, frozen groups) in each variant."""
    python, core = rules("vaxandis")
    rng = random.Random(f"vaxandis questions {n}")
    for tokens_of_variant in VARIANTS:
        state = before = core.new_game(core.variant(n, tokens_of_variant), 0)
        while state.outcome() is None and state.ply < core.ply_cap(n):
            if state.ply % 7 == 0:
                py = load(python, state.position())
                assert state.changes(before) == py.changes(load(python, before.position()))
                assert state.levels == py.levels and state.heights() == py.heights()
                assert state.targets() == py.targets() and state.has_move() == py.has_move()
                assert [state.actions(c) for c in Colour] == [py.actions(c) for c in Colour]
                assert state.summary(3) == py.summary(3) and state.summary(1) == py.summary(1)
                assert list(state.legal_actions()) == list(py.legal_actions())
            before, state = state, state.play(state.random_action(rng))
    assert max(h for h, _ in state.levels) > 3


@pytest.mark.parametrize("freeze", ("stack", "group"))
def test_the_draw_is_uniform_over_every_action_with_frozen_and_blocked_stacks(freeze: str) -> None:
    """The core's draw from a position of many moves (frozen stacks, a higher stack in the
    way): each legal action about equally often, as the Python rules' rejection sampler draws;
    with the pie's `swap` too."""
    python, core = rules("vaxandis")
    rng = random.Random(f"vaxandis uniform {freeze}")
    text = board("B1 e5 e8 c3 i6 i7 / B2 b6 c6 / W1 a1 g7 / W2 h5 / W3 c7", freeze=freeze).position()
    state = load(core, text)
    listed = list(load(python, text).legal_actions())
    assert list(state.legal_actions()) == listed and any(isinstance(a, Move) for a in listed)
    assert_uniform(Counter(state.random_action(rng) for _ in range(60 * len(listed))), listed)
    pie = core.new_game(core.variant(5), 0)
    pie = pie.play(pie.parse("e5"))
    listed = list(load(python, pie.position()).legal_actions())
    assert Swap() in listed
    assert_uniform(Counter(pie.random_action(rng) for _ in range(60 * len(listed))), listed)
