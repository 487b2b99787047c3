"""Pairing a round (pure) and the lines that restore a remote engine's position."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from hexarena.ladder.pairing import pair_round, seats
from hexarena.ladder.remote import RemoteEngine


def test_every_idle_player_plays_once_and_the_odd_one_meets_an_anchor():
    rng = random.Random(1)
    games = pair_round(["a", "b", "c", "d", "e"], ["anchor"], {}, {}, {}, rng)
    names = [n for g in games for n in g]
    assert sorted(n for n in names if n != "anchor") == ["a", "b", "c", "d", "e"]
    assert names.count("anchor") == 1 and len(games) == 3


def test_the_odd_one_waits_a_round_when_asked_and_nobody_meets_an_anchor_without_anchors():
    rng = random.Random(2)
    assert pair_round(["a"], ["anchor"], {}, {}, {}, rng, patient=set()) == []
    assert pair_round(["a"], ["anchor"], {}, {}, {}, rng, patient={"a"}) in ([("a", "anchor")], [("anchor", "a")])
    assert pair_round(["a"], [], {}, {}, {}, rng) == []


def test_no_immediate_rematch_while_another_opponent_is_idle():
    for seed in range(50):
        games = pair_round(["a", "b", "c", "d"], [], {"a": 100, "b": 90, "c": 0, "d": -10},
                           {"a": "b", "b": "a"}, {}, random.Random(seed))
        assert all({x, y} != {"a", "b"} for x, y in games)


def test_a_rematch_when_nobody_else_is_left():
    assert {frozenset(g) for g in pair_round(["a", "b"], [], {}, {"a": "b", "b": "a"}, {}, random.Random(0))} \
        == {frozenset({"a", "b"})}


def test_players_close_in_rating_meet():
    far = Counter()
    for seed in range(200):
        for x, y in pair_round(["a", "b", "c", "d"], [], {"a": 1000, "b": 990, "c": -990, "d": -1000}, {}, {},
                               random.Random(seed)):
            far[frozenset({x, y}) in ({"a", "c"}, {"a", "d"}, {"b", "c"}, {"b", "d"})] += 1
    assert far[True] == 0


@pytest.mark.parametrize("balance, first", [({"a": 2, "b": 0}, "b"), ({"a": -1, "b": 3}, "a")])
def test_the_player_with_more_firsts_plays_second(balance, first):
    assert seats("a", "b", balance, random.Random(0))[0] == first


def test_colours_balance_over_many_games():
    balance: dict[str, int] = {}
    rng = random.Random(3)
    for _ in range(101):
        x, y = seats("a", "b", balance, rng)
        balance[x] = balance.get(x, 0) + 1
        balance[y] = balance.get(y, 0) - 1
    assert abs(balance["a"]) <= 1


def test_the_replay_restores_setup_and_moves_and_skips_questions():
    engine = RemoteEngine("acc", "g-1", "p")
    exchanges = [("1 protocol_version", "=1 2"), ("2 name", "=2 x"), ("3 game spelde pie", "=3"),
                 ("4 boardsize 4", "=4"), ("5 clear_board", "=5"), ("6 genmove b", "=6 a1"),
                 ("7 play w b2", "=7"), ("8 time_left b 3 0", "=8"), ("9 genmove_analyze b", "=9 c3\ninfo x"),
                 ("10 play w zz", "?10 illegal")]
    for line, answer in exchanges:
        engine.pending = line
        assert engine.answer(answer)
    assert engine.replay() == ["game spelde pie", "boardsize 4", "clear_board", "play b a1", "play w b2",
                               "play b c3"]
    assert engine.pending is None and not engine.answer("=11 late")     # nothing in flight: dropped
