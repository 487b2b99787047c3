"""A tournament's fixed cost as the CPU of the runner's main thread, a figure that holds on a busy machine.

    python -m bench.bench_fixed_cost [--games N] [--rounds R]

Runs `hexarena tournament CONFIG --out DIR -j J -q` (bench_runner's set-up:
two kept `random` players, Spelde n=6, the pre-flight) in a fresh interpreter
R times at `-j 1` and `-j 2`, and prints the CPU of the runner's main thread
(``time.thread_time``) from the interpreter's start to the first game's
start (the live view hears it), and from the last game's record to the
process's exit (atexit), with the process's whole CPU. On a quiet machine
these are close to the wall-clock fixed cost less the waits (engines and
worker processes starting, which overlap); bench_runner measures the wall
clock itself. hexarena's modules are compiled to bytecode first (see
bench_runner).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bench_runner import hexarena_config
from tests.support.bytecode import compile_package

DRIVER = r'''
import atexit, sys, time
marks = {}
import hexarena.referee.console.live as live
started, finished = live.Progress.started, live.Progress.finished
def on_start(self, game):
    marks.setdefault("first", time.thread_time())
    return started(self, game)
def on_finish(self, record):
    marks["last"] = time.thread_time()
    return finished(self, record)
live.Progress.started, live.Progress.finished = on_start, on_finish
atexit.register(lambda: sys.stderr.write(
    f"\nphases {marks['first']:.4f} {time.thread_time() - marks['last']:.4f} {time.process_time():.4f}\n"))
sys.argv = ["hexarena", "tournament", *sys.argv[1:]]
from hexarena.cli import main
main()
'''


def one(config: Path, out: Path, jobs: int) -> tuple[float, float, float]:
    done = subprocess.run([sys.executable, "-c", DRIVER, str(config), "--out", str(out), "-j", str(jobs), "-q"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    line = [x for x in done.stderr.splitlines() if x.startswith("phases ")]
    if done.returncode != 0 or not line:
        raise SystemExit(f"the run exited {done.returncode}:\n{done.stderr}")
    first, last, cpu = (float(x) for x in line[-1].split()[1:])
    return first, last, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_fixed_cost", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per run (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="runs per -j (default 3)")
    args = parser.parse_args(argv)
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "t.toml"
        config.write_text(hexarena_config("spelde", 6, args.games), encoding="utf-8")
        for jobs in (1, 2):
            runs = [one(config, Path(tmp) / f"j{jobs}-{r}", jobs) for r in range(args.rounds)]
            first, last, cpu = (statistics.median(x) for x in zip(*runs))
            print(f"-j {jobs}: main-thread CPU, start to first game {first:.3f} s, last record to exit {last:.3f} s; "
                  f"process CPU {cpu:.2f} s ({args.games} games; medians of {args.rounds})")
    load = os.getloadavg()
    print(f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the end")


if __name__ == "__main__":
    main()
