"""Anda speed: random playouts per second at n=7, 9, 11 and the cost of one placement.

Run: ``python -m bench.bench_anda [--games N]``. A playout starts from the initial
state of the variant and plays ``random_action`` (uniform over the legal actions,
the komi offer included under the pie) until the game ends or the referee's ply
cap. "check+apply" is the median time of one ``play(Place(site))`` on a random
empty site of positions sampled from playouts (legal or refused, nothing cached).
Playout times are CPU time of this process (``time.process_time``), so that other
jobs on a shared machine do not inflate them; check+apply is a median of wall times; ratios are to ``bench.common.baseline_us()``
(best wall time of a fixed workload) measured in the same run.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.common import baseline_us, fresh_copy, table, time_playouts
from hexarena.engine.actions import Place
from hexarena.engine.games.anda.state import RULES
from hexarena.engine.errors import IllegalMove
from hexarena.engine.geometry import iter_bits


def check_apply_us(samples: list, seed: int) -> float:
    """Median wall microseconds (the median shrugs off other jobs) of one placement attempt."""
    rng = random.Random(seed)
    cost = []
    for state in samples:
        if state.phase != "play" or state.first or state.outcome() is not None:
            continue
        empty = list(iter_bits(state.board.mask & ~(state.black | state.white)))
        for site in rng.sample(empty, min(10, len(empty))):
            fresh = fresh_copy(state)
            fresh._analysis()                       # the analysis a played state carries
            t0 = time.perf_counter()
            try:
                fresh.play(Place(site))
            except IllegalMove:
                pass
            cost.append(time.perf_counter() - t0)
    return statistics.median(cost) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30, help="playouts per size and balance")
    args = ap.parse_args()
    base = baseline_us()
    rows = []
    for n in (7, 9, 11):
        for balance in ("pie", "nopie"):
            times, plies, samples = time_playouts(RULES, n, balance, args.games, seed=n)
            ms = statistics.median(times) * 1e3
            mean_ms = statistics.fmean(times) * 1e3
            us_ply = sum(times) / sum(plies) * 1e6
            check = check_apply_us(samples, seed=n)
            rows.append({
                "n": n, "balance": balance, "games": args.games,
                "plies/game": f"{statistics.fmean(plies):.0f}",
                "ms/playout (median)": f"{ms:.1f}", "ms/playout (mean)": f"{mean_ms:.1f}",
                "playouts/s": f"{1e3 / mean_ms:.1f}", "us/ply": f"{us_ply:.0f}",
                "check+apply us": f"{check:.1f}",
                "playout/baseline": f"{mean_ms * 1e3 / base:.1f}",
                "check/baseline": f"{check / base:.3f}",
            })
    print(f"baseline: {base:.0f} us")
    print(table(rows))


if __name__ == "__main__":
    main()
