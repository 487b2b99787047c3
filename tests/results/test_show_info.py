"""`hexarena show --all` prints each action's info lines (SGF XA) under its position, escaped for the terminal."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from hexarena.cli import main
from hexarena.results.record.journal import read_journal


def test_show_all_prints_the_info_lines_of_each_action_and_escapes_them(tmp_path):
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "hexarena", "match", "python -m hexarena.players greedy",
                          "python -m hexarena.players mcts:30", "--size", "4", "--games", "1", "--out", str(out),
                          "-q"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr + run.stdout
    record = read_journal(out / "journal.jsonl")[0]
    assert record.moves is not None and all(m.analysis for m in record.moves)
    sgf = out / record.sgf
    shown = CliRunner().invoke(main, ["show", str(sgf), "--all"], catch_exceptions=False).output
    blocks = shown.split("\nspelde pie 4, ply ")[2:]                 # one block per position after the first
    assert len(blocks) == record.plies
    for ply, (block, move) in enumerate(zip(blocks, record.moves), 1):
        assert block.startswith(f"{ply},")
        assert [ln[2:] for ln in block.splitlines() if ln.startswith("  info ")] == [i["line"] for i in move.analysis]
    last = CliRunner().invoke(main, ["show", str(sgf)], catch_exceptions=False).output
    assert last.rstrip("\n").splitlines()[-1] == "  " + record.moves[-1].analysis[-1]["line"]

    text = sgf.read_text(encoding="utf-8")
    first_xa = text.index("XA[")
    hostile = text[:first_xa] + "XA[info note \x1b\\]0;pwned\x07 x\nmore]" + text[text.index("]", first_xa) + 1:]
    forged = tmp_path / "forged.sgf"
    forged.write_text(hostile, encoding="utf-8")
    shown = CliRunner().invoke(main, ["show", str(forged), "--all"], catch_exceptions=False).output
    assert "\x1b" not in shown and "\x07" not in shown
    assert "  info note \\x1b]0;pwned\\x07 x\\x0amore" in shown        # one line, every control visible
