"""The engine kits against the C speed limit: Anda random playouts and legal actions through
the Rust API and the C ABI.

Run: ``python -m bench.bench_kits [--games N] [--samples N] [--sizes 7 9 11]`` (needs cargo
and cc). Builds core/examples/kit_bench.rs (the Rust kit) and the C library
(``--features capi``, in the target folder `kit` under core/target), compiles bench/kit_bench.c against it and
../shared/limit/anda_limit.c (``cc -std=c11 -O2 -march=native``) into a temporary folder,
then for each size one row:

* playout ms: CPU milliseconds of one uniformly random playout (Anda, balance ``nopie``,
  komi 0, from the empty board to the end or the ply cap 10 x sites) of the limit's bench
  mode, of the Rust kit (``Game::random_playout``) and of the C ABI (``hx_random_playout``,
  a game made and freed each time), each measured as its process's CPU time over GAMES
  playouts; the Rust and C ratios to the limit (the goal: C within 1.5x);
* legal us: median wall microseconds of one legal-actions call on positions drawn from
  playouts (0..39 random plies in): the Rust kit's ``legal_actions()`` (values) and the C
  ABI's ``hx_legal_actions`` (the tokens written into a buffer), and C's ratio to Rust. The
  limit has no legal-actions mode of its own.

Everything is measured in the same run, so the ratios compare on a loaded machine.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench.common import table

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core"
TARGET = CORE / "target" / "kit"
#: ../shared/limit/anda_limit.c from the checkout or any folder above it (a worktree sits deeper).
LIMIT_SOURCE = next((p / "shared" / "limit" / "anda_limit.c" for p in ROOT.parents
                     if (p / "shared" / "limit" / "anda_limit.c").is_file()), ROOT.parent / "shared" / "limit" / "anda_limit.c")


def build(folder: Path, limit: Path, built: Path | None = None) -> tuple[Path, Path, Path]:
    """(the limit, the Rust bench, the C bench) built; the C library and the Rust example by cargo;
    the limit not when `built` is it already."""
    env = {**os.environ, "CARGO_TARGET_DIR": str(TARGET)}
    for extra in (["--example", "kit_bench"], []):
        subprocess.run(["cargo", "build", "--release", "--quiet", "--features", "capi", *extra], cwd=CORE,
                       env=env, check=True)
    cc = shutil.which("cc") or "cc"
    exe = built or folder / "anda_limit"
    if built is None:
        subprocess.run([cc, "-std=c11", "-O2", "-march=native", "-o", str(exe), str(limit)], check=True)
    c_bench = folder / "kit_bench_c"
    subprocess.run([cc, "-O2", "-I", str(CORE / "include"), str(ROOT / "bench" / "kit_bench.c"),
                    str(TARGET / "release" / "libhexarena_core.a"), "-lpthread", "-ldl", "-lm", "-o", str(c_bench)],
                   check=True)
    return exe, TARGET / "release" / "examples" / "kit_bench", c_bench


def timed(argv: list[str]) -> tuple[float, str]:
    """(CPU seconds of the child process, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def field(out: str, name: str) -> float:
    found = re.search(rf"{name}=([0-9.na]+)", out)
    return float(found.group(1)) if found else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400, help="playouts per size and program")
    ap.add_argument("--samples", type=int, default=2000, help="legal-actions calls per size and kit")
    ap.add_argument("--sizes", type=int, nargs="+", default=[7, 9, 11])
    ap.add_argument("--limit", type=Path, default=LIMIT_SOURCE, help="anda_limit.c")
    ap.add_argument("--limit-built", type=Path, help="anda_limit already built from it (then not built here)")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        limit, rust, c = build(Path(tmp), args.limit, args.limit_built)
        for n in args.sizes:
            g = args.games
            limit_cpu, limit_out = timed([str(limit), "bench", str(n), str(g), "1"])
            rust_cpu, rust_out = timed([str(rust), str(n), str(g), "0"])
            c_cpu, c_out = timed([str(c), str(n), str(g), "0"])
            legal_rust = field(subprocess.run([str(rust), str(n), "1", str(args.samples)], capture_output=True,
                                              text=True, check=True).stdout, "legal_us")
            legal_c = field(subprocess.run([str(c), str(n), "1", str(args.samples)], capture_output=True,
                                           text=True, check=True).stdout, "legal_us")
            ms = [cpu / g * 1e3 for cpu in (limit_cpu, rust_cpu, c_cpu)]
            rows.append({
                "n": n, "plies limit/kit": f"{field(limit_out, 'mean_plies'):.1f}/{field(rust_out, 'plies'):.1f}",
                "limit ms": f"{ms[0]:.3f}", "rust ms": f"{ms[1]:.3f}", "c ms": f"{ms[2]:.3f}",
                "rust/limit": f"{ms[1] / ms[0]:.2f}x", "c/limit": f"{ms[2] / ms[0]:.2f}x",
                "legal us rust": f"{legal_rust:.1f}", "legal us c": f"{legal_c:.1f}",
                "c/rust legal": f"{legal_c / legal_rust:.2f}x",
            })
    print(table(rows))
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
