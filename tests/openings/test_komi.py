"""`hexarena openings komi` finds the komi of a game made lopsided on purpose (tests/support/komi_toy.py:
the first seat scores one half exactly at komi 5.5) inside its interval; and the fit alone."""
from __future__ import annotations

import math
import random
import shlex
import sys

import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.results.komi import fit, next_komi

FAIR, SCALE = 5.5, 1.5


@pytest.mark.slow
def test_the_search_finds_the_toys_fair_komi_within_its_interval(tmp_path):
    engine = shlex.join([sys.executable, "-m", "tests.support.komi_toy", str(FAIR), str(SCALE), "{seed}"])
    result = CliRunner().invoke(main, ["openings", "komi", "--game", "anda", "--size", "5", "--variant", "nopie",
                                       "--engine", engine, "--batch", "16", "--rounds", "8",
                                       "--work", str(tmp_path / "w")])
    assert result.exit_code == 0, result.output
    line = next(t for t in result.output.splitlines() if t.startswith("fair komi"))
    fair = float(line.split()[2])
    words = line.split("interval ")[1].split()
    low, high = float(words[0]), float(words[2].rstrip(");"))
    assert low <= FAIR <= high and low <= fair <= high
    assert high - low < 4                              # the games narrowed it down
    rounds = sorted(p.name for p in (tmp_path / "w").iterdir())
    assert len(rounds) == 8 and all(p.startswith("round-") for p in rounds)


def test_fit_recovers_a_known_curve_and_says_when_it_cannot():
    rng = random.Random(3)
    results = {}
    for k in range(0, 13, 2):
        wins = sum(rng.random() < 1 / (1 + math.exp((k - FAIR) / SCALE)) for _ in range(200))
        results[k] = (200, float(wins))
    f = fit(results)
    assert f is not None and f.interval is not None
    assert f.interval[0] < FAIR < f.interval[1] and abs(f.fair - FAIR) < 0.5
    assert abs(f.score(f.fair) - 0.5) < 1e-9
    assert fit({3: (10, 5.0)}) is None                                  # one komi: no curve
    flat = fit({0: (10, 5.0), 10: (10, 5.0)})
    assert flat is not None and flat.interval is None                   # no slope: no interval


def test_next_komi_brackets_then_closes_in():
    assert next_komi({}, 3, 2, 61) == 3
    assert next_komi({0: (8, 8.0)}, 0, 2, 61) == 2                      # first seat too strong: more komi
    assert next_komi({0: (8, 8.0), 2: (8, 7.0)}, 0, 2, 61) == 6        # the step doubles
    assert next_komi({4: (8, 1.0)}, 4, 2, 61) == 2                      # too weak: less komi
    assert next_komi({0: (8, 0.0)}, 0, 2, 61) == 0                      # never below zero
    k = next_komi({0: (8, 7.0), 10: (8, 1.0)}, 0, 2, 61)
    assert 3 <= k <= 7
