"""Shared helpers of the bench scripts: timing and a machine-speed baseline.

Every bench prints absolute figures and, beside them, a ratio to
:func:`baseline_us`, a fixed pure-Python workload measured in the same run,
so that figures from different machines (or a loaded one) compare.
"""
from __future__ import annotations

import statistics
import time
import random
from collections.abc import Callable


def _rounds(fn: Callable[[], object], repeat: int, number: int) -> list[float]:
    """Seconds per call of fn, one figure per round of `number` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return times


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The best wall time in seconds of one call of fn, over `repeat` rounds of `number` calls."""
    return min(_rounds(fn, repeat, number))


def median_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The median wall time in seconds of one call of fn, over `repeat` rounds of `number` calls."""
    return statistics.median(_rounds(fn, repeat, number))


def _reference_workload() -> int:
    # A fixed mix of int arithmetic, dict and list work: about 1 ms of CPython.
    acc = 0
    d: dict[int, int] = {}
    for i in range(3000):
        acc = (acc * 31 + i) & 0xFFFFFFFF
        d[i & 255] = acc
    return acc + len(d)


def baseline_us() -> float:
    """Microseconds of the reference workload on this machine, now."""
    return best_of(_reference_workload, repeat=20) * 1e6


def table(rows: list[dict[str, object]]) -> str:
    """A plain fixed-width table of dict rows: the columns of every row in the order first seen,
    `-` where a row has none."""
    if not rows:
        return "(no rows)"
    cols = list(dict.fromkeys(c for r in rows for c in r))
    cells = [[str(r.get(c, "-")) for c in cols] for r in rows]
    widths = [max(len(c), *(len(x[i]) for x in cells)) for i, c in enumerate(cols)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(cols, widths))]
    lines += ["  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in cells]
    return "\n".join(lines)


def time_playouts(info, n: int, balance: str, games: int, seed: int,
                  choose: Callable | None = None) -> tuple[list[float], list[int], list]:
    """Random games of `info` (a GameInfo) from the initial state to the end or the ply cap.

    Returns the CPU seconds of each game, its ply count, and up to 5 sampled
    states per game. `choose(state, rng)` picks each action (default:
    ``state.random_action(rng)``).
    """
    rng = random.Random(seed)
    pick = choose or (lambda state, r: state.random_action(r))
    cap = info.ply_cap(n)
    times, plies, samples = [], [], []
    for _ in range(games):
        t0 = time.process_time()
        state = info.new_game(info.variant(n, [balance]), 0)
        states = [state]
        while state.outcome() is None and state.ply < cap:
            state = state.play(pick(state, rng))
            states.append(state)
        times.append(time.process_time() - t0)
        plies.append(state.ply)
        samples += rng.sample(states, min(5, len(states)))
    return times, plies, samples


def fresh_copy(state):
    """The same position as a new state with nothing cached (its variant object reused)."""
    pos = state.to_position()
    return state.info.from_position(state.variant, pos, state.info.read_keys(pos))
