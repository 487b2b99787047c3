"""Spelde speed: random playouts at n=5, 6, 7, and the cost of the legal-site mask.

Run: ``python -m bench.bench_spelde [--games N]``. A playout starts from the
empty board (balance `nopie`, flips `literal`) and plays ``random_action``
(uniform site, then a uniform valid flip set per adjacent group) until the
player to move has no placement. Times are CPU time of this process (robust
on a shared machine); ratios are to ``bench.common.baseline_us()`` measured in
the same run. Goal: a playout at n=6 under 2 ms on 2 cores.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.common import baseline_us, fresh_copy, table
from hexarena.engine.games.spelde.state import RULES


def playout(n: int, rule: str, rng: random.Random) -> tuple[int, list]:
    state = RULES.new_game(RULES.variant(n, ["nopie", f"flips={rule}"]), 0)
    states = [state]
    while state.outcome() is None:
        state = state.play(state.random_action(rng))
        states.append(state)
    return state.ply, states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    base = baseline_us()
    rows = []
    for n, rule in ((5, "literal"), (6, "literal"), (7, "literal"), (6, "dense"), (6, "standard")):
        rng = random.Random(n)
        games = args.games if rule == "literal" else max(10, args.games // 10)
        t0 = time.process_time()
        plies, samples = [], []
        for _ in range(games):
            p, states = playout(n, rule, rng)
            plies.append(p)
            samples += rng.sample(states, min(3, len(states)))
        ms = (time.process_time() - t0) / games * 1e3
        mask_us = []
        for s in samples:
            fresh = fresh_copy(s)   # nothing cached
            t1 = time.perf_counter()
            fresh.legal_cells()
            mask_us.append((time.perf_counter() - t1) * 1e6)
        rows.append({"n": n, "flips": rule, "games": games, "plies/game": f"{statistics.mean(plies):.1f}",
                     "ms/playout": f"{ms:.2f}", "playouts/s": f"{1e3 / ms:.0f}",
                     "us/ply": f"{ms * 1e3 / statistics.mean(plies):.1f}",
                     "legal-site mask us (median)": f"{statistics.median(mask_us):.1f}",
                     "playout/baseline": f"{ms * 1e3 / base:.2f}"})
    print(f"baseline {base:.0f} us (bench.common reference workload)")
    print(table(rows))


if __name__ == "__main__":
    main()
