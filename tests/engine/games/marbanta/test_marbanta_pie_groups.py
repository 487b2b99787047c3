"""Marbanta from a set position in the pie phase: a pie stone may join a group of its colour,
and every state played from there is judged as the same position parsed afresh."""
from __future__ import annotations

import random

from hexarena.engine import registry
from hexarena.engine.geometry import hexagon
from tests.support.marbanta import board


def _same_judgement(played) -> None:
    fresh = registry.from_position(played.position())
    listed = sorted(played.format(a) for a in played.legal_actions())
    assert listed == sorted(fresh.format(a) for a in fresh.legal_actions()), played.position()
    for token in listed:
        played.play(played.parse(token))          # everything listed is played
    assert played.outcome() == fresh.outcome()


def test_the_reported_position_plays_e7_after_the_pie():
    state = registry.from_position("marbanta 4 b w..w/..b../...w../.w...../.w..../..bw./.... phase=pie")
    for token in ("a2,a3", "swap", "e3"):
        state = state.play(state.parse(token))
    assert "e7" in [state.format(a) for a in state.legal_actions()]
    state.play(state.parse("e7"))
    _same_judgement(state)


def test_random_set_positions_with_a_pie_play_as_parsed_afresh():
    rng = random.Random(8)
    geo = hexagon(4)
    sites = [geo.name(b) for b in range(len(geo.rays)) if geo.is_site(b)]
    for _ in range(30):
        chosen = rng.sample(sites, rng.randrange(2, 12))
        cut = rng.randrange(1, len(chosen))
        state = board(f"B {' '.join(chosen[:cut])} / W {' '.join(chosen[cut:])}", n=4, phase="pie")
        for _ in range(8):
            if state.outcome() is not None:
                break
            _same_judgement(state)
            state = state.play(state.random_action(rng))
