"""Tournament config (TOML) and the pure schedule."""
from __future__ import annotations

import json
import textwrap
from collections import Counter

import pytest

from hexarena.engine import registry
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.schedule import game_seed, pairings, schedule

GOOD = """\
seed = 7
games_per_pair = 3
pairing = "round-robin"

[time]
move = 5
main = 60
increment = 0.5

[engines.random]
player = "random"

[engines.greedy]
cmd = ["{python}", "-m", "hexarena.players", "greedy", "--seed", "{seed}"]

[engines."my.bot"]
cmd = ["./bot", "--hgp"]

[[games]]
game = "spelde"
sizes = [5, 6]
variants = ["pie", "nopie flips=dense"]

[[games]]
game = "spelde"
size = 7
ply_cap = 40
"""


def load(tmp_path, text):
    path = tmp_path / "t.toml"
    path.write_text(textwrap.dedent(text))
    return C.load(path)


def test_a_full_config_loads_with_defaults_filled_in(tmp_path):
    cfg = load(tmp_path, GOOD)
    assert [e.name for e in cfg.engines] == ["random", "greedy", "my.bot"]
    assert cfg.engine("random").cmd == ("{python}", "-P", "-m", "hexarena.players", "random", "--seed", "{seed}")
    assert cfg.engine("my.bot").cmd == (str(tmp_path / "bot"), "--hgp")      # read from the file's folder
    assert cfg.games[0].sizes == (5, 6) and cfg.games[0].variants == ("pie", "nopie flips=dense")
    assert cfg.games[1].sizes == (7,) and cfg.games[1].variants == ("pie",) and cfg.games[1].ply_cap == 40
    assert cfg.limits.move == 5 and cfg.limits.main == 60 and cfg.limits.increment == 0.5
    assert cfg.limits.start == 30 and cfg.games_per_pair == 3 and cfg.seed == 7


def test_to_dict_round_trips_through_json(tmp_path):
    cfg = load(tmp_path, GOOD)
    data = json.loads(json.dumps(C.to_dict(cfg)))
    assert C.from_dict(data) == cfg


def test_variant_words_are_canonicalised(tmp_path):
    cfg = load(tmp_path, GOOD.replace('"nopie flips=dense"', '"flips=dense NOPIE"'))
    assert cfg.games[0].variants == ("pie", "nopie flips=dense")


@pytest.mark.parametrize("change, where", [
    (("games_per_pair = 3", "games_per_pair = 0"), ":2: games_per_pair: expected an integer"),
    (("move = 5", "move = -5"), ":6: time.move: expected > 0 seconds"),
    (('move = 5', 'move = "fast"'), ":6: time.move: expected a number"),
    (('player = "random"', 'player = "random"\ncolour = "blue"'), ":12: engines.random.colour: unknown key"),
    (('cmd = ["./bot", "--hgp"]', 'cmd = "./bot --hgp"'), ":17: engines.my.bot.cmd: expected a list of strings"),
    (('sizes = [5, 6]', 'sizes = [5, 14]'), ":21: games[0].sizes: expected an integer in 2..13"),
    (('"nopie flips=dense"', '"nopie flips=wild"'), ":22: games[0].variants: flips=wild"),
    (('game = "spelde"\nsize = 7', 'game = "chess"\nsize = 7'), ":25: games[1].game: no game 'chess'"),
    (('pairing = "round-robin"', 'pairing = "swiss"'), ":3: pairing: expected one of round-robin, gauntlet"),
    (('size = 7', 'size = 7\nsizes = [5]'), ":26: games[1].size: give `size` or `sizes`"),
    (('size = 7', 'size = 99'), ":26: games[1].size: expected an integer in 2..13, got 99"),
    (('size = 7', 'size = 7\nvariant = "bogus"'), ":27: games[1].variant: 'bogus' is neither"),
    (('seed = 7', 'seed = 7\nchallengers = ["random"]'), "challengers: only a gauntlet"),
    (('ply_cap = 40', 'komi = 2'), ":27: games[1].komi: spelde has no komi setting"),
    (('game = "spelde"\nsize = 7', 'game = "anda"\nsizes = [5, 7]\nkomi = 62'),
     ":27: games[1].komi: expected an integer in 0..61 (the sites of a board of size 5), got 62"),
    (('cmd = ["./bot", "--hgp"]', 'cmd = ["./bot"]\nrestart = "never"'),
     ":18: engines.my.bot.restart: expected one of game, fault, got 'never'"),
    (('player = "random"', 'player = "random"\nanalysis = "no"'),
     ":12: engines.random.analysis: expected true or false, got 'no'"),
])
def test_errors_name_file_line_and_key(tmp_path, change, where):
    old, new = change
    assert old in GOOD
    with pytest.raises(C.ConfigError) as info:
        load(tmp_path, GOOD.replace(old, new, 1))
    assert str(info.value).startswith(str(tmp_path / "t.toml"))
    assert where in str(info.value), str(info.value)


def test_toml_syntax_errors_and_missing_sections(tmp_path):
    with pytest.raises(C.ConfigError, match="not valid TOML.*line 1"):
        load(tmp_path, "seed = = 3\n")
    with pytest.raises(C.ConfigError, match="engines: expected at least two"):
        load(tmp_path, '[engines.a]\nplayer = "random"\n[[games]]\ngame = "spelde"\n')
    with pytest.raises(C.ConfigError, match="games: expected at least one"):
        load(tmp_path, '[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "greedy"\n')
    with pytest.raises(C.ConfigError, match="exactly one of `cmd`"):
        load(tmp_path, '[engines.a]\n[engines.b]\nplayer = "greedy"\n[[games]]\ngame = "spelde"\n')
    with pytest.raises(C.ConfigError, match="letters, digits"):
        C.from_dict({"engines": {"a b": {"player": "x"}, "c": {"player": "y"}}, "games": [{"game": "spelde"}]})


