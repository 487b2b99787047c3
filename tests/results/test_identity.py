"""Engines told apart by identity: `hexarena ratings --by identity`, `hexarena status`, the report's
Engines section, from journals written by real tournaments (two builds under one config name: the
engine `a` is the random player in one run and the greedy player in the other) and from the
schema-1 fixture (no identities: config names)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.results.page.html_report import build_page
from hexarena.results.page.replay_cache import ReplayCache
from hexarena.results.record.game import GameRecord
from hexarena.results.record.identity import identity_lines, identity_of, label
from hexarena.results.record.journal import read_journal

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "journal-schema-1"


def match(out: Path, a: str, b: str) -> Path:
    run = subprocess.run([sys.executable, "-m", "hexarena", "match", f"a=python -m hexarena.players {a}",
                          f"b=python -m hexarena.players {b}", "--size", "4", "--games", "2", "--out", str(out),
                          "-q"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr + run.stdout
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("builds")
    return match(base / "one", "random", "greedy"), match(base / "two", "greedy", "greedy")


def told(folder: Path, player: str) -> str:
    """What `player` answered to name and version in the folder's first game, read from the journal."""
    record = read_journal(folder / "journal.jsonl")[0]
    seat = (record.first, record.second).index(player)
    return " ".join(record.identities[seat])


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_ratings_by_identity_tell_two_builds_under_one_name_apart(runs):
    one, two = runs
    a1, a2, b = told(one, "a"), told(two, "a"), told(one, "b")
    assert a1 != a2 and a1.startswith("hexarena-random") and a2.startswith("hexarena-greedy")
    plain = json.loads(invoke("ratings", one, two, "--pooled", "--format", "json").output)
    assert sorted(r["player"] for r in plain["tables"][0]["ratings"]) == ["a", "b"]
    result = invoke("ratings", one, two, "--by", "identity", "--format", "json")
    tables = json.loads(result.output)["tables"]
    players = {r["player"]: r["games"] for r in tables[0]["ratings"]}
    assert players == {f"a ({a1})": 2, f"a ({a2})": 2, f"b ({b})": 4}
    text = invoke("ratings", one, two, "--by", "identity,game").output
    assert "== spelde: 4 games, 3 players" in text and f"a ({a2})" in text
    assert invoke("ratings", one, "--by", "identity", "--pooled").exit_code == 0
    assert invoke("ratings", one, "--by", "game", "--pooled").exit_code == 2


def test_ratings_by_identity_of_records_without_identities_use_the_config_names(tmp_path):
    folder = shutil.copytree(FIXTURE / "v1", tmp_path / "v1")
    assert all(r.identities is None for r in read_journal(folder / "journal.jsonl"))
    assert invoke("ratings", folder, "--by", "identity").output == (FIXTURE / "v1.ratings.txt").read_text()


def test_status_lists_each_engines_identity(runs, tmp_path):
    one, _ = runs
    out = invoke("status", one).output
    assert "engines (name and version they answered):" in out
    assert f"  a: {told(one, 'a')} (2 games)" in out and f"  b: {told(one, 'b')} (2 games)" in out
    folder = shutil.copytree(FIXTURE / "v1", tmp_path / "v1")
    assert "engines (name" not in invoke("status", folder).output   # schema 1: nothing known, nothing said


def test_the_reports_engines_section(runs, tmp_path):
    one, _ = runs
    html, _ = build_page(one, ReplayCache(one, persist=False))
    assert '<section id="engines">' in html and f"<td>{told(one, 'a')}</td>" in html
    folder = shutil.copytree(FIXTURE / "v1", tmp_path / "v1")
    assert '<section id="engines">' not in build_page(folder, ReplayCache(folder, persist=False))[0]


def test_identity_labels_and_unknown_answers():
    common = dict(id="g", game="spelde", size=4, variant="pie", first="a", second="b", black="a", white="b",
                  winner="a", result="B+", termination="no-moves", plies=3)
    record = GameRecord(**common, identities=[["eng", None], [None, None]])
    assert identity_of(record, "a") == "eng" and identity_of(record, "b") is None
    assert (label(record, "a"), label(record, "b")) == ("a (eng)", "b")
    assert label(GameRecord(**common), "a") == "a"
    assert identity_lines([record]) == ["a: eng (1 game)", "b: (not told) (1 game)"]
    assert identity_lines([GameRecord(**common)]) == []


def test_an_identity_of_a_megabyte_is_shown_cut(tmp_path):
    from hexarena.results.record.journal import read_journal
    from tests.support.folders import build_folder
    build_folder(tmp_path, 2)
    journal = tmp_path / "journal.jsonl"
    lines = [json.loads(x) for x in journal.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        line["identities"] = [["x" * 1_000_000, "1"], ["y", None]]
    journal.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    shown = "\n".join(identity_lines(read_journal(journal)))
    assert "x" * 200 + " 1" in shown and "x" * 201 not in shown and len(shown) < 1000
