"""The referee's memory over a long run: RSS after 100 games and after N.

    python -m bench.bench_memory [--games N] [-j J]

Plays the soak tournament (bench/bench_soak.py: two instant random players,
Spelde n=6, Fischer 0.1 s + 0.01 s, engines kept) in this process, with the
live view's state (`referee.console.live.Progress`) fed as in a real run, and
reads this process's resident set size (/proc/self/status, VmRSS) as records
are journaled. Figures: RSS after 100 games, after N, and the growth per game
between the two (KB); goal: flat (the growth per game near 0, whatever N).
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.bench_soak import soak_config
from bench.common import table
from hexarena.referee.console.live import Progress, View
from hexarena.referee.tournament.run import run


def rss_kb() -> int:
    """This process's resident set size in KB."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


class Sampler(View):
    """The live view's state, plus the RSS after given numbers of finished games."""

    def __init__(self, at: set[int]):
        self.progress, self.at, self.samples = Progress(), at, {}

    def finished(self, record) -> None:
        super().finished(record)
        if self.progress.played_now in self.at:
            self.samples[self.progress.played_now] = rss_kb()


def measure(games: int, jobs: int, out: Path) -> tuple[dict[int, int], float]:
    sampler = Sampler({100, games})
    t0 = time.perf_counter()
    trio.run(lambda: run(soak_config(games), out, concurrency=jobs, observer=sampler))
    return sampler.samples, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_memory", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000, at least 200)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="workers (default: cores)")
    args = parser.parse_args(argv)
    if args.games < 200 or args.jobs < 1:
        parser.error("--games must be at least 200 and -j at least 1")
    with TemporaryDirectory() as tmp:
        samples, wall = measure(args.games, args.jobs, Path(tmp) / "soak")
    first, last = samples[100], samples[args.games]
    print(f"referee memory: {args.games} games of Spelde n=6, random vs random, -j {args.jobs}, {wall:.0f} s")
    print(table([{"after games": 100, "RSS MB": f"{first / 1024:.1f}", "growth KB/game": ""},
                 {"after games": args.games, "RSS MB": f"{last / 1024:.1f}",
                  "growth KB/game": f"{(last - first) / (args.games - 100):.2f}"}]))


if __name__ == "__main__":
    main()
