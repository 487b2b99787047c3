"""The `hexarena` command line (click's CliRunner; engines are real processes)."""
from __future__ import annotations

import dataclasses
import json
import re
import shlex
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from hexarena import cli, commands_run
from hexarena.referee.tournament import config as C
from hexarena.results.record.journal import read_journal
from tests.support.fakes import alive, fake_argv, pids_in

RANDOM = f"{shlex.quote(sys.executable)} -m hexarena.players random --seed {{seed}}"


def invoke(*args: str):
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False)


@pytest.mark.slow
def test_match_plays_alternating_games_and_prints_ratings(tmp_path):
    out = tmp_path / "m"
    result = invoke("match", RANDOM, shlex.join(fake_argv("good")), "--game", "spelde", "--size", "4",
                    "--games", "2", "--out", str(out), "--move-time", "5")
    assert result.exit_code == 0, result.output + result.stderr
    records = read_journal(out)
    assert [(r.first, r.second) for r in records] == [("random", "python"), ("python", "random")]
    assert "ratings over 2 games" in result.output
    assert (out / records[0].sgf).exists()


@pytest.mark.slow
def test_a_match_is_a_tournament_continued_and_grown_by_tournament_resume(tmp_path):
    out = tmp_path / "m"
    played = invoke("match", RANDOM, "greedy=" + RANDOM.replace("random", "greedy"), "--game", "spelde",
                    "--size", "4", "--games", "2", "--out", str(out), "--move-time", "5", "-q")
    assert played.exit_code == 0, played.output + played.stderr
    saved = C.from_dict(json.loads((out / "tournament.json").read_text()), "tournament.json")
    assert saved.games_per_pair == 2 and sorted(e.name for e in saved.engines) == ["greedy", "random"]
    assert saved.limits.move == 5
    grown = invoke("tournament", "--out", str(out), "--resume", "--games-per-pair", "4", "-j", "1", "-q")
    assert grown.exit_code == 0, grown.output + grown.stderr
    assert len(read_journal(out)) == 4
    again = invoke("match", RANDOM, "greedy=" + RANDOM.replace("random", "greedy"), "--game", "spelde",
                   "--size", "4", "--games", "6", "--out", str(out), "--move-time", "5", "-q", "--resume")
    assert again.exit_code == 0, again.output + again.stderr
    assert len(read_journal(out)) == 6
    no_out = invoke("match", RANDOM, RANDOM, "--resume")
    assert no_out.exit_code == 2 and "--resume needs --out" in no_out.stderr


