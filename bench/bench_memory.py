"""The referee's memory over a long run: RSS after 100 games, after N/2 and after N.

    python -m bench.bench_memory [--games N] [-j J] [--workers P]

Plays the soak tournament (bench/bench_soak.py: two instant random players,
Spelde n=6, Fischer 0.1 s + 0.01 s, engines kept) with the live view's state
(`referee.console.live.Progress`) fed as in a real run, its J slots in this
process (`--workers 0`, the default) or in P worker processes, and reads the
resident set size (/proc/PID/status, VmRSS) of this process (the runner) and
of each worker process as records are journaled. Figures: RSS after 100
games, after N/2 and after N, the growth per game from 100 to N and over the
second half alone (KB; the first hundreds of games fill bounded caches, such
as the decoded tokens of notation.parse_action); goal: flat (the second
half's growth near 0, whatever N).
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
from hexarena.referee.tournament.workers import ENTRY


def rss_kb(pid: int | str = "self") -> int:
    """A process's resident set size in KB (this process's by default)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS in /proc/{pid}/status")


def worker_pids() -> list[int]:
    """This process's worker processes (``python -m hexarena.worker``), by pid."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except (OSError, IndexError, ValueError):      # gone meanwhile
            continue
        if ppid == me and ENTRY.encode() in argv:
            found.append(int(entry))
    return sorted(found)


class Sampler(View):
    """The live view's state, plus the runner's and the workers' RSS after given numbers of
    finished games: `samples[n]` = (runner KB, [each worker's KB])."""

    def __init__(self, at: set[int]):
        self.progress, self.at = Progress(), at
        self.samples: dict[int, tuple[int, list[int]]] = {}

    def finished(self, record) -> None:
        super().finished(record)
        if self.progress.played_now in self.at:
            self.samples[self.progress.played_now] = (rss_kb(), [rss_kb(pid) for pid in worker_pids()])


def measure(games: int, jobs: int, workers: int, out: Path) -> tuple[dict[int, tuple[int, list[int]]], float]:
    sampler = Sampler({100, games // 2, games})
    t0 = time.perf_counter()
    trio.run(lambda: run(soak_config(games), out, concurrency=jobs, observer=sampler, workers=workers))
    return sampler.samples, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_memory", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000, at least 200)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="games at once (default: cores)")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (default 0: the games in this process)")
    args = parser.parse_args(argv)
    if args.games < 200 or args.jobs < 1 or args.workers < 0:
        parser.error("--games must be at least 200, -j at least 1 and --workers at least 0")
    with TemporaryDirectory() as tmp:
        samples, wall = measure(args.games, args.jobs, args.workers, Path(tmp) / "soak")
    where = f"{args.workers} worker processes" if args.workers else "in this process"
    print(f"referee memory: {args.games} games of Spelde n=6, random vs random, -j {args.jobs} {where}, {wall:.0f} s")
    half = args.games // 2
    (runner0, workers0), (runner_h, workers_h), (runner1, workers1) = samples[100], samples[half], samples[args.games]
    rows = [("runner", runner0, runner_h, runner1)] + [(f"worker {i}", a, h, b) for i, (a, h, b) in
                                                       enumerate(zip(workers0, workers_h, workers1), 1)]
    print(table([{"process": name, "RSS MB after 100": f"{a / 1024:.1f}", f"after {half}": f"{h / 1024:.1f}",
                  f"after {args.games}": f"{b / 1024:.1f}",
                  "growth KB/game": f"{(b - a) / (args.games - 100):.2f}",
                  "second half": f"{(b - h) / (args.games - half):.2f}"} for name, a, h, b in rows]))

if __name__ == "__main__":
    main()
