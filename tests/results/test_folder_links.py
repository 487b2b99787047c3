"""Symbolic links planted in a tournament folder (one made by someone else and copied here, say):
no command writes through one to a file outside the folder, and no record's SGF is read from
outside it through a `games/` that is a link; a game played again keeps the SGF it replaces.
Real runs of the CLI in-process, real engines."""
from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)

RANDOM = f"{shlex.quote(sys.executable)} -m hexarena.players random"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    out = tmp_path / "t"
    assert invoke("match", RANDOM, RANDOM, "--size", "4", "--games", "2", "--out", str(out), "-q").exit_code == 0
    return out


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text("VICTIM\n", encoding="utf-8")
    return path


def _keep_first_line(out: Path) -> None:
    journal = out / "journal.jsonl"
    journal.write_bytes(journal.read_bytes().splitlines(keepends=True)[0])


def test_the_report_cache_is_written_over_no_link(folder, victim):
    (folder / "report-cache.jsonl").unlink(missing_ok=True)
    (folder / "report-cache.jsonl.tmp").symlink_to(victim)
    assert invoke("report", str(folder), "--rebuild").exit_code == 0
    (folder / "report-cache.jsonl").unlink()
    (folder / "report-cache.jsonl").symlink_to(victim)
    invoke("report", str(folder), "--rebuild")
    assert victim.read_text(encoding="utf-8") == "VICTIM\n"


def test_repair_and_resume_append_through_no_link(folder, victim, tmp_path):
    (folder / "journal.jsonl.bad").symlink_to(victim)
    with (folder / "journal.jsonl").open("ab") as fh:
        fh.write(b"{not a record\n")
    invoke("repair", str(folder))
    assert victim.read_text(encoding="utf-8") == "VICTIM\n"
    (folder / "journal.jsonl.bad").unlink()
    assert invoke("repair", str(folder)).exit_code == 0
    (folder / "journal.jsonl.torn").symlink_to(victim)
    with (folder / "journal.jsonl").open("ab") as fh:
        fh.write(b'{"id": "torn')
    invoke("tournament", "--resume", "--out", str(folder), "-q")
    assert victim.read_text(encoding="utf-8") == "VICTIM\n"


def test_a_live_folder_that_is_a_link_is_replaced_not_followed(folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (folder / "live").symlink_to(outside)
    _keep_first_line(folder)
    assert invoke("tournament", "--resume", "--out", str(folder), "-q").exit_code == 0
    assert list(outside.iterdir()) == []


def test_a_games_folder_that_is_a_link_holds_no_records_file(folder, tmp_path):
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "secret.sgf").write_text("(;FF[4]GM[1003]XG[spelde]SZ[4];B[hunter2])", encoding="utf-8")
    lines = (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["sgf"] = "games/secret.sgf"
    record.pop("seal", None)
    (folder / "journal.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    os.rename(folder / "games", tmp_path / "games-moved")
    (folder / "games").symlink_to(secret)
    result = invoke("report", str(folder), "--rebuild")
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "hunter2" not in page and "hunter2" not in result.stderr, result.stderr
    assert "not a file inside games/" in result.stderr, result.stderr


def test_a_game_played_again_keeps_the_sgf_it_replaces(folder):
    first = json.loads((folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()[1])
    sgf = folder / first["sgf"]
    before = sgf.read_bytes()
    _keep_first_line(folder)                          # its record gone (as repair moves a bad line aside)
    assert invoke("tournament", "--resume", "--out", str(folder), "-q").exit_code == 0
    assert sgf.with_name(sgf.name + ".1").read_bytes() == before
    assert sgf.exists()