def test_match_rejects_a_bad_variant_with_a_clear_message(tmp_path):
    result = invoke("match", RANDOM, RANDOM, "--variant", "flips=wild", "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert "--variant: flips=wild" in result.stderr


@pytest.mark.slow
def test_tournament_from_a_file_then_resume_and_refusals(tmp_path):
    conf = tmp_path / "t.toml"
    conf.write_text(f"[engines.one]\ncmd = {json.dumps(fake_argv('good'))}\n"
                    '[engines.two]\nplayer = "random"\n[[games]]\ngame = "spelde"\nsize = 4\n')
    out = tmp_path / "t"
    result = invoke("tournament", str(conf), "--out", str(out), "--games-per-pair", "1", "-j", "1", "-q")
    assert result.exit_code == 0, result.output + result.stderr
    assert len(read_journal(out)) == 1 and "ratings over 1 game" in result.output
    again = invoke("tournament", str(conf), "--out", str(out), "--games-per-pair", "1")
    assert again.exit_code == 1 and "already holds a tournament: add --resume" in again.stderr
    first_line = (out / "journal.jsonl").read_text()
    grown = invoke("tournament", str(conf), "--out", str(out), "--games-per-pair", "2", "--resume", "-q")
    assert grown.exit_code == 0 and "grows" in grown.stderr
    assert (out / "journal.jsonl").read_text().startswith(first_line) and len(read_journal(out)) == 2
    changed = invoke("tournament", str(conf), "--out", str(out), "--games-per-pair", "1", "--resume")
    assert changed.exit_code == 1 and "games_per_pair: saved 2, now 1 (it may only grow)" in changed.stderr
    resumed = invoke("tournament", "--out", str(out), "--resume")          # the saved config
    assert resumed.exit_code == 0 and len(read_journal(out)) == 2
    assert invoke("tournament", "--resume").exit_code == 2


def test_tournament_reports_config_errors_with_file_and_line(tmp_path):
    conf = tmp_path / "bad.toml"
    conf.write_text('[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "greedy"\n[[games]]\ngame = "go"\n')
    result = invoke("tournament", str(conf), "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert f"{conf}:6: games[0].game: no game 'go'" in result.stderr


@pytest.mark.slow
def test_tournament_without_arguments_runs_the_built_in_defaults(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    result = invoke("tournament", "--games-per-pair", "1", "-j", "2")      # one game per pair and game
    assert result.exit_code == 0, result.stderr
    [out] = (tmp_path / "hexarena-out").iterdir()
    saved = C.from_dict(json.loads((out / "tournament.json").read_text()), "tournament.json")
    assert saved == dataclasses.replace(C.default_config(), games_per_pair=1)
    records = read_journal(out)
    assert sorted(r.game for r in records) == sorted(3 * [g.game for g in C.default_config().games])
    assert {frozenset((r.first, r.second)) for r in records} == {frozenset(p) for p in
                                                                 (("random", "greedy"), ("random", "heuristic"),
                                                                  ("greedy", "heuristic"))}
    assert all(not r.void and r.termination.value != "ply-cap" for r in records)      # every game ends
    assert re.search(r"rank +player", result.output) and "heuristic" in result.output


def test_engine_serves_a_built_in_player():
    proc = subprocess.run([sys.executable, "-c", "from hexarena.cli import main; main()", "engine", "random",
                           "--seed", "3"], input="1 protocol_version\n2 list_games\n3 quit\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("=1 2\n\n=2 ")
    assert "spelde" in proc.stdout


@pytest.mark.slow
def test_sigterm_stops_a_running_tournament_and_its_engines(tmp_path):
    conf = tmp_path / "t.toml"
    conf.write_text(f"[engines.one]\ncmd = {json.dumps(fake_argv('hang', 1))}\n"
                    f"[engines.two]\ncmd = {json.dumps(fake_argv('good'))}\n"
                    '[time]\nmove = 300\n[[games]]\ngame = "spelde"\nsize = 4\n')
    out = tmp_path / "o"
    proc = subprocess.Popen([sys.executable, "-c", "from hexarena.cli import main; main()", "tournament",
                             str(conf), "--out", str(out), "-j", "2"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    logs = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:          # wait until all four engines have started
        logs = [log for log in (out / "logs").rglob("*.log") if not log.name.startswith("preflight.")] \
            if (out / "logs").exists() else []
        if len(logs) == 4 and all(pids_in(log) for log in logs):
            break
        time.sleep(0.1)
    pids = [p for log in logs for p in pids_in(log)]
    assert len(pids) == 4
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "--resume" in err
    assert not any(alive(p) for p in pids)
    assert read_journal(out) == []


def test_the_default_output_folder_is_ignored_by_git():
    from pathlib import Path
    ignored = (Path(__file__).resolve().parents[2] / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert f"/{commands_run.DEFAULT_OUT}/" in ignored


def test_match_takes_built_in_players_by_name(tmp_path):
    out = tmp_path / "m"
    result = invoke("match", "random", "mcts:20", "--game", "spelde", "--size", "4", "--games", "2", "--out",
                    str(out), "-q")
    assert result.exit_code == 0, result.output
    records = read_journal(out)
    assert len(records) == 2 and {records[0].first, records[0].second} == {"random", "mcts-20"}
    assert not any(r.void for r in records)
