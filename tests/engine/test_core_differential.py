"""The compiled core (core/, ``hexarena_core``) against the Python rules, the specification.

For every game the core implements: seeded random games at every board side 2..13 (fewer
at the large sides) in every variant, compared at every ply (from side 8 on, every other ply
and the last) (tests.support.differential: positions, ends, legal actions, the state after
each action, refusals with their reasons);
the core's random playouts, whose end the Python rules must confirm; and the well-formed
random positions of tests/engine/test_positions_as_written.py. Skipped only when the core
is not installed; HEXARENA_CORE does not matter here (both implementations are loaded
explicitly). The counts compared are printed at the end of the session.
"""
from __future__ import annotations

import importlib
import itertools
import random

import pytest

pytest.importorskip("hexarena_core", reason="the compiled core (core/) is not installed")

from hexarena.engine import compiled, registry  # noqa: E402
from hexarena.engine.actions import (Accept, Action, Decline, Keep, Komi, Pair, Place, Propose,  # noqa: E402
                                     Release, Swap)
from hexarena.engine.errors import IllegalMove  # noqa: E402
from hexarena.engine.game import GameInfo, Variant  # noqa: E402
from hexarena.engine.games.anda_prison.state import AndaPrisonState  # noqa: E402

from tests.support.differential import COUNTS, compare, load, rules  # noqa: E402
from tests.support.positions_drawn import random_position  # noqa: E402

GAMES = [g for g in registry.playable() if compiled.implements(g)]
SIZES = range(2, 14)


#: Games whose random games are short (Marbanta: about a tenth of the sites in turns) play more.
SHORT = {"marbanta": 4}
#: Games whose random games run to the ply cap (Vaxandis: hundreds of plies), or whose
#: listing of actions is slow on the large boards (Spelde: the Python rules list the flip
#: sets in both modes), are compared over their first plies only.
FIRST_PLIES = {"vaxandis": 100, "spelde": 200}
#: Board sides of the playout test (Vaxandis: its recommended sides and the small ones; its
#: playouts run to caps of thousands of plies; Spelde: up to 9, its `flips=dense` playouts
#: search thousands of flip paths a placement on the large boards).
PLAYOUT_SIZES = {"vaxandis": (2, 3, 4, 5, 6), "spelde": (2, 3, 5, 7, 9)}
#: From this side on a random game is compared at every other ply and at its last (the line
#: played between is played in both and compared whole at the next): the long games of the
#: large boards.
ALTERNATE_PLIES = 8


def games_at(game: str, n: int) -> int:
    """Seeded games per variant at side n: several on small boards, one from side 6 on."""
    return (3 if n <= 5 else 1) * SHORT.get(game, 1)


def played_variants(info: GameInfo, n: int) -> list[Variant]:
    """Every variant up to side 9; from side 10 on, every other one (a different half at
    each side, so that each variant meets two of the large sides)."""
    every = variants(info, n)
    return every if n <= 9 else every[n % 2::2]


def variants(info: GameInfo, n: int) -> list[Variant]:
    names = [name for name, _ in info.options]
    out = []
    for balance in info.balances:
        for values in itertools.product(*(values for _, values in info.options)):
            out.append(info.variant(n, [balance, *(f"{k}={v}" for k, v in zip(names, values))]))
    return out


def test_the_core_implements_every_game() -> None:
    assert set(GAMES) == set(registry.playable())


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", SIZES)
def test_random_games_agree_at_every_ply(game: str, n: int) -> None:
    python, core = rules(game)
    for k, variant in enumerate(played_variants(python, n)):
        for g in range(games_at(game, n)):
            seed = 1000 * n + 10 * k + g
            rng = random.Random(seed)                   # the line played
            probes = random.Random(-seed)               # the samples compared: the line does not depend on them
            komi = (0, 2, 5)[g % 3] if python.uses_komi else 0
            py, co = python.new_game(variant, komi), core.new_game(variant, komi)
            every = n <= 4
            cap = min(python.ply_cap(n), FIRST_PLIES.get(game, python.ply_cap(n)))
            while True:
                last = py.outcome() is not None or py.ply >= cap
                whole = every or py.ply % 25 == 0
                if n < ALTERNATE_PLIES or py.ply % 2 == 0 or whole or last:
                    actions = compare(py, co, probes, every=whole)
                    if not actions:
                        break
                if last:
                    break
                action = py.random_action(rng)
                py, co = py.play(action), co.play(action)
            COUNTS[game, "games"] += 1


