"""The pre-flight check of `hexarena match` / `tournament`: real engine processes."""
from __future__ import annotations

import shlex
import sys

from click.testing import CliRunner

from hexarena import cli

RANDOM = f"{shlex.quote(sys.executable)} -m hexarena.players random"


def invoke(*args: str):
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False)


def test_an_engine_that_cannot_start_stops_the_run_before_any_game(tmp_path):
    out = tmp_path / "m"
    result = invoke("match", RANDOM, str(tmp_path / "no-such-engine"), "--size", "4", "--out", str(out))
    assert result.exit_code == 1
    assert "failed the pre-flight check" in result.stderr and "No such file" in result.stderr
    assert not (out / "journal.jsonl").exists()


def test_an_engine_that_does_not_list_the_game_is_named(tmp_path):
    lister = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split(); cid = w[0]\n"
        "    if w[1] == 'quit':\n"
        "        print('=' + cid + ' '); print(flush=True); break\n"
        "    print('=' + cid + (' 2' if w[1] == 'protocol_version' else ' anda')); print(flush=True)\n")
    result = invoke("match", RANDOM, lister, "--game", "spelde", "--size", "4", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "does not list spelde in list_games" in result.stderr


def test_no_preflight_plays_and_voids_instead(tmp_path):
    out = tmp_path / "v"
    result = invoke("match", RANDOM, str(tmp_path / "no-such-engine"), "--size", "4", "--games", "1",
                    "--out", str(out), "--no-preflight")
    assert result.exit_code == 0, result.output + result.stderr
    assert "1 void" in result.output
