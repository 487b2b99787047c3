"""lab.fit_evaluation: the logistic fit, the per-phase table, and bad journals reported."""
from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from lab import fit_evaluation as F
from hexarena.engine.core import Colour
from hexarena.referee.game.openings import initial
from hexarena.results.record.game import GameRecord
from hexarena.results.record.moves import Move, moves_of_lists

ROOT = Path(__file__).resolve().parents[2]


def test_the_fit_recovers_a_known_logistic() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(0, 4, 20000)
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-(0.5 + x / 2.0)))).astype(float)
    a, b = F.fit(x, y)
    assert abs(a - 0.5) < 0.1 and abs(1 / b - 2.0) < 0.15


def random_record(game: str, size: int, seed: int) -> GameRecord:
    rng = random.Random(seed)
    state = initial(game, size, "pie")
    actions = []
    while state.outcome() is None and state.ply < 400:
        action = state.random_action(rng)
        actions.append(state.format(action))
        state = state.play(action)
    outcome = state.outcome()
    winner = None if outcome is None or outcome.winner is None else outcome.winner
    name = {Colour.BLACK: "a", Colour.WHITE: "b"}
    return GameRecord(id=f"g/{seed:04d}", game=game, size=size, variant="pie", first="a", second="b",
                      black="a", white="b", winner=None if winner is None else name[winner],
                      result="0" if winner is None else ("B+" if winner is Colour.BLACK else "W+"),
                      termination="ply-cap", plies=len(actions), moves=moves_of_lists(actions))


def test_black_score_and_positions_of_a_replayed_game() -> None:
    record = random_record("spelde", 5, 1)
    values = F.positions(record, F.evaluation_of(F.game_module("spelde"), False))
    assert len(values) == record.plies and values[0][0] == 0.0 and all(0 <= s < 1 for s, _ in values)
    assert F.black_score(record) == (1.0 if record.result.startswith("B") else 0.0)
    forfeit = replace(record, faulty="a")
    assert F.black_score(forfeit) is None


@pytest.mark.slow
def test_the_table_is_printed_and_bad_input_reported(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    lines = [random_record("spelde", 5, seed).to_json() for seed in range(12)]
    broken = random_record("spelde", 5, 99)
    broken = replace(broken, moves=broken.moves[:5] + (Move("zz99", None),) + broken.moves[6:])                                   # not a site: that game is skipped
    journal.write_text("\n".join(lines + [broken.to_json(), "{not json"]) + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "lab.fit_evaluation", str(tmp_path), "--phases", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "spelde: 12 games" in run.stdout
    assert "0.00-0.50" in run.stdout and "0.50-1.00" in run.stdout
    assert "game g/0099" in run.stderr and f"{journal}:14" in run.stderr
    missing = subprocess.run([sys.executable, "-m", "lab.fit_evaluation", str(tmp_path / "nope")],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "nope" in missing.stderr
