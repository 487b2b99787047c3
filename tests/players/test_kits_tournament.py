"""The three kits' example engines of one game (Python examples/spelde_engine.py, Rust and C
core/examples/hgp_engine.*) and the built-in `random` in one round-robin tournament, run by
`hexarena tournament` in real processes: it runs to its end and no game is forfeited or void."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import kits

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(kits.tools_missing() is not None, reason=str(kits.tools_missing()))
def test_the_example_engines_play_a_tournament_to_its_end(tmp_path: Path) -> None:
    engines = {"python": [sys.executable, str(ROOT / "examples" / "spelde_engine.py")],
               "rust": [str(kits.rust_engine())], "c": [str(kits.c_engine(tmp_path))]}
    config = ["seed = 5", 'pairing = "round-robin"', "games_per_pair = 1", "[time]", "move = 20"]
    for name, cmd in engines.items():
        config += [f"[engines.{name}]", f"cmd = {json.dumps(cmd)}"]
    config += ["[engines.random]", 'player = "random"', "[[games]]", 'game = "spelde"', "sizes = [4]"]
    (tmp_path / "kits.toml").write_text("\n".join(config) + "\n")
    run = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(tmp_path / "kits.toml"),
                          "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    records = [json.loads(line) for line in (tmp_path / "out" / "journal.jsonl").read_text().splitlines()]
    pairs = {frozenset((r["first"], r["second"])) for r in records}
    assert len(pairs) == 6, pairs                           # every pair of the four met
    for r in records:
        assert r.get("forfeit") is None and r["termination"] in ("no-moves", "ply-cap"), r
