"""The rules' and the compiled core's numeric edges are Python exceptions naming the value:
stack heights, a search's time budget, a state of another game."""
from __future__ import annotations

import math
import random
import signal

import pytest

from hexarena.engine import compiled, registry
from hexarena.engine.actions import Grow, Move, Pair, PieStones, Place, Split
from hexarena.engine.errors import IllegalMove, InvalidPosition


@pytest.mark.parametrize("height", [2 ** 32, 2 ** 64, 1_000_001])
def test_a_height_past_the_bound_is_an_invalid_position(height):
    with pytest.raises(InvalidPosition, match=f"height {height} at a1"):
        registry.from_position(f"vaxandis 2 b b{height}./w../.b")


def test_the_tallest_height_plays():
    state = registry.from_position("vaxandis 2 b b1000000./w../.b")
    assert len(list(state.legal_actions())) == 2


@pytest.mark.parametrize("game", ["anda", "anda-prison"])
@pytest.mark.parametrize("komi", [20, 99999, 2 ** 40, 10 ** 30])
def test_a_komi_setting_above_the_sites_counts_as_the_sites(game, komi):
    """docs/rules.md: the rules clamp the `komi` setting to the sites (19 at n=3), as the kits'
    with_komi do; the position printed is one `set_position` reads (its `komi=` is 0..sites)."""
    info = registry.get(game)
    state = info.new_game(info.variant(3, ["nopie"]), komi)
    assert state.komi == 19 and " komi=19 " in state.position()
    assert registry.from_position(state.position()) == state


@pytest.mark.parametrize("game", ["anda", "anda-prison"])
def test_a_negative_komi_setting_is_a_value_error(game):
    info = registry.get(game)
    with pytest.raises(ValueError, match="komi -1 is negative"):
        info.new_game(info.variant(3, ["nopie"]), -1)


@pytest.mark.parametrize("game", registry.playable())
@pytest.mark.parametrize("cap", [-1, 2 ** 32, 10 ** 30])
def test_a_playout_cap_outside_a_ply_is_a_value_error_in_both_modes(game, cap):
    """The core counts plies in 32 bits: a cap outside 0..2**32-1 is refused before it is called
    (it overflowed with the core and played on without it)."""
    info = registry.get(game)
    state = info.new_game(info.variant(3, ["nopie"]), 0)
    for playout in (state.playout, state.traced_playout):
        with pytest.raises(ValueError, match=f"playout cap {cap}: expected a ply from 0 to 4294967295"):
            playout(random.Random(1), cap)
    assert state.playout(random.Random(1), 2 ** 32 - 1)[0].outcome() is not None
    assert state.playout(random.Random(1), 0)[0] == state


OFF_GRID = [-1, -5, 10 ** 6, 2 ** 70]


def _states(game):
    """A few states of `game` at n=3 in every balance: the opening turns and some of play."""
    info = registry.get(game)
    for balance in info.balances:
        state, rng = info.new_game(info.variant(3, [balance]), 0), random.Random(5)
        for _ in range(6):
            yield state
            if state.outcome() is not None:
                break
            state = state.play(state.random_action(rng))


def _off_grid_actions(x):
    flips = x if x < 0 else 1 << min(x, 4096)      # a bitboard with a bit past the grid (a negative: all)
    return [Place(x), Pair(x, 0), Pair(0, x), PieStones(x, 1), PieStones(0, x), Split(x, 0), Split(0, flips),
            Move(x, 0), Move(0, x), Grow(x, ()), Grow(0, (x,)), Grow(0, (1, x))]


@pytest.mark.parametrize("game", registry.playable())
def test_an_action_naming_a_bit_past_the_grid_is_an_illegal_move_everywhere(game):
    """play, is_legal and format of a site that is no bit of the grid (negative, too large): the
    rules' IllegalMove, never a ValueError of a shift (Anda's Pair(-1, 0)), a name such as `d-1`,
    or a loop that never ends (the flips of a negative bitboard)."""
    signal.signal(signal.SIGALRM, _too_long)
    signal.alarm(20)
    try:
        for state in _states(game):
            for x in OFF_GRID:
                for action in _off_grid_actions(x):
                    with pytest.raises(IllegalMove):
                        state.play(action)
                    assert state.is_legal(action) is False
                    with pytest.raises(IllegalMove, match="off the board"):
                        state.format(action)
    finally:
        signal.alarm(0)


def _too_long(*_):
    raise TimeoutError("still running after 20 s")


def test_the_off_grid_names_say_which_site():
    info = registry.get("spelde")
    state = info.new_game(info.variant(2, ["nopie"]), 0)
    with pytest.raises(IllegalMove, match="site -5 is off the board"):
        state.format(Place(-5))
    anda = registry.get("anda")
    with pytest.raises(IllegalMove, match="site -1 is off the board"):
        anda.new_game(anda.variant(3, ["nopie"]), 0).play(Pair(-1, 0))


core = compiled.installed()
needs_core = pytest.mark.skipif(core is None, reason="the compiled core is not installed")


@needs_core
@pytest.mark.parametrize("seconds", [math.inf, -math.inf, math.nan, -1.0, 1e300])
def test_a_search_budget_outside_its_range_is_a_value_error(seconds):
    info = registry.get("spelde")
    state = info.new_game(info.variant(4, ["nopie"]), 0)
    search = core.search_open("spelde", state, 1.0, None, False, 1)
    with pytest.raises(ValueError, match="seconds must be a number from 0 to"):
        search.run(None, seconds)
    assert search.run(10, None) >= 1          # the search is still usable


@needs_core
def test_a_state_of_another_game_is_refused_by_the_probe():
    info = registry.get("marbanta")
    python_state = info.new_game(info.variant(4, []), 0)
    with pytest.raises(ValueError, match="a marbanta state given to the spelde probe"):
        core.search_probe("spelde", python_state, 10, 0)


@needs_core
def test_a_state_of_another_game_is_refused_by_the_search():
    info = registry.get("anda")
    anda_state = info.new_game(info.variant(5, ["nopie"]), 0)
    with pytest.raises(ValueError, match="a anda state given to the spelde search"):
        core.search_open("spelde", anda_state, 1.0, None, False, 1)


@needs_core
@pytest.mark.parametrize("exploration, rave", [(math.nan, None), (math.inf, None), (-1.0, None), (1.0, math.nan),
                                               (1.0, -5.0)])
def test_search_weights_outside_their_range_are_a_value_error(exploration, rave):
    info = registry.get("spelde")
    state = info.new_game(info.variant(4, ["nopie"]), 0)
    with pytest.raises(ValueError, match="must be a finite number of at least 0"):
        core.search_open("spelde", state, exploration, rave, False, 1)
