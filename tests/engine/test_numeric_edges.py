"""The rules' and the compiled core's numeric edges are Python exceptions naming the value:
stack heights, a search's time budget, a state of another game."""
from __future__ import annotations

import math

import pytest

from hexarena.engine import compiled, registry
from hexarena.engine.errors import InvalidPosition


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
