"""The organiser's schedule: entrants, openings in game pairs, growth keeping ids (pure)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from hexarena.referee.tournament import config as C
from hexarena.referee.tournament import growth
from hexarena.referee.tournament.schedule import grown_schedule, schedule


def cfg(games, engines=("a", "b", "c"), **top) -> C.TournamentConfig:
    data = {"engines": {n: {"player": "random"} for n in engines}, "games": games, **top}
    return C.from_dict(data, "t")


def test_entrants_limit_a_game_to_their_pairings():
    c = cfg([{"game": "spelde", "size": 4, "engines": ["a", "c"]}, {"game": "marbanta", "size": 5}])
    pairs = Counter((g.group, frozenset((g.first, g.second))) for g in schedule(c))
    assert {p for (grp, p) in pairs if grp == "spelde-4-pie"} == {frozenset("ac")}
    assert len({p for (grp, p) in pairs if grp.startswith("marbanta")}) == 3


def test_entrants_must_be_engines():
    with pytest.raises(C.ConfigError, match=r"games\[0\].engines: 'z' is not an engine"):
        cfg([{"game": "spelde", "engines": ["a", "z"]}])


def test_each_opening_is_played_by_a_game_pair_with_seats_exchanged():
    c = cfg([{"game": "spelde", "size": 5, "openings": ["c3", "a1 e5"]}], games_per_pair=2)
    games = schedule(c)
    assert len(games) == 3 * 2 * 2                      # 3 pairings x 2 openings x 2 games
    for one, two in zip(games[::2], games[1::2]):      # pairs are next to each other
        assert one.opening == two.opening and one.opening
        assert (one.first, one.second) == (two.second, two.first)
    assert Counter(g.opening for g in games) == Counter({("c3",): 6, ("a1", "e5"): 6})


def test_random_openings_are_reproducible_and_differ_between_game_pairs():
    c = cfg([{"game": "spelde", "size": 5, "random_openings": 3}], games_per_pair=4, seed=11)
    games = schedule(c)
    assert games == schedule(c)
    rounds = {g.slot[3] // 2: g.opening for g in games}
    assert len(rounds) == 2 and rounds[0] != rounds[1] and all(len(o) == 3 for o in rounds.values())
    assert {g.opening for g in games if g.slot[3] < 2} == {rounds[0]}     # every pairing shares round 0's
    other = schedule(replace(c, seed=12))
    assert [g.opening for g in other] != [g.opening for g in games]


def test_an_opening_the_rules_refuse_names_its_file_line(tmp_path):
    (tmp_path / "open.txt").write_text("# two openings\nc3\nc3 c3   # twice the same site\n")
    (tmp_path / "t.toml").write_text('[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "random"\n'
                                     '[[games]]\ngame = "spelde"\nsize = 5\nopenings = "open.txt"\n')
    with pytest.raises(C.ConfigError, match=r"open.txt:3: on spelde size 5 'pie': action 2 'c3'"):
        C.load(tmp_path / "t.toml")


def test_openings_file_is_read_relative_to_the_config_and_saved_inline(tmp_path):
    (tmp_path / "open.txt").write_text("c3\n\n a1   e5 \n")
    (tmp_path / "t.toml").write_text('[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "random"\n'
                                     '[[games]]\ngame = "spelde"\nsize = 5\nopenings = "open.txt"\n')
    c = C.load(tmp_path / "t.toml")
    assert c.games[0].openings == ("c3", "a1 e5")
    assert C.from_dict(C.to_dict(c)) == c


def test_growth_keeps_every_old_game_and_numbers_new_ones_after():
    old = cfg([{"game": "spelde", "size": 4, "openings": ["c3"]}], engines=("a", "b"))
    new = cfg([{"game": "spelde", "sizes": [4, 5], "openings": ["c3", "a1"]}], engines=("a", "b", "c"),
              games_per_pair=4)
    assert growth.growth_problem(C.to_dict(old), C.to_dict(new)) is None
    before = schedule(old)
    after = grown_schedule([old, new])
    by_id = {g.id: g for g in after}
    assert all(by_id[g.id] == g for g in before)
    assert len(after) == len(schedule(new)) and len(by_id) == len(after)
    fresh = sorted(g.id for g in after if g.group == "spelde-4-pie" and g not in before)
    assert fresh[0] == f"spelde-4-pie/{len(before):04d}"


@pytest.mark.parametrize("change, message", [
    ({"seed": 3}, "seed: saved 0, now 3"),
    ({"games_per_pair": 1}, "games_per_pair: saved 2, now 1"),
    ({"games": [{"game": "spelde", "size": 5}]}, r"games\[0\].sizes: 4 removed"),
    ({"games": [{"game": "spelde", "size": 4, "openings": ["a1", "c3"]}]}, r"games\[0\].openings"),
])
def test_growth_refuses_changes_naming_them(change, message):
    base = {"engines": {"a": {"player": "random"}, "b": {"player": "random"}},
            "games": [{"game": "spelde", "size": 4, "openings": ["c3"]}]}
    old = C.to_dict(C.from_dict(base))
    new = C.to_dict(C.from_dict({**base, **change}))
    assert growth.growth_problem(old, new) is not None
    import re
    assert re.search(message, growth.growth_problem(old, new))


def test_engine_settings_round_trip(tmp_path):
    c = C.from_dict({"engines": {"a": {"player": "random", "cwd": "/tmp", "env": {"X": "1"}, "log_protocol": True,
                                       "time": {"move": 2}},
                                 "b": {"player": "random"}}, "games": [{"game": "spelde"}]})
    a = c.engine("a")
    assert (a.cwd, a.env, a.log_protocol) == ("/tmp", (("X", "1"),), True)
    assert a.time == C.Limits(move=2.0) and c.engine("b").time is None
    assert c.limits_of("a").move == 2.0 and c.limits_of("b") == c.limits
    assert C.from_dict(C.to_dict(c)) == c
    with pytest.raises(C.ConfigError, match=r"engines.a.time.move: expected > 0 seconds"):
        C.from_dict({"engines": {"a": {"player": "random", "time": {"move": 0}}, "b": {"player": "random"}},
                     "games": [{"game": "spelde"}]})


def test_turning_a_transcript_on_is_not_a_change_but_a_new_command_is():
    base = {"engines": {"a": {"player": "random"}, "b": {"player": "random"}}, "games": [{"game": "spelde"}]}
    old = C.to_dict(C.from_dict(base))
    logged = C.to_dict(C.from_dict({**base, "engines": {"a": {"player": "random", "log_protocol": True},
                                                        "b": {"player": "random"}}}))
    assert growth.growth_problem(old, logged) is None
    other = C.to_dict(C.from_dict({**base, "engines": {"a": {"player": "greedy"}, "b": {"player": "random"}}}))
    assert growth.growth_problem(old, other).startswith("engines.a: saved")
