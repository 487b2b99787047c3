"""The referee-overhead hook of bench/bench_soak.py (run(..., overhead=...)), with real engines."""
from __future__ import annotations

from bench import bench_soak


def test_overhead_hook_reports_once_per_engine_action(tmp_path):
    result = bench_soak.soak(2, 1, tmp_path / "soak")
    records = result["records"]
    assert len(records) == 2 and all(not r.void and r.faulty is None for r in records)
    assert len(result["overheads"]) == sum(r.plies for r in records)
    assert all(0 <= x < result["wall"] for x in result["overheads"])


def test_soak_report_prints_the_figures(tmp_path):
    result = bench_soak.soak(1, 1, tmp_path / "soak")
    text = bench_soak.report(1, 1, 500.0, bench_soak.pipe_trips(20), result)
    for figure in ("games/s", "actions/s", "time forfeits", "ref overhead/action p99", "raw pipe round trip p50"):
        assert figure in text
