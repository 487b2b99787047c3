"""The core's game states (``SpeldeCore``, ``MarbantaCore``, ``PrisonCore``, ``VaxandisCore``: the
position held in the core, the random ply drawn and played in one call, an action checked and
played in the core) against
the Python rules, per game: each drawn action is one the Python rules allow and the state the
core hands back for it is the Python rules' state after it, with the same end and legal
cells; the draw is uniform over the turn's choices (a site, or a word); actions of every
form, legal or not, are played or refused as the Python rules do, with their reasons. The
draws call back into the caller's ``random.Random`` once per game, and a seed repeats its
game. A core state stands for the Python state: isinstance, equality, hash, pickling.
(Anda: tests/engine/test_core_random_step.py; Spelde's own cases:
tests/engine/test_core_spelde_step.py; Vaxandis's: tests/engine/test_core_vaxandis_step.py.)"""
from __future__ import annotations

import importlib
import pickle
import random
from collections import Counter

import pytest

pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

from hexarena.engine import registry  # noqa: E402
from hexarena.engine.actions import (Accept, Action, Decline, Grow, Keep, Komi, Move, Pair, PieStones,  # noqa: E402
                                     Place, Propose, Release, Split, Swap)
from hexarena.engine.game import GameState, StoneState  # noqa: E402
from tests.support.core_step import CountingRandom, assert_uniform  # noqa: E402
from tests.support.differential import after, load, rules  # noqa: E402

GAMES = ("spelde", "marbanta", "anda-prison", "vaxandis")
#: The variants each game is played in (every balance, and each option's values).
VARIANTS = {"spelde": [[b, f"flips={f}"] for b in ("pie", "nopie") for f in ("literal", "dense", "standard")],
            "marbanta": [["pie"], ["nopie"]], "anda-prison": [["pie"], ["nopie"], ["corners"]],
            "vaxandis": [["pie", "freeze=stack", "touch=path"], ["nopie", "freeze=group", "touch=landing"],
                         ["pie", "freeze=group", "touch=path"], ["nopie", "freeze=stack", "touch=landing"]]}


def python_class(game: str) -> type:
    return importlib.import_module(f"hexarena.engine.games.{registry.GAME_MODULES[game]}.state").RULES.new_game(
        rules(game)[0].variant(3), 0).__class__


def choice(action: Action) -> object:
    """What the random player draws first: the site of a placement (its root, its cell), else the action."""
    for name in ("cell", "root"):
        if hasattr(action, name):
            return getattr(action, name)
    return action


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", (3, 5, 6))
def test_each_random_ply_is_allowed_and_played_as_the_rules_play_it(game: str, n: int) -> None:
    python, core = rules(game)
    played = 0
    for tokens in VARIANTS[game]:
        rng = random.Random(f"{game} step {n} {tokens}")
        state = core.new_game(core.variant(n, tokens), 0)
        while state.outcome() is None and state.ply < core.ply_cap(n):
            py = load(python, state.position())
            assert state.legal_cells() == py.legal_cells(), state.position()
            action = state.random_action(rng)
            child = state.play(action)
            assert child == py.play(action), (state.position(), state.format(action))
            assert child.outcome() == load(python, child.position()).outcome(), child.position()
            state = child
            played += 1
        assert state.outcome() == load(python, state.position()).outcome()
    assert played > 4 * n


def probes(state: GameState, rng: random.Random) -> list[Action]:
    """Actions of every form of the game on sites drawn near each other (legal or not)."""
    board = state.board
    sites = board.sites
    out: list[Action] = [Swap(), Keep(), Release(), Propose(), Accept(), Decline(), Komi(0), Komi(3),
                         Komi(board.site_count + 1)]
    for _ in range(12):
        cell = rng.choice(sites)
        near = [s for s in sites if s != cell and board.neighbour_mask[cell] >> s & 1 or rng.random() < 0.1]
        some = rng.sample(near, min(len(near), rng.randrange(1, 5)))
        out += [Place(cell), Split(cell, sum(1 << s for s in some)), Grow(cell, tuple(board.sorted_sites(some))),
                Grow(cell, tuple(some)), PieStones(cell, rng.choice(sites)), PieStones(cell, cell),
                Pair(*board.sorted_sites((cell, some[0]))), Pair(*board.sorted_sites(rng.sample(board.corners, 2))),
                Move(cell, some[0]), Move(cell, rng.choice(sites)), Move(cell, cell), Move(cell, -1),
                Move(cell, board.mask.bit_length() + 2)]
    return [a for a in out if type(a) in state.info.forms]


@pytest.mark.parametrize("game", GAMES)
def test_actions_are_played_or_refused_as_the_rules_do(game: str) -> None:
    """Along seeded games in each variant: actions of every form, legal or not (the legal ones
    also from the Python rules' listing)."""
    python, core = rules(game)
    rng = random.Random(f"{game} refusals")
    tried = 0
    for tokens in VARIANTS[game]:
        for n in (4, 6):
            state = core.new_game(core.variant(n, tokens), 0)
            while state.outcome() is None and state.ply < core.ply_cap(n):
                py = load(python, state.position())
                listed = [a for _, a in zip(range(200), py.legal_actions())]
                for action in probes(state, rng) + rng.sample(listed, min(len(listed), 8)):
                    assert after(state, action) == after(py, action), (state.position(), action)
                    tried += 1
                state = state.play(state.random_action(rng))
    assert tried > 500


@pytest.mark.parametrize("game", GAMES)
def test_the_random_ply_is_uniform_over_the_turns_choices(game: str) -> None:
    """From one state (with one rng: each answer a fresh draw of its stream): each legal site,
    and each word, about equally often over 3000 draws."""
    python, core = rules(game)
    rng = random.Random(f"{game} uniform")
    state = core.new_game(core.variant(4, ["nopie"]), 0)
    while state.legal_cells().bit_count() < 6 or state.ply < 3:
        state = state.play(state.random_action(rng))
    py = load(python, state.position())
    listed = sorted({choice(a) for a in py.legal_actions()}, key=str)
    assert_uniform(Counter(choice(state.random_action(rng)) for _ in range(3000)), listed)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", (4, 6))
def test_a_game_drawn_with_one_rng_asks_it_once_and_repeats_with_its_seed(game: str, n: int) -> None:
    _, core = rules(game)
    games = []
    for _ in range(2):
        rng = CountingRandom(f"once {game} {n}")
        state = core.new_game(core.variant(n, ["pie"]), 0)
        plies = [state]
        while state.outcome() is None and state.ply < core.ply_cap(n):
            state = state.play(state.random_action(rng))
            plies.append(state)
        assert rng.calls == 1 and len(plies) > 5
        games.append([s.position() for s in plies])
    assert games[0] == games[1]


@pytest.mark.parametrize("game", GAMES)
def test_a_core_state_stands_for_the_python_state(game: str) -> None:
    python, core = rules(game)
    rng = random.Random(f"{game} stands")
    state = core.new_game(core.variant(6, ["pie"]), 0)
    for _ in range(6):
        state = state.play(state.random_action(rng))
    py = load(python, state.position())
    assert isinstance(state, python_class(game)) and isinstance(state, StoneState)
    assert state == py and py == state and hash(state) == hash(py)
    assert (state.black, state.white, state.phase) == (py.black, py.white, py.phase)
    assert getattr(state, "levels", None) == getattr(py, "levels", None)
    assert state.position_keys() == py.position_keys() and state.to_position() == py.to_position()
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is type(state) and copy == state and copy.position() == state.position()
    assert state.changes(None) == py.changes(None)
