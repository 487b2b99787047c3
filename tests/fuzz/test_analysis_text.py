"""Fuzz the referee's reading of `genmove_analyze` info lines (referee.game.analysis.read_info):
it never raises, keeps at most MAX_LINES lines and MAX_PV actions of a pv, and is bounded in
CPU time however long and legal the lines (the flood of analysis that once held the event loop)."""
from __future__ import annotations

import random
from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.protocol.analysis import MAX_LINE_BYTES, MAX_LINES
from hexarena.referee.game.analysis import MAX_PV, read_info

from tests.support.fuzz_texts import fragments, one_second

KEYS = ("info", "winrate", "score", "visits", "depth", "pv", "0.99", "1.5", "-3", "12", "nodes", "x")


@cache
def _positions() -> tuple[tuple, ...]:
    """(state, the action chosen, a legal line of actions from it as long as a line may hold), at
    a few plies of a random game of each game at size 13."""
    out = []
    for n, game in enumerate(registry.playable()):
        info = registry.get(game)
        rng, state = random.Random(n), info.new_game(info.variant(13), 0)
        for _ in range(3):
            action = state.random_action(rng)
            walk, line, size = state.play(action), [state.format(action)], 40
            while walk.outcome() is None and size < MAX_LINE_BYTES:
                move = walk.random_action(rng)
                line.append(walk.format(move))
                size += len(line[-1]) + 1
                walk = walk.play(move)
            out.append((state, state.format(action), tuple(line)))
            for _ in range(5):
                if state.outcome() is None:
                    state = state.play(state.random_action(rng))
    return tuple(out)


@st.composite
def info_lines(draw, line: tuple[str, ...]) -> str:
    head = draw(fragments(KEYS, 6))
    kind = draw(st.integers(0, 3))
    if kind == 0:                          # a legal pv, cut somewhere, maybe past a line's bytes
        pv = line[:draw(st.integers(1, len(line)))]
    elif kind == 1:                        # a legal beginning, then anything
        pv = line[:draw(st.integers(1, len(line)))] + tuple(draw(st.lists(fragments(line[:20], 2), max_size=4)))
    else:
        pv = tuple(draw(st.lists(st.sampled_from(line), max_size=60)))
    return f"info {head} pv {' '.join(pv)}" if draw(st.booleans()) else f"info {head}"


@given(data=st.data())
def test_info_lines(data: st.DataObject) -> None:
    state, played, line = data.draw(st.sampled_from(_positions()), label="position")
    lines = data.draw(st.lists(info_lines(line), max_size=MAX_LINES + 3), label="lines")
    with one_second("read_info"):
        kept, notes = read_info(lines, state, played)
    assert len(kept) <= MAX_LINES and all(isinstance(n, str) for n in notes)
    for info in kept:
        assert len(info.get("pv", ())) <= MAX_PV and len(info["line"].encode()) <= MAX_LINE_BYTES
        assert not info.get("pv") or info["pv"][0] == played