def test_default_config_covers_every_playable_game_at_a_side_where_its_games_end():
    cfg = C.default_config()
    assert [g.game for g in cfg.games] == registry.playable()
    for g in cfg.games:
        assert g.sizes == ((3,) if g.game == "vaxandis" else (min(registry.get(g.game).sizes),))
    assert [e.name for e in cfg.engines] == ["random", "greedy", "heuristic"] and cfg.pairing == "round-robin"
    assert cfg.games_per_pair == 2


# -- schedule ---------------------------------------------------------------------------------

def test_round_robin_schedule_ids_seats_and_seeds(tmp_path):
    cfg = load(tmp_path, GOOD)
    games = schedule(cfg)
    # 3 engines -> 3 pairings; 3 games each; groups: 2 sizes x 2 variants + 1
    assert len(games) == 3 * 3 * 5
    assert len({g.id for g in games}) == len(games)
    assert games[0].id == "spelde-5-pie/0000" and games[9].id == "spelde-5-nopie-flips=dense/0000"
    assert games[-1].id == "spelde-7-pie/0008" and games[-1].ply_cap == 40
    per_pair = Counter(frozenset((g.first, g.second)) for g in games if g.group == "spelde-5-pie")
    assert set(per_pair.values()) == {3}
    firsts = Counter(g.first for g in games if {g.first, g.second} == {"random", "greedy"}
                     and g.group == "spelde-6-pie")
    assert firsts == Counter({"random": 2, "greedy": 1})        # seats alternate by round
    assert schedule(cfg) == games                                  # pure and stable
    assert games[0].seeds == (game_seed(7, games[0].id, 1), game_seed(7, games[0].id, 2))
    assert games[0].seeds[0] != games[0].seeds[1] and games[0].seeds != games[1].seeds


def test_seeds_depend_on_the_id_only():
    assert game_seed(1, "spelde-5-pie/0001", 1) == game_seed(1, "spelde-5-pie/0001", 1)
    assert game_seed(1, "spelde-5-pie/0001", 1) != game_seed(2, "spelde-5-pie/0001", 1)
    assert 0 <= game_seed(99, "x", 2) < 2**31


def test_gauntlet_pairs_each_challenger_with_every_other_engine(tmp_path):
    text = GOOD.replace('pairing = "round-robin"', 'pairing = "gauntlet"\nchallengers = ["my.bot"]')
    cfg = load(tmp_path, text)
    assert pairings(cfg) == [("my.bot", "random"), ("my.bot", "greedy")]
    assert len(schedule(cfg)) == 2 * 3 * 5
    with pytest.raises(C.ConfigError, match="at least one challenger"):
        load(tmp_path, GOOD.replace('pairing = "round-robin"', 'pairing = "gauntlet"'))


def test_engine_rlimits_and_the_log_cap_are_read_saved_and_checked():
    data = {"engines": {"a": {"player": "random", "memory_mb": 512, "cpu_seconds": 60}, "b": {"player": "greedy"}},
            "games": [{"game": "spelde"}], "logs": {"cap_kb": 64}}
    cfg = C.from_dict(data)
    assert cfg.engine("a").resources == C.ResourceLimits(memory_mb=512, cpu_seconds=60)
    assert cfg.engine("b").resources == C.ResourceLimits() and cfg.log_cap == 64 * 1024
    assert C.from_dict(json.loads(json.dumps(C.to_dict(cfg)))) == cfg
    with pytest.raises(C.ConfigError, match="engines.a.memory_mb"):
        C.from_dict({**data, "engines": {**data["engines"], "a": {"player": "random", "memory_mb": 0}}})
    with pytest.raises(C.ConfigError, match="logs.cap_kb"):
        C.from_dict({**data, "logs": {"cap_kb": "big"}})


def test_pause_is_on_unless_an_engine_turns_it_off(tmp_path):
    config = load(tmp_path, GOOD.replace('player = "random"', 'player = "random"\npause = false'))
    assert [(e.name, e.pause) for e in config.engines] == [("random", False), ("greedy", True), ("my.bot", True)]
    assert C.to_dict(config)["engines"]["random"]["pause"] is False
    assert "pause" not in C.to_dict(config)["engines"]["greedy"]
    with pytest.raises(C.ConfigError, match="engines.random.pause: expected true or false, got 'no'"):
        load(tmp_path, GOOD.replace('player = "random"', 'player = "random"\npause = "no"'))


def test_analysis_is_on_unless_an_engine_turns_it_off(tmp_path):
    config = load(tmp_path, GOOD.replace('player = "random"', 'player = "random"\nanalysis = false'))
    assert [(e.name, e.analysis) for e in config.engines] == [("random", False), ("greedy", True), ("my.bot", True)]
    assert C.to_dict(config)["engines"]["random"]["analysis"] is False
    assert "analysis" not in C.to_dict(config)["engines"]["greedy"]
    assert C.from_dict(json.loads(json.dumps(C.to_dict(config)))) == config


def test_restart_defaults_to_fault_for_built_in_players_and_to_game_for_commands(tmp_path):
    config = load(tmp_path, GOOD.replace('cmd = ["./bot", "--hgp"]', 'cmd = ["./bot", "--hgp"]\nrestart = "fault"'))
    assert [(e.name, e.restart) for e in config.engines] == [("random", "fault"), ("greedy", "game"),
                                                             ("my.bot", "fault")]
    assert C.from_dict(json.loads(json.dumps(C.to_dict(config)))) == config
    assert {e.restart for e in C.default_config().engines} == {"fault"}
