"""Referee throughput and overhead: two `python -m hexarena.players random` engines, Spelde n=6.

    python -m bench.bench_referee [GAMES]

Figures:
* actions/s      actions played per second of wall time (engines included).
* wall/action    wall time per action, engines and pipes included.
* start+stop/game  engine start-up, handshake and shutdown per game (two
                 Python processes: dominated by interpreter start-up).
* loop wall/action wall time per action inside the turn loop (from the
                 first action to the last, read through play_game's public
                 `on_ply`).
* ref CPU/action CPU time of the referee process per action over the same
                 span (rule checks, HGP encoding and parsing, trio
                 scheduling), plus rendering the SGF; engine start-up and
                 handshakes excluded.
* not-waiting    the same wall time minus the time spent waiting for engine
                 answers (the channels' `wait_seconds`), per action: the
                 referee's own latency.
Printed twice: with and without the pipe fast path (referee/engines/eager.py).
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
from hexarena.referee.game.clock import Limits
from hexarena.referee.tournament.config import player_cmd
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.engines.process import open_engine
from hexarena.referee.tournament.run import expand
from hexarena.results.record.sgf import sgf_text


async def bench(games: int, logdir: Path, eager: bool = True) -> dict[str, float]:
    totals = {"actions": 0, "wall": 0.0, "cpu": 0.0, "wait": 0.0, "loop": 0.0}
    channels = []

    @asynccontextmanager
    async def connect(name: str, seed: int):
        async with open_engine(expand(player_cmd("random"), seed), logdir / f"{name}.log", name,
                               eager=eager) as ch:
            channels.append(ch)
            yield ch

    marks: list[tuple[float, float, float]] = []

    def on_ply(plies: int, move: object) -> None:
        """(wall, CPU, engine wait) after each action: the turn loop seen from outside."""
        marks.append((time.perf_counter(), time.process_time(), sum(ch.wait_seconds for ch in channels[-2:])))

    for g in range(games):
        seats = (Seat("a", partial(connect, "a", 2 * g)), Seat("b", partial(connect, "b", 2 * g + 1)))
        marks.clear()
        w0 = time.perf_counter()
        record = await play_game(Setup("spelde", 6), seats, Limits(), on_ply, game_id=f"bench/{g}")
        c0 = time.process_time()
        sgf_text(record, 1003)
        totals["cpu"] += time.process_time() - c0
        totals["wall"] += time.perf_counter() - w0
        assert not record.void and record.faulty is None, record.reason
        (w1, c1, q1), (w2, c2, q2) = marks[0], marks[-1]
        totals["loop"] += w2 - w1
        totals["cpu"] += c2 - c1
        totals["wait"] += q2 - q1
        totals["actions"] += len(marks) - 1          # the intervals between the first action and the last
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