@pytest.mark.parametrize("game", GAMES)
def test_core_playouts_end_where_the_rules_say(game: str) -> None:
    """From states along seeded games, the core's playout ends in a state whose end (by the
    Python rules) is the one the core reports, or at the cap with the game still going."""
    python, core = rules(game)
    module = importlib.import_module(f"hexarena.engine.games.{registry.GAME_MODULES[game]}.compiled")
    core_playout = getattr(module, "core_playout", None)      # a playout wholly in the core
    for n in PLAYOUT_SIZES.get(game, (2, 3, 5, 7, 9, 11, 13)):
        for variant in variants(python, n):
            rng = random.Random(n)
            state = core.new_game(variant, 3 if python.uses_komi else 0)
            for _ in range(6):
                for cap in (python.ply_cap(n), state.ply + 7):
                    if core_playout is not None:
                        end, swaps, outcome = core_playout(state, rng.getrandbits(64), cap)
                    else:
                        end, swaps = state.playout(rng, cap)
                        outcome = end.outcome()
                    judged = load(python, end.position())
                    assert judged.outcome() == outcome, (state.position(), end.position())
                    assert outcome is not None or end.ply >= cap
                    assert 0 <= swaps <= 3
                    COUNTS[game, "playouts"] += 1
                if state.outcome() is not None:
                    break
                for _ in range(rng.randrange(1, 40)):
                    if state.outcome() is not None:
                        break
                    state = state.play(state.random_action(rng))


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_positions_agree(game: str) -> None:
    """The well-formed random positions of test_positions_as_written, in both implementations."""
    python, core = rules(game)
    rng = random.Random(f"differential {game}")
    for _ in range(400):
        text = random_position(game, rng)
        compare(load(python, text), load(core, text), rng)
        COUNTS[game, "fuzzed positions"] += 1


@pytest.mark.skipif("spelde" not in GAMES, reason="the core does not implement Spelde")
def test_spelde_lists_every_action_past_one_call() -> None:
    """Spelde's core lists the first placements in one call and state.py any beyond: a white
    line a7..l7 (4017 flip sets at each cell touching it) is listed in full and in order."""
    python, core = rules("spelde")
    board = python.new_game(python.variant(7, ["nopie"])).board
    text = "spelde 7 b " + "/".join(
        "".join("w" if (ri == 6 and ci < 12) else "." for ci in range(13) if board.bit(ci, ri) is not None)
        for ri in range(13)) + " variant=nopie"
    py, co = load(python, text), load(core, text)
    listed = list(py.legal_actions())
    assert len(listed) > 50_000
    assert list(co.legal_actions()) == listed


@pytest.mark.skipif("marbanta" not in GAMES, reason="the core does not implement Marbanta")
def test_marbanta_lists_every_action_past_one_call() -> None:
    """Marbanta's core lists the first new groups in one call and state.py any beyond: a turn
    of more actions than one call lists (found along seeded random games at n=9) is listed in
    full and in order."""
    from hexarena.engine.games.marbanta.compiled import LISTED
    python, core = rules("marbanta")
    for seed in range(40):
        rng = random.Random(seed)
        state = python.new_game(python.variant(9, ["nopie"]), 0)
        while state.outcome() is None:
            listed = list(itertools.islice(state.legal_actions(), 4 * LISTED))
            if len(listed) > LISTED:
                co = load(core, state.position())
                assert list(itertools.islice(co.legal_actions(), 4 * LISTED)) == listed
                return
            state = state.play(state.random_action(rng))
    pytest.fail(f"no turn of more than {LISTED} actions in 40 random games")


PRISON_WORDS = (Swap(), Keep(), Release(), Propose(), Accept(), Decline())


def _prison_args(action: Action) -> tuple[int, int, int]:
    """An action as `prison_play` takes it: (kind, a, b)."""
    match action:
        case Place(cell):
            return 0, cell, 0
        case Pair(a, b):
            return 1, a, b
        case Komi(k):
            return 2, k, 0
    return 3 + [type(w) for w in PRISON_WORDS].index(type(action)), 0, 0


