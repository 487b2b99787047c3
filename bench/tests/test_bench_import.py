"""Every bench script imports (they are run by hand, so a broken import would go unnoticed)."""
import importlib
from pathlib import Path

import pytest

import bench.common as common

BENCH = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCH.glob("bench_*.py")))
def test_bench_script_imports_and_has_a_main(name):
    module = importlib.import_module(f"bench.{name}")
    assert callable(getattr(module, "main", None)), f"bench/{name}.py has no main()"


def test_timing_helpers():
    calls = []
    assert common.best_of(lambda: calls.append(1), repeat=3, number=2) >= 0
    assert len(calls) == 6
    assert common.median_of(lambda: None, repeat=3) >= 0
    assert common.table([{"a": 1, "bb": "x"}]).splitlines() == ["a  bb", "1   x"]
