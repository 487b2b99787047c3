"""Every bench script runs to its end at a tiny size, so that a bench cannot rot unseen.

Each runs as a process of its own, as a person runs it (`python -m bench.<script> ARGS`), and must exit 0
and print its table. The figures of such a run mean nothing: the sizes are the smallest that pass
through every row. A bench script without a line in SMOKE fails the first test.
"""
from __future__ import annotations

import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1]
ROOT = BENCH.parent

#: The arguments of each bench script's smoke run.
SMOKE: dict[str, list[str]] = {
    "bench_ab": ["--against", sys.executable, "--games", "4", "--pairs", "1"],
    "bench_adjudication": ["--games", "2", "--player", "mcts:20", "-j", "1"],
    "bench_analysis": ["--games", "2", "--rounds", "1", "-j", "1"],
    "bench_anda": ["--games", "1"],
    "bench_anda_prison": ["--games", "1"],
    "bench_clock_safety": ["--games", "1", "-j", "2", "--only", "spelde"],
    "bench_cluster": ["2", "1"],
    "bench_controller": ["20"],
    "bench_core": ["--games", "1", "--python-games", "1", "--sizes", "5"],
    "bench_core_strength": ["--games", "2", "--seconds", "0.02", "--only", "spelde"],
    "bench_faults": ["--repeat", "1"],
    "bench_fixed_cost": ["--games", "2", "--rounds", "1"],
    "bench_floor": ["--games", "5", "--engine", "random"],
    "bench_hostile_pv": ["--answers", "1"],
    "bench_kits": ["--games", "2", "--samples", "10", "--sizes", "7"],
    "bench_ladder": ["--bridges", "2", "--seconds", "1", "--flight", "2", "--move", "0.2", "--sample", "1"],
    "bench_marbanta": ["--playouts", "0.05"],
    "bench_mcts": ["--games", "1", "--seconds", "0.02", "--speed", "0.05", "--skip-strength"],
    "bench_memory": ["--games", "200", "-j", "2"],
    "bench_move_profile": ["--games", "2", "-j", "2", "--rate", "200"],
    "bench_openings": ["200"],
    "bench_players": ["--games", "1", "--rounds", "1", "--starts", "1", "--only", "spelde", "--no-c-kit", "--tournament", "2"],
    "bench_rating_coverage": ["--runs", "2"],
    "bench_ratings": ["--players", "4", "--games", "40"],
    "bench_reading": ["--games", "300"],
    "bench_referee": ["2"],
    "bench_replay_check": ["1"],
    "bench_report": ["20"],
    "bench_runner": ["--games", "4", "--rounds", "2", "--beyond"],
    "bench_serve": ["--games", "4", "--rounds", "1", "--updates", "10", "-j", "1"],
    "bench_soak": ["--games", "10", "-j", "2"],
    "bench_spelde": ["--games", "10"],
    "bench_spin": ["--rounds", "1", "--commands", "20"],
    "bench_startup": ["1"],
    "bench_step": ["--plies", "100", "--sizes", "5"],
    "bench_vaxandis": ["--games", "0.1"],
}
#: The arguments that leave out a bench's part in a real browser, for a machine without one (the
#: browser tests skip there: tests/browser).
BROWSER_PART: dict[str, list[str]] = {"bench_serve": ["--updates", "0"]}
#: Why that part is left out (bench/tests imports no tests.support: the browser and its driver are
#: looked for as tests/support/chromium.py looks for them).
NO_BROWSER = ("no headless browser: install Debian's chromium and chromium-driver "
              "(apt-get install chromium chromium-driver), as .ci/run does")


def browser_missing() -> bool:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    return browser is None or shutil.which("chromedriver") is None or importlib.util.find_spec("selenium") is None


#: The benches that build the C limit (../shared/limit/anda_limit.c, some seconds of -O2 each), and
#: their option that takes it built: the smoke runs share one build.
LIMIT_BUILT = {"bench_core": "--limit-built", "bench_kits": "--limit-built", "bench_step": "--anda-limit-built"}


@pytest.fixture(scope="session")
def anda_limit(tmp_path_factory) -> Path | None:
    """anda_limit built once for the session (its xdist workers share it), as bench_core and
    bench_kits build it; None without its source or gcc (each bench then does as it does alone)."""
    source = next((p / "shared" / "limit" / "anda_limit.c" for p in ROOT.parents
                   if (p / "shared" / "limit" / "anda_limit.c").is_file()), None)
    gcc = shutil.which("gcc")
    if source is None or gcc is None:
        return None
    folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = folder.parent                               # the run's folder, above each worker's
    exe = folder / "anda_limit"
    with open(folder / "anda_limit.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not exe.is_file():
            subprocess.run([gcc, "-std=c11", "-O2", "-march=native", "-o", f"{exe}.tmp", str(source)], check=True)
            os.replace(f"{exe}.tmp", exe)
    return exe


def test_every_bench_has_a_smoke_run():
    scripts = sorted(p.stem for p in BENCH.glob("bench_*.py"))
    assert sorted(SMOKE) == scripts


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMOKE))
def test_bench_runs_at_a_tiny_size(name, tmp_path, request):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    without_browser = name in BROWSER_PART and browser_missing()
    args = [*SMOKE[name], *(BROWSER_PART[name] if without_browser else [])]      # the last of an option wins
    if name in LIMIT_BUILT and (limit := request.getfixturevalue("anda_limit")) is not None:
        args += [LIMIT_BUILT[name], str(limit)]
    proc = subprocess.run([sys.executable, "-m", f"bench.{name}", *args], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"bench.{name} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    assert len(proc.stdout.strip().splitlines()) >= 2, f"bench.{name} printed no table:\n{proc.stdout}"
    if without_browser:
        pytest.skip(f"bench.{name}'s part in a browser: {NO_BROWSER}")


@pytest.mark.slow
def test_bench_runner_plays_a_compiled_engine(tmp_path):
    if shutil.which("cargo") is None or shutil.which("cc") is None:
        pytest.skip("the C kit's engine needs cargo and cc")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    keep = tmp_path / "runs"
    proc = subprocess.run([sys.executable, "-m", "bench.bench_runner", "--games", "2", "--engine", "c-kit",
                           "--keep", str(keep)],
                          cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "void" not in proc.stdout, proc.stdout
    journals = sorted(keep.glob("*/journal.jsonl"))
    assert len(journals) == 4                    # two games, two -j
    for journal in journals:                     # the C engine named itself in every game
        assert journal.read_text().count('"identities": [["kit-random-c"') == 2, journal