def _prison_probes(state: AndaPrisonState, actions: list[Action], rng: random.Random, every: bool) -> list[Action]:
    """The actions to play in both: the legal ones (all or a sample), every word, komi
    offers in and out of range, placements and pairs on sites drawn from the whole board."""
    sites = state.board.sites
    probes = actions if every else rng.sample(actions, min(len(actions), 12))
    probes = [*probes, *PRISON_WORDS, Komi(0), Komi(state.board.site_count), Komi(state.board.site_count + 1)]
    probes += [Place(rng.choice(sites)) for _ in range(len(sites) if every else 12)]
    probes += [Pair(*state.board.sorted_sites((rng.choice(sites), rng.choice(sites)))) for _ in range(12)]
    probes += [Pair(*state.board.sorted_sites(rng.sample(state.board.corners, 2))) for _ in range(4)]
    return probes


def _compare_prison(state: AndaPrisonState, rng: random.Random, every: bool) -> list[Action]:
    """One position in the core's whole Anda-prison state (``prison_state``, ``prison_play``)
    and in state.py: the end, the legal placements, the legal actions in order and in
    notation, the state after each probe (the refusals must agree); its legal actions."""
    import hexarena_core as core
    from hexarena.engine.games.anda_prison.compiled import core_outcome, core_state, from_core
    n, black, white, fields = core_state(state)
    got, cells, tokens = core.prison_state(n, black, white, fields)
    assert (None if got is None else core_outcome(got)) == state.outcome(), state.position()
    assert int.from_bytes(cells, "little") == state.legal_cells(), state.position()
    actions = list(state.legal_actions())
    assert tokens == [state.format(a) for a in actions], state.position()
    assert [state.parse(t) for t in tokens] == actions
    for action in _prison_probes(state, actions, rng, every):
        after = core.prison_play(n, black, white, fields, *_prison_args(action))
        try:
            expected: AndaPrisonState | None = state.play(action)
        except IllegalMove:
            expected = None
        assert (None if after is None else from_core(state.variant, *after)) == expected, (
            state.position(), state.format(action))
        COUNTS["anda-prison state", "actions"] += 1
    COUNTS["anda-prison state", "positions"] += 1
    return actions


@pytest.mark.skipif("anda-prison" not in GAMES, reason="the core does not implement Anda-prison")
@pytest.mark.parametrize("n", [*range(2, 10), 11, 13])     # 11, 13: the 8- and 11-word boards
def test_prison_whole_state_agrees_at_every_ply(n: int) -> None:
    """The core's whole Anda-prison state (anda_prison::Prison) against state.py at every ply
    of seeded random games in every balance (_compare_prison: every legal action played up to
    n=4, a sample beyond; on the 8- and 11-word boards, whose games run to hundreds of plies, at
    every third ply and the last), and the core's random playouts, whose ends the rules confirm."""
    from hexarena.engine.games.anda_prison.compiled import core_playout
    from hexarena.engine.games.anda_prison.state import RULES
    for balance in RULES.balances:
        variant = RULES.variant(n, [balance])
        for g in range(3 if n <= 5 else 1):
            rng = random.Random(f"prison {n} {balance} {g}")            # the line played
            probes = random.Random(f"prison probes {n} {balance} {g}")  # the line does not depend on them
            state = RULES.new_game(variant, (0, 2, 5)[g % 3])
            while True:
                last = state.outcome() is not None or state.ply >= RULES.ply_cap(n)
                if n <= 9 or state.ply % 3 == 0 or last:
                    actions = _compare_prison(state, probes, n <= 4)
                    assert (not actions) == (state.outcome() is not None), state.position()
                if state.ply % 5 == 0:
                    end, _, outcome = core_playout(state, probes.getrandbits(64), RULES.ply_cap(n))
                    assert load(RULES, end.position()).outcome() == outcome, (state.position(), end.position())
                    assert outcome is not None or end.ply >= RULES.ply_cap(n)
                    COUNTS["anda-prison state", "playouts"] += 1
                if last:
                    break
                state = state.play(state.random_action(rng))
            COUNTS["anda-prison state", "games"] += 1


@pytest.mark.skipif("anda-prison" not in GAMES, reason="the core does not implement Anda-prison")
def test_prison_whole_state_agrees_on_fuzzed_positions() -> None:
    """The well-formed random positions of test_positions_as_written (any phase with any
    prison, first turns, annihilations and last mover), in the core's whole state."""
    from hexarena.engine.games.anda_prison.state import RULES
    rng = random.Random("differential prison state")
    for _ in range(400):
        state = load(RULES, random_position("anda-prison", rng))
        assert isinstance(state, AndaPrisonState)
        _compare_prison(state, rng, False)
        COUNTS["anda-prison state", "fuzzed positions"] += 1
