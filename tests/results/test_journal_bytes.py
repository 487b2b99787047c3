"""A damaged journal line of any bytes is a bad line naming file and line: resume, repair, report."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from hexarena import cli
from hexarena.results.record.journal import read_journal
from tests.support.folders import build_folder

PLAYER = f"{shlex.quote(sys.executable)} -m hexarena.players"


def invoke(*args: str):
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False)


def test_a_non_utf8_middle_line_is_a_bad_line_for_resume_and_repair_moves_it_byte_for_byte(tmp_path):
    out = tmp_path / "m"
    played = invoke("match", f"{PLAYER} random", f"{PLAYER} greedy", "--size", "4", "--games", "2",
                    "--out", str(out), "-q", "--no-preflight")
    assert played.exit_code == 0, played.output + played.stderr
    journal = out / "journal.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    damaged = lines[0][:20] + b"\xff\xfe" + lines[0][20:]
    journal.write_bytes(damaged + b"".join(lines[1:]))
    resumed = invoke("tournament", "--resume", "--out", str(out), "-q", "--no-preflight")
    assert resumed.exit_code == 1
    assert f"{journal}:1: 'utf-8' codec can't decode byte 0xff" in resumed.stderr
    assert "hexarena repair" in resumed.stderr
    repaired = invoke("repair", str(out))
    assert repaired.exit_code == 0 and "moved 1 bad line(s) (1)" in repaired.output
    assert (out / "journal.jsonl.bad").read_bytes() == damaged
    assert journal.read_bytes() == b"".join(lines[1:])
    again = invoke("tournament", "--resume", "--out", str(out), "-q", "--no-preflight")
    assert again.exit_code == 0, again.output + again.stderr
    assert len(read_journal(out)) == 2                  # the moved line's game was played again


def _damage(folder: Path, line: int, text: bytes) -> Path:
    journal = folder / "journal.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[line - 1] = text
    journal.write_bytes(b"".join(lines))
    return journal


def test_report_names_each_unreadable_line_on_the_terminal_and_in_the_page(tmp_path):
    build_folder(tmp_path, 5)
    journal = _damage(tmp_path, 2, b'{"id": "x", \xff}\n')
    _damage(tmp_path, 4, b"not json\n")
    result = invoke("report", str(tmp_path))
    assert result.exit_code == 0, result.output + result.stderr
    assert "3 games" in result.output
    terminal = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert len(terminal) == 2
    assert terminal[0].startswith(f"warning: {journal}:2: 'utf-8' codec can't decode byte 0xff")
    assert terminal[1].startswith(f"warning: {journal}:4: Expecting value")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert f'<p class="warning">warning: {journal}:2: ' in page
    assert f'<p class="warning">warning: {journal}:4: Expecting value' in page


def test_ratings_names_a_non_utf8_line_and_skips_it_on_request(tmp_path):
    build_folder(tmp_path, 4)
    journal = _damage(tmp_path, 3, b"\x80\n")
    result = invoke("ratings", str(tmp_path))
    assert result.exit_code == 1 and f"{journal}:3: 'utf-8' codec" in result.stderr
    skipped = invoke("ratings", str(tmp_path), "--skip-bad")
    assert skipped.exit_code == 0 and f"warning: skipped {journal}:3: 'utf-8' codec" in skipped.stderr
