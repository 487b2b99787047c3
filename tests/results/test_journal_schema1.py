"""Folders written with journal schema 1 (tests/fixtures/journal-schema-1, made by the release
before pair numbers, void causes and forfeit kinds were fields) rate, test and resume as they did.

The fixture's `*.txt` files are what that release printed for the same folders."""
from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from hexarena.cli import main
from hexarena.results.record.game import SCHEMA
from hexarena.results.record.journal import read_journal

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "journal-schema-1"


def copy(tmp_path: Path, name: str) -> Path:
    shutil.copytree(FIXTURE / name, tmp_path / name)
    return tmp_path / name


def test_schema1_lines_read_with_their_forfeits_from_structured_fields(tmp_path):
    records = read_journal(copy(tmp_path, "v1"))
    assert {r.schema for r in records} == {1} and len(records) == 12
    forfeits = [r for r in records if r.forfeit is not None]
    assert {(r.faulty, r.forfeit) for r in forfeits} == {("slow", "malformed")} and len(forfeits) == 4
    assert all(r.void_cause is None and r.pair is None for r in records)


def test_ratings_of_a_schema1_folder_are_unchanged(tmp_path):
    folder = copy(tmp_path, "v1")
    result = CliRunner().invoke(main, ["ratings", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output == (FIXTURE / "v1.ratings.txt").read_text()


def test_status_of_a_schema1_folder_counts_its_voids_as_unrecorded(tmp_path):
    folder = copy(tmp_path, "v1")
    result = CliRunner().invoke(main, ["status", str(folder)])
    assert result.exit_code == 0, result.output
    before = (FIXTURE / "v1.status.txt").read_text().replace(str(Path("v1")), str(folder), 1)
    assert result.output.replace("void: unrecorded 6", "void: start 6") == before


def test_the_sprt_of_a_schema1_match_pairs_its_games_by_the_saved_schedule(tmp_path):
    folder = copy(tmp_path, "sprt")
    result = CliRunner().invoke(main, ["sprt", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output == (FIXTURE / "sprt.sprt.txt").read_text()


def test_a_schema1_folder_resumes_and_its_replayed_voids_get_a_cause(tmp_path):
    folder = copy(tmp_path, "v1")
    result = CliRunner().invoke(main, ["tournament", "--resume", "--out", str(folder), "--no-preflight", "-q"])
    assert result.exit_code == 1 and "no game of this run counted: all 6 were void" in result.stderr
    records = read_journal(folder)
    assert len(records) == 18 and [r.schema for r in records[12:]] == [SCHEMA] * 6
    assert {(r.void_cause, r.faulty) for r in records[12:]} == {("start", "broken")}
    again = CliRunner().invoke(main, ["ratings", str(folder)])
    assert again.output == (FIXTURE / "v1.ratings.txt").read_text()
