"""The core's Spelde state (``SpeldeCore``) against the Python rules, Spelde's own cases: the
draw is uniform over the cells (and ``swap``), then over the flip sets of the drawn cell;
splits the core refuses are refused with the Python rules' reason; tokens are read as the
notation reads them. (The cases every core state shares: tests/engine/test_core_states.py.)"""
from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

from hexarena.engine.actions import Place, Split, Swap  # noqa: E402
from hexarena.engine.compiled import places  # noqa: E402
from hexarena.engine.game import GameState  # noqa: E402
from hexarena.engine.games.spelde.state import SWAP  # noqa: E402
from hexarena.engine.geometry import iter_bits  # noqa: E402
from tests.support.core_step import assert_uniform, read_outcome  # noqa: E402
from tests.support.differential import after, load, rules  # noqa: E402

FLIPS = ("literal", "dense", "standard")


@pytest.mark.parametrize("flips", FLIPS)
def test_splits_are_refused_with_the_rules_reasons(flips: str) -> None:
    """Random splits (a cell and any sites near it, of either colour or empty)
    along seeded games: the core plays or refuses each as the Python rules do."""
    python, core = rules("spelde")
    rng = random.Random(f"spelde refusals {flips}")
    tried = 0
    for n in (4, 6):
        state = core.new_game(core.variant(n, ["pie", f"flips={flips}"]), 0)
        sites = state.board.sites
        while state.outcome() is None:
            py = load(python, state.position())
            for _ in range(20):
                cell = rng.choice(sites)
                near = [s for s in sites if s != cell and (rng.random() < 0.15 or s in iter_bits(
                    state.board.neighbour_mask[cell] | state.board.neighbour_mask[rng.choice(sites)]))]
                named = sum(1 << s for s in rng.sample(near, min(len(near), rng.randrange(1, 5))))
                for action in (Split(cell, named), Split(cell, 0), Place(cell), Swap()):
                    assert after(state, action) == after(py, action), (state.position(), action)
                    tried += 1
            state = state.play(state.random_action(rng))
    assert tried > 500


def test_the_random_ply_is_uniform_over_the_cells_and_swap() -> None:
    """White's answer to the pie stone: a placement on each legal cell or `swap`, each about
    equally often over 3000 draws with one rng from one state (each a fresh draw of its stream)."""
    python, core = rules("spelde")
    state = core.new_game(core.variant(4, ["pie"]), 0)
    state = state.play(Place(state.board.parse("d4")))
    assert state.phase is SWAP
    py = load(python, state.position())
    listed = [Swap(), *(Place(c) for c in iter_bits(py.legal_cells()))]
    assert set(listed) <= set(py.legal_actions())
    rng = random.Random("uniform cells")
    assert_uniform(Counter(state.random_action(rng) for _ in range(3000)), listed)


@pytest.mark.parametrize("flips", FLIPS)
def test_the_flip_sets_of_a_cell_are_drawn_uniformly(flips: str) -> None:
    """Black beside a white line of five: the draws on that cell are uniform over its flip sets."""
    python, core = rules("spelde")
    text = "spelde 4 b ..../...../.wwwww/......./....../...../.... variant=nopie flips=" + flips
    state, py = load(core, text), load(python, text)
    cell = state.board.parse("c2")
    listed = [a for a in py.legal_actions() if isinstance(a, Split) and a.cell == cell]
    assert len(listed) >= 2, text
    rng = random.Random(f"uniform flips {flips}")
    seen: Counter = Counter()
    while sum(seen.values()) < 200 * len(listed):
        action = state.random_action(rng)
        if getattr(action, "cell", None) == cell:
            seen[action] += 1
    assert_uniform(seen, listed)


def tokens(state: GameState, rng: random.Random) -> list[str]:
    """Tokens the referee may be answered with: legal actions' tokens, mangled (case, blanks,
    leading zeros, repeated and off-board sites, sites past the board's bytes) and other
    games' forms."""
    board = state.board
    out = ["swap", " SWAP\t", "resign", "pass", "komi=3", "e5-e6", "a1,b2", "e5:e6", "e5/", "/e5", "", "a", "z99",
           "a01", "a1/a1", "e5 /e6", "e5/e6,", "ü5", "a" + "1" * 30, "A1/B2,c3", "a0"]
    for _ in range(30):
        cell = rng.choice(board.sites)
        named = rng.sample(board.sites, rng.randrange(0, 4))
        token = board.name(cell) + ("/" + ",".join(board.name(s) for s in named) if named else "")
        out += [token, token.upper(), f"  {token} ", token.replace("1", "01", 1), token + "," + board.name(cell),
                token.replace(board.name(cell), f"{chr(97 + 2 * board.n)}{2 * board.n + 2}", 1)]
    return out


@pytest.mark.parametrize("n", (2, 6, 13))
def test_tokens_are_read_as_the_notation_reads_them(n: int) -> None:
    """``read`` (the referee's check reads each answer so) in the core and in the Python rules:
    the same action and canonical token, or the same error."""
    python, core = rules("spelde")
    rng = random.Random(f"read {n}")
    state = core.new_game(core.variant(n, ["pie"]), 0)
    for _ in range(8):
        py = load(python, state.position())
        for token in tokens(state, rng):
            assert read_outcome(state, token) == read_outcome(py, token), token
        cell = rng.choice(state.board.sites)         # read in the core: the shared Place
        assert state.read(f" {state.board.name(cell).upper()}")[0] is places()[cell]
        if state.outcome() is not None:
            break
        state = state.play(state.random_action(rng))
