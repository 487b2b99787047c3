"""`[engines.X] commands`: setup commands sent once to every process; a refusal stops the run at the pre-flight."""
from __future__ import annotations

import json
import shlex
from functools import partial
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner

from hexarena import cli
from hexarena.referee.engines.process import open_engine
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.run import run
from hexarena.results.record.journal import read_journal
from tests.support.fakes12 import fake12_argv

SETUP = ["frobnicate on", "hash 16"]


def _got(log: Path) -> list[str]:
    return [ln.split(" ", 2)[2] for ln in log.read_text().splitlines() if ln.startswith("got: ")]


def _config(tmp_path: Path, flags: str, restart: str) -> Path:
    conf = tmp_path / "t.toml"
    conf.write_text(f'games_per_pair = 2\n[engines.setup]\ncmd = {json.dumps(fake12_argv(flags))}\n'
                    f'commands = {json.dumps(SETUP)}\nrestart = "{restart}"\n'
                    '[engines.random]\nplayer = "random"\n[[games]]\ngame = "spelde"\nsize = 4\n')
    return conf


@pytest.mark.parametrize("restart", ["game", "fault"])
def test_setup_commands_are_sent_once_to_every_process_after_its_handshake(tmp_path: Path, restart: str) -> None:
    out = tmp_path / "o"
    trio.run(partial(run, C.load(_config(tmp_path, "v12", restart)), out, concurrency=1))
    records = read_journal(out)
    assert len(records) == 2 and all(r.termination != "void" for r in records), [r.reason for r in records]
    seat = {r.id: (1 if r.first == "setup" else 2) for r in records}
    sent = {r.id: _got(out / "logs" / f"{r.id}.{seat[r.id]}-setup.log") for r in records}
    processes = {r.processes[seat[r.id] - 1] for r in records if r.processes}
    for r in records:
        commands = sent[r.id]
        if restart == "game" or r is records[0]:
            assert [c for c in commands if c in SETUP] == SETUP           # in order, once
            assert commands.index("frobnicate on") > commands.index("list_commands")
            assert commands.index("hash 16") < next(i for i, c in enumerate(commands) if c.startswith("genmove"))
        else:
            assert not any(c in SETUP for c in commands)                # the kept process answered them already
    assert len(processes) == (2 if restart == "game" else 1)


def test_a_refused_setup_command_voids_a_game_played_without_the_preflight(tmp_path: Path) -> None:
    seats = (Seat("picky", partial(open_engine, fake12_argv("refuse-setup"), tmp_path / "p.log", "picky"),
                  commands=("frobnicate on",)),
             Seat("plain", partial(open_engine, fake12_argv(""), tmp_path / "q.log", "plain")))
    record = trio.run(play_game, Setup("spelde", 4), seats, Limits(move=5.0))
    assert record.void_cause == "unsupported" and record.faulty == "picky"
    assert record.reason == "picky: refused setup command `frobnicate on`: unknown command"


def test_the_preflight_names_the_engine_and_the_refused_setup_command_before_anything_is_journaled(
        tmp_path: Path) -> None:
    out = tmp_path / "o"
    result = CliRunner().invoke(cli.main, ["tournament", str(_config(tmp_path, "refuse-setup", "game")),
                                           "--out", str(out), "-j", "1"], catch_exceptions=False)
    assert result.exit_code == 1
    assert "setup: refused the setup command `frobnicate on`: unknown command" in result.stderr
    assert "`hash 16`" not in result.stderr and "random:" not in result.stderr      # only the refusal is a problem
    assert not (out / "journal.jsonl").exists()


@pytest.mark.parametrize("value, why", [
    ('"frobnicate"', "expected a list of strings"),
    ('["quit"]', "`quit` is the referee's to send"),
    ('["genmove b"]', "`genmove` is the referee's to send"),
    ('["7 hash 16"]', "without an id"),
    ('["hash  16"]', "is not a command line"),
    ('["hash 16 # big"]', "is not a command line"),
    ('[""]', "is not a command line"),
])
def test_setup_commands_are_checked_in_the_config(tmp_path: Path, value: str, why: str) -> None:
    conf = tmp_path / "t.toml"
    conf.write_text(f'[engines.a]\nplayer = "random"\ncommands = {value}\n[engines.b]\nplayer = "greedy"\n'
                    '[[games]]\ngame = "spelde"\n')
    with pytest.raises(C.ConfigError) as info:
        C.load(conf)
    assert "t.toml:3: engines.a.commands: " in str(info.value) and why in str(info.value), str(info.value)


def test_setup_commands_round_trip_the_saved_config(tmp_path: Path) -> None:
    config = C.load(_config(tmp_path, "v12", "game"))
    assert config.engine("setup").commands == tuple(SETUP) and config.engine("random").commands == ()
    assert C.from_dict(json.loads(json.dumps(C.to_dict(config)))) == config


@pytest.mark.parametrize("restart", ["game", "fault"])
def test_match_sends_the_command_option_s_lines_to_the_named_engine_once_per_process(
        tmp_path: Path, restart: str) -> None:
    out = tmp_path / "m"
    fake = shlex.join(fake12_argv("v12"))
    result = CliRunner().invoke(cli.main, [
        "match", f"setup={fake}", "python -m hexarena.players random", "--game", "spelde", "--size", "4",
        "--games", "2", "--restart", restart, "--out", str(out), "-q",
        "--command", "setup=frobnicate on", "--command", "setup=hash 16"], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    logs = sorted((out / "logs").rglob("*-setup.log"))
    assert len(logs) == 2
    sent = [[c for c in _got(log) if c in SETUP] for log in logs]
    # a process per game: each is sent both, in order; a kept process: only its first game's log has them
    assert sent == ([SETUP, SETUP] if restart == "game" else [SETUP, []])
    assert not any("frobnicate" in ln for log in (out / "logs").rglob("*-random.log") for ln in _got(log))


def test_match_refuses_a_command_for_an_engine_it_does_not_play(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.main, [
        "match", "python -m hexarena.players random", "python -m hexarena.players greedy",
        "--out", str(tmp_path / "m"), "--command", "mcts=hash 16"])
    assert result.exit_code == 2
    assert "--command 'mcts=hash 16': expected NAME=\"CMD ...\" with NAME one of the engines, random or greedy" \
        in result.output
    assert not (tmp_path / "m").exists()


def test_match_stops_at_the_preflight_when_the_named_engine_refuses_its_command(tmp_path: Path) -> None:
    out = tmp_path / "m"
    fake = shlex.join(fake12_argv("refuse-setup"))
    result = CliRunner().invoke(cli.main, [
        "match", f"picky={fake}", "python -m hexarena.players random", "--out", str(out),
        "--command", "picky=frobnicate on"], catch_exceptions=False)
    assert result.exit_code == 1
    assert "picky: refused the setup command `frobnicate on`: unknown command" in result.stderr
    assert not (out / "journal.jsonl").exists()
