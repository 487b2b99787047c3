"""A journal with one game id twice (different winners): every reader counts the first record
and names the later line (status, status --tables, ratings, the report, serve's watch, --resume,
repair)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena import cli
from hexarena.results.record.journal import JournalError, read_journal
from hexarena.web.watch import FolderWatch

CONFIG = """games_per_pair = 2
[time]
move = 5
[engines.a]
player = "random"
[engines.b]
player = "random"
[[games]]
game = "spelde"
size = 4
"""
SAID = "already has a record (line 1): this later one is not counted"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> tuple[Path, Path]:
    """A real two-game tournament whose first record is then appended again with the other winner."""
    tmp = tmp_path_factory.mktemp("dup")
    config, out = tmp / "t.toml", tmp / "out"
    config.write_text(CONFIG, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out), "-j", "1",
                    "--no-preflight"], check=True, capture_output=True)
    journal = out / "journal.jsonl"
    first = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
    assert first["winner"] in (first["black"], first["white"])
    first["winner"] = first["white"] if first["winner"] == first["black"] else first["black"]
    first["result"] = ("W" if first["result"][0] == "B" else "B") + first["result"][1:]
    with open(journal, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(first) + "\n")
    return config, out


def test_every_reader_counts_the_first_record(folder):
    config, out = folder
    errors: list[JournalError] = []
    records = read_journal(out, errors)
    assert len(records) == 2 and [e.line for e in errors] == [3] and SAID in errors[0].reason
    with pytest.raises(JournalError, match="line 1"):
        read_journal(out)
    runner = CliRunner()
    status = runner.invoke(cli.main, ["status", str(out)])
    assert "2/2 games" in status.output and SAID in status.output + status.stderr
    tables = runner.invoke(cli.main, ["status", str(out), "--tables"])
    assert "ratings over 2 games" in tables.output, tables.output
    strict = runner.invoke(cli.main, ["ratings", str(out)])
    assert strict.exit_code == 1 and SAID in strict.output + strict.stderr
    skipped = runner.invoke(cli.main, ["ratings", str(out), "--skip-bad"])
    assert skipped.exit_code == 0 and "all games: 2 games" in skipped.output
    report = runner.invoke(cli.main, ["report", str(out)])
    assert report.exit_code == 0 and "2 games" in report.output and SAID in report.stderr
    watch = FolderWatch(out)
    watch.poll()
    assert len(watch.lines) == 2 and any("already has a record" in w for w in watch.warnings)
    assert watch.lines[records[0].id][0] == 0         # the first line is the game's line


def test_resume_says_so_and_repair_keeps_the_first(folder, tmp_path):
    config, out = folder
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(out), str(copy)], check=True)
    resume = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(copy),
                             "--resume", "--no-preflight"], capture_output=True, text=True)
    assert resume.returncode == 1 and SAID in resume.stderr and "Traceback" not in resume.stderr
    repaired = CliRunner().invoke(cli.main, ["repair", str(copy)])
    assert "moved 1 bad line(s) (3)" in repaired.output
    assert [r.winner for r in read_journal(copy)] == [r.winner for r in read_journal(out, [])]
