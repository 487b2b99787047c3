"""Anda-prison speed: random playouts at n=7, 9, 11 and the cost of one placement.

Run: ``python -m bench.bench_anda_prison [--games N]``. A playout starts from the
initial state of the variant and plays ``random_action`` until the game ends or the
referee's ply cap. Under `random_action` a proposal is one choice among the legal
placements and is accepted half of the time, so most playouts end by agreement;
the rows marked "no proposals" redraw every `propose` and so play on until a
player has no placement and no release (the longest games random play makes).
"check+apply" is the median time of one ``play(Place(site))`` on a random empty site
of positions sampled from playouts (legal or refused, nothing cached but the
position's layout, which a played state carries). "pair" is the time per legal
pair of listing White's first-turn pairs at n=9 (the pie's largest action list).
Times are CPU time of this process (``time.process_time``); ratios are to
``bench.common.baseline_us()`` measured in the same run. Goal: a random
playout at n=9 under 80 ms on a 2-core machine.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.common import baseline_us, fresh_copy, table, time_playouts
from hexarena.engine.actions import Place, Propose
from hexarena.engine.games.anda_prison.state import RULES
from hexarena.engine.errors import IllegalMove
from hexarena.engine.geometry import iter_bits


def no_proposal(state, rng: random.Random):
    """A random action other than `propose` (games that end with no moves)."""
    action = state.random_action(rng)
    while isinstance(action, Propose):
        action = state.random_action(rng)
    return action


def check_apply_us(samples: list, seed: int) -> float:
    """Median microseconds of one placement attempt on a fresh copy of a sampled state."""
    rng = random.Random(seed)
    cost = []
    for state in samples:
        if not state.normal or state.outcome() is not None:
            continue
        empty = list(iter_bits(state.board.mask & ~(state.black | state.white)))
        for site in rng.sample(empty, min(10, len(empty))):
            fresh = fresh_copy(state)
            fresh.analysis()
            t0 = time.process_time()
            try:
                fresh.play(Place(site))
            except IllegalMove:
                pass
            cost.append(time.process_time() - t0)
    return statistics.median(cost) * 1e6


def pair_us() -> float:
    """Microseconds per legal pair of listing White's first-turn pairs at n=9 (Black: c3, n12)."""
    state = RULES.new_game(RULES.variant(9), 0)
    state = state.play(state.parse("c3,n12"))
    t0 = time.process_time()
    count = sum(1 for _ in state.legal_actions())
    return (time.process_time() - t0) / count * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="playouts per row")
    args = ap.parse_args()
    base = baseline_us()
    rows = []
    plan = [(n, "pie", True) for n in (7, 9, 11)] + [(9, "nopie", True), (9, "nopie", False), (11, "nopie", False)]
    for n, balance, propose in plan:
        times, plies, samples = time_playouts(RULES, n, balance, args.games, seed=n,
                                              choose=None if propose else no_proposal)
        ms = statistics.median(times) * 1e3
        mean_ms = statistics.fmean(times) * 1e3
        check = check_apply_us(samples, seed=n)
        rows.append({
            "n": n, "balance": balance + ("" if propose else " no proposals"), "games": args.games,
            "plies/game": f"{statistics.fmean(plies):.0f}",
            "ms/playout (median)": f"{ms:.1f}", "ms/playout (mean)": f"{mean_ms:.1f}",
            "us/ply": f"{sum(times) / sum(plies) * 1e6:.0f}",
            "check+apply us": f"{check:.1f}",
            "playout/baseline": f"{mean_ms * 1e3 / base:.1f}",
            "check/baseline": f"{check / base:.3f}",
        })
    pair = pair_us()
    print(f"baseline: {base:.0f} us")
    print(table(rows))
    print(f"listing first-turn pairs, n=9: {pair:.1f} us per pair ({pair / base:.3f} x baseline)")


if __name__ == "__main__":
    main()
