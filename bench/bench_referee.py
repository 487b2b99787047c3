"""Referee throughput and overhead: two `python -m hexarena.players random` engines, Spelde n=6.

    python -m bench.bench_referee [GAMES]

Figures:
* actions/s      actions played per second of wall time (engines included).
* wall/action    wall time per action, engines and pipes included.
* start+stop/game  engine start-up, handshake and shutdown per game (two
                 Python processes: dominated by interpreter start-up).
* loop wall/action wall time per action inside the turn loop.
* ref CPU/action CPU time of the referee process per action (rule checks,
                 HGP encoding and parsing, trio scheduling, SGF rendering),
                 engine start-up and handshakes excluded: the referee's CPU
                 is sampled around the turn loop only.
* not-waiting    wall time in the turn loop minus the time spent waiting
                 for engine answers, per action (the referee's own latency).
Printed twice: with and without the pipe fast path (referee/eager.py).
Goal: ref CPU/action and not-waiting under 0.5 ms. Ratios are to
bench.common.baseline_us() measured in the same run.
"""
from __future__ import annotations

import sys
import time
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import baseline_us, table
from hexarena.referee import match as match_mod
from hexarena.referee.clock import Limits
from hexarena.referee.config import player_cmd
from hexarena.referee.match import Seat, Setup, play_game
from hexarena.referee.process import open_engine
from hexarena.referee.sgf import sgf_text
from hexarena.referee.tournament import expand


async def bench(games: int, logdir: Path, eager: bool = True) -> dict[str, float]:
    totals = {"actions": 0, "wall": 0.0, "cpu": 0.0, "wait": 0.0, "loop": 0.0}
    channels = []

    @asynccontextmanager
    async def connect(name: str, seed: int):
        async with open_engine(expand(player_cmd("random"), seed), logdir / f"{name}.log", name,
                               eager=eager) as ch:
            channels.append(ch)
            yield ch

    real_turns = match_mod._turns

    async def timed_turns(*args):
        """The turn loop alone: CPU and wall time, and the engine wait inside it."""
        waited0 = sum(ch.wait_seconds for ch in channels[-2:])
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            return await real_turns(*args)
        finally:
            totals["cpu"] += time.process_time() - c0
            totals["loop"] += time.perf_counter() - w0
            totals["wait"] += sum(ch.wait_seconds for ch in channels[-2:]) - waited0

    match_mod._turns = timed_turns
    try:
        for g in range(games):
            seats = (Seat("a", partial(connect, "a", 2 * g)), Seat("b", partial(connect, "b", 2 * g + 1)))
            w0 = time.perf_counter()
            report = await play_game(Setup("spelde", 6), seats, Limits())
            c0 = time.process_time()
            sgf_text(report, f"bench/{g}")
            totals["cpu"] += time.process_time() - c0
            totals["wall"] += time.perf_counter() - w0
            assert report.outcome is not None, report.reason
            totals["actions"] += len(report.actions)
    finally:
        match_mod._turns = real_turns
    return totals


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    base = baseline_us()
    for eager in (True, False):
        with TemporaryDirectory() as tmp:
            report(games, base, eager, trio.run(bench, games, Path(tmp), eager))


def report(games: int, base: float, eager: bool, t: dict[str, float]) -> None:
    n = t["actions"]
    rows = [
        {"figure": "actions/s", "value": f"{n / t['wall']:.0f}", "unit": "1/s", "x baseline": ""},
        {"figure": "wall/action", "value": f"{t['wall'] / n * 1e3:.3f}", "unit": "ms",
         "x baseline": f"{t['wall'] / n * 1e6 / base:.2f}"},
        {"figure": "start+stop/game", "value": f"{(t['wall'] - t['loop']) / games * 1e3:.0f}", "unit": "ms",
         "x baseline": f"{(t['wall'] - t['loop']) / games * 1e6 / base:.0f}"},
        {"figure": "loop wall/action", "value": f"{t['loop'] / n * 1e3:.3f}", "unit": "ms",
         "x baseline": f"{t['loop'] / n * 1e6 / base:.2f}"},
        {"figure": "ref CPU/action", "value": f"{t['cpu'] / n * 1e3:.3f}", "unit": "ms",
         "x baseline": f"{t['cpu'] / n * 1e6 / base:.2f}"},
        {"figure": "not-waiting/action", "value": f"{(t['loop'] - t['wait']) / n * 1e3:.3f}", "unit": "ms",
         "x baseline": f"{(t['loop'] - t['wait']) / n * 1e6 / base:.2f}"},
    ]
    print(f"referee ({'with' if eager else 'without'} the pipe fast path): {games} games of Spelde n=6, "
          f"random vs random, {n} actions; baseline {base:.0f} us")
    print(table(rows))


if __name__ == "__main__":
    main()
