"""bench/bench_players.py against the C kit's engine, at a tiny size: every row measured, the C row
the ratios' unit (the smoke run in test_bench_smoke.py leaves the C engine out)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_players_measures_the_python_players_and_the_c_engine(tmp_path):
    if shutil.which("cargo") is None or shutil.which("cc") is None:
        pytest.skip("the C kit's engine needs cargo and cc")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "bench.bench_players", "--games", "2", "--rounds", "1",
                           "--starts", "1", "--only", "anda", "--players", "random,greedy"],
                          cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    rows = {line.split()[2]: line.split() for line in proc.stdout.splitlines() if line.lstrip().startswith("anda n=9")}
    assert sorted(rows) == ["c-kit", "greedy", "random"], proc.stdout
    for words in rows.values():
        moves, start_ms, per_move = int(words[3]), float(words[4]), float(words[6])
        assert moves > 0 and start_ms > 0 and per_move > 0, words
    assert rows["c-kit"][5] == "1" and rows["c-kit"][8] == "1.0"        # the C engine is the unit of the ratios
