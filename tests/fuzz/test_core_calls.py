"""Fuzz the compiled core's search calls with any numbers and any game's states: a search's
exploration and RAVE weights, its budget (iterations, seconds) and seed, and the probe's state,
cap and seed. The contract: a result, or ValueError / TypeError / OverflowError naming the value;
never a panic (pyo3's PanicException is a BaseException that no `except Exception` catches)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexarena.engine import compiled, registry

from tests.support.fuzz_games import states
from tests.support.fuzz_texts import one_second

core = compiled.installed()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not installed")
SEARCHED = ("spelde", "marbanta", "vaxandis", "anda", "anda-prison", "x")
GAMES = registry.playable()
EXPECTED = (ValueError, TypeError, OverflowError)
_floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from((0.0, -0.0, 1.0, 1e-300, 1e300))
_ints = st.integers(-2 ** 70, 2 ** 70) | st.integers(0, 64)


def _call(what: str, fn, *args):
    """`fn(*args)`, or None when it raised one of EXPECTED; any other exception fails."""
    try:
        with one_second(what):
            return fn(*args)
    except EXPECTED:
        return None
    except BaseException as exc:                       # noqa: BLE001 - a panic is what is looked for
        raise AssertionError(f"{what}{args!r:.300} raised {type(exc).__name__}: {exc}") from None


@given(data=st.data())
def test_search_calls(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from([g for g in SEARCHED if g in GAMES]), label="game")
    live = [s for s in states(data.draw(st.sampled_from(GAMES), label="state of")) if s.outcome() is None]
    state = data.draw(st.sampled_from(live), label="state")
    search = _call("search_open", core.search_open, game, state, data.draw(_floats, label="exploration"),
                   data.draw(st.none() | _floats, label="rave"), data.draw(st.booleans(), label="narrow"),
                   data.draw(_ints, label="seed"))
    if search is None:
        return
    iterations = data.draw(st.none() | _ints, label="iterations")
    seconds = data.draw(st.none() | _floats, label="seconds")
    bounded = (iterations is not None and iterations <= 64) or (seconds is not None and not seconds > 0.01)
    if bounded:
        _call("run", search.run, iterations, seconds)
    assert _call("run", search.run, 8, None) is not None       # still usable after any refusal


@given(data=st.data())
def test_probe_calls(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from([g for g in SEARCHED if g in GAMES]), label="game")
    state = data.draw(st.sampled_from(states(data.draw(st.sampled_from(GAMES), label="state of"))), label="state")
    cap = data.draw(st.integers(-2 ** 70, 2 ** 70) | st.integers(0, 200), label="cap")
    if cap > 200:
        cap = 200
    _call("search_probe", core.search_probe, game, state, cap, data.draw(_ints, label="seed"))
