"""A person's typos on the command line and in a config: caught before anything starts, with the
flag or file:line:key, a did-you-mean, a non-zero exit status and nothing written. `play` and
`match` run as real processes (`python -m hexarena`)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401  (autouse fixture)

RANDOM = f"{sys.executable} -m hexarena.players random"


def hexarena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`hexarena ARGS` run in `cwd` (made here), its temporary files under the test's tmp folder."""
    cwd.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": tempfile.gettempdir()}
    return subprocess.run([sys.executable, "-m", "hexarena", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, env=env)


def nothing_left(tmp_path: Path) -> bool:
    """Nothing written in the command's folder, no temporary folder left behind."""
    return not any((tmp_path / "run").iterdir()) and not any((tmp_path / "tmp").iterdir())


def test_play_with_an_engine_that_cannot_start_ends_at_once_with_the_reason(tmp_path):
    done = hexarena("play", "--engine", "./no-such-engine --hgp", "--size", "4", "--out", "o", cwd=tmp_path / "run")
    assert done.returncode == 1, done.stderr
    assert "cannot start './no-such-engine'" in done.stderr and "No such file" in done.stderr
    assert "http" not in done.stdout                     # no address printed: nothing was served
    assert nothing_left(tmp_path)


def test_play_with_a_mistyped_built_in_player_suggests_the_right_one(tmp_path):
    done = hexarena("play", "--engine", "mtcs", "--game", "spelde", "--size", "5", cwd=tmp_path / "run")
    assert done.returncode == 2
    assert "--engine 'mtcs': neither a built-in player (did you mean mcts?) nor a program on PATH" in done.stderr
    budget = hexarena("play", "--engine", "mcst:200", cwd=tmp_path / "run")
    assert budget.returncode == 2 and "unknown built-in player 'mcst' in 'mcst:200' (did you mean mcts?)" in budget.stderr
    assert nothing_left(tmp_path)


def test_match_with_an_engine_that_cannot_start_writes_nothing(tmp_path):
    done = hexarena("match", "./no-such-engine", RANDOM, "--size", "4", "--out", "o", cwd=tmp_path / "run")
    assert done.returncode == 1
    assert "not started" in done.stderr and "cannot start './no-such-engine'" in done.stderr
    assert nothing_left(tmp_path)


@pytest.mark.parametrize("args, said", [
    (("--size", "20"), "Error: --size: expected an integer in 2..13, got 20"),
    (("--game", "speldee"), "Error: --game: no game 'speldee' (did you mean spelde?); games: anda,"),
    (("--move-time", "-1"), "Error: --move-time: "),
    (("--komi", "-3"), "Error: --komi: "),
])
def test_flag_errors_name_the_flag(tmp_path, args, said):
    for command in (("match", RANDOM, RANDOM), ("play", "--engine", "random")):
        result = invoke(*command, *args, "--out", str(tmp_path / "o"))
        assert result.exit_code == 2 and said in result.stderr, result.stderr
        assert "games[0]" not in result.stderr and "time." not in result.stderr
    assert not (tmp_path / "o").exists()


def test_a_config_names_the_line_and_key_of_a_mistyped_player(tmp_path):
    conf = tmp_path / "t.toml"
    conf.write_text('seed = 1\n\n[engines.a]\nplayer = "mcst:200"\n[engines.b]\nplayer = "random"\n'
                    '[[games]]\ngame = "spelde"\n')
    result = invoke("tournament", str(conf), "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert (f"{conf}:4: engines.a.player: unknown built-in player 'mcst' in 'mcst:200' (did you mean mcts?)"
            in result.stderr)
    conf.write_text('[engines.a]\nplayer = "random:5"\n[engines.b]\nplayer = "heuristik"\n[[games]]\ngame = "spelde"\n')
    result = invoke("tournament", str(conf), "--out", str(tmp_path / "o"))
    assert f"{conf}:2: engines.a.player: built-in player 'random' takes no budget (write random)" in result.stderr
    conf.write_text('[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "heuristik"\n[[games]]\ngame = "spelde"\n')
    result = invoke("tournament", str(conf), "--out", str(tmp_path / "o"))
    assert f"{conf}:4: engines.b.player: unknown built-in player 'heuristik' (did you mean heuristic?)" in result.stderr
    assert not (tmp_path / "o").exists()
