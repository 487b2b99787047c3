"""Messages a user can act on: exit status, commands expanded and shell-quoted, match deadlines."""
from __future__ import annotations

import shlex
import sys

import trio
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.preflight import preflight
from hexarena.results.record.journal import read_journal


def test_preflight_names_the_exit_status_and_shows_the_command_expanded_and_quoted(tmp_path):
    engines = (C.EngineSpec("dies", ("{python}", "-c", "import sys; sys.exit(3)", "{seed}")),
               C.EngineSpec("random", C.player_cmd("random")))
    cfg = C.TournamentConfig(engines, (C.GameSpec("spelde", (5,), ("pie",)),), seed=42,
                             limits=C.Limits(start=20))
    [problem] = trio.run(preflight, cfg, tmp_path)
    assert "exited with status 3" in problem
    assert shlex.join([sys.executable, "-c", "import sys; sys.exit(3)", "42"]) in problem
    assert "{python}" not in problem and "{seed}" not in problem


def test_match_takes_start_and_command_deadlines(tmp_path):
    silent = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"
    good = f"{shlex.quote(sys.executable)} -m hexarena.players random"
    result = CliRunner().invoke(main, ["match", silent, good, "--games", "1", "--no-preflight", "--out",
                                       str(tmp_path), "--start-time", "0.5", "--command-time", "2"])
    assert result.exit_code == 1 and "no game of this run counted: all 1 were void" in result.stderr
    [record] = read_journal(tmp_path)
    assert record.void and "no answer to 'protocol_version' in time" in record.reason
    assert '"start": 0.5' in (tmp_path / "tournament.json").read_text()
    assert '"command": 2.0' in (tmp_path / "tournament.json").read_text()


def test_repair_is_a_hexarena_command(tmp_path):
    (tmp_path / "journal.jsonl").write_text("not a record\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["repair", str(tmp_path)])
    assert result.exit_code == 0 and "moved 1 bad line(s) (1)" in result.output
    assert (tmp_path / "journal.jsonl").read_text() == "" and (tmp_path / "journal.jsonl.bad").exists()
