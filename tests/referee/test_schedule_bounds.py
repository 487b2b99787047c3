"""games_per_pair has one limit, in a config and on the command line, and a schedule's size is
bounded before any game of it is built."""
from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.schedule import schedule

ENGINES = {"a": {"cmd": ["x"]}, "b": {"cmd": ["y"]}, "c": {"cmd": ["z"]}, "d": {"cmd": ["w"]}}


def _config(games: list[dict], **top) -> C.TournamentConfig:
    return C.from_dict({"engines": ENGINES, "games": games, **top})


@pytest.mark.parametrize("games, top", [
    ([{"game": "spelde", "size": 5}], {}),
    ([{"game": "spelde", "sizes": [4, 5], "variants": ["pie", "nopie"]}], {"games_per_pair": 3}),
    ([{"game": "spelde", "size": 5, "openings": ["c3", "a1 e5", "e5"]}], {"games_per_pair": 5}),
    ([{"game": "spelde", "size": 5, "engines": ["a", "c", "d"]}, {"game": "marbanta", "size": 4}],
     {"games_per_pair": 1}),
    ([{"game": "spelde", "size": 5}, {"game": "anda", "size": 5, "engines": ["a", "b", "d"]}],
     {"pairing": "gauntlet", "challengers": ["a", "b"], "games_per_pair": 4}),
])
def test_the_count_is_the_length_of_the_schedule(games: list[dict], top: dict) -> None:
    config = _config(games, **top)
    assert C.scheduled_games(config) == len(schedule(config)) > 0


def test_a_config_whose_schedule_is_too_large_is_refused_before_it_is_built() -> None:
    games = [{"game": "spelde", "size": 5}]
    assert C.scheduled_games(_config(games, games_per_pair=C.MAX_GAMES // 6)) == C.MAX_GAMES // 6 * 6
    with pytest.raises(C.ConfigError, match=f"games_per_pair: the schedule would hold {6 * 40_000} games, "
                                            f"more than {C.MAX_GAMES}"):
        _config(games, games_per_pair=40_000)               # 6 pairings
    with pytest.raises(C.ConfigError, match="games_per_pair: expected an integer in 1..100000, got 100001"):
        _config(games, games_per_pair=100_001)


def test_the_command_lines_value_has_the_configs_limits() -> None:
    config = _config([{"game": "spelde", "size": 5}], games_per_pair=2)
    assert C.with_games_per_pair(config, 7).games_per_pair == 7
    with pytest.raises(C.ConfigError, match=r"^--games-per-pair: expected an integer in 1\.\.100000, got 0$"):
        C.with_games_per_pair(config, 0)
    with pytest.raises(C.ConfigError, match="more than 200000"):
        C.with_games_per_pair(config, 40_000)


def _cli(*args: str, cwd) -> subprocess.CompletedProcess:
    """The real CLI in a subprocess, its address space capped at 4 GB (an unbounded schedule fails fast)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    return subprocess.run([sys.executable, "-m", "hexarena", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, preexec_fn=cap)


def test_the_cli_refuses_a_huge_games_per_pair_at_once(tmp_path) -> None:
    proc = _cli("tournament", "--games-per-pair", "99999999", "--out", str(tmp_path / "t"), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == "Error: --games-per-pair: expected an integer in 1..100000, got 99999999\n"
    assert not (tmp_path / "t").exists()


def test_the_cli_refuses_a_games_per_pair_whose_schedule_is_too_large(tmp_path) -> None:
    conf = tmp_path / "t.toml"
    conf.write_text('[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "random"\n'
                    '[[games]]\ngame = "spelde"\nsizes = [4, 5, 6]\n', encoding="utf-8")
    proc = _cli("tournament", str(conf), "--games-per-pair", "100000", "--out", str(tmp_path / "t"), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ("Error: --games-per-pair: games_per_pair: the schedule would hold 300000 games, more "
                           "than 200000 (pairings x sizes x variants x openings x games_per_pair)\n")
    assert not (tmp_path / "t").exists()
