"""Vaxandis speed: microseconds per random ply, and the cost of generating every legal action.

Run: ``python -m bench.bench_vaxandis``. Games are long (random play runs
thousands of plies), so random play is measured per ply: seeded games from
the empty board (pie included) until the game ends or a ply limit (the
referee's cap, then a long run where stacks are tall and the board full).
Enumeration positions come from seeded random games at given plies; each
round times a fresh state (no memo) so nothing is cached between rounds.
`cpu` columns are process CPU time, which a machine shared with other jobs
inflates less than wall time.
"""
from __future__ import annotations

import argparse
import random
import time

from bench.common import baseline_us, best_of, table
from hexarena.engine.games.vaxandis.state import RULES, VaxandisState

#: (side, plies per game, games): the referee's caps, then long runs.
RUNS = ((4, 300, 8), (5, 500, 8), (6, 800, 6), (5, 3000, 3))


def random_game(n: int, seed: int, limit: int) -> VaxandisState:
    rng = random.Random(seed)
    state = RULES.new_game(RULES.variant(n), 0)
    while state.ply < limit and state.outcome() is None:
        state = state.play(state.random_action(rng))
    return state


def fresh(state: VaxandisState) -> VaxandisState:
    return VaxandisState(state.variant, state.to_move, state.ply, state.black, state.white,
                         state.levels, state.phase)


def cpu_best(fn, repeat: int = 3) -> float:
    """The best CPU time (this process only, so less sensitive to a loaded machine) of fn, seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=1.0,
                        help="a factor on each row's games (default 1: 8, 8, 6, 3)")
    args = parser.parse_args(argv)
    base = baseline_us()
    rows = []
    for n, limit, full in RUNS:
        games = max(1, round(full * args.games))
        plies = [random_game(n, seed, limit).ply for seed in range(games)]
        # each seed's game is deterministic: best of 3 runs, to shed other processes' load
        sec = sum(best_of(lambda: random_game(n, seed, limit), repeat=3) for seed in range(games))
        cpu = sum(cpu_best(lambda: random_game(n, seed, limit)) for seed in range(games))
        us = sec * 1e6 / sum(plies)
        cpu_us = cpu * 1e6 / sum(plies)
        rows.append({"n": n, "ply limit": limit, "games": games, "plies": sum(plies),
                     "us/ply": f"{us:.1f}", "cpu us/ply": f"{cpu_us:.1f}", "plies/s": f"{1e6 / us:.0f}",
                     "x baseline": f"{us / base:.3f}", "cpu x baseline": f"{cpu_us / base:.3f}"})
    print(f"random play (outcome + random_action + play), best of 3 per game (baseline {base:.0f} us)")
    print(table(rows))
    rows = []
    for n, seed, ply in ((5, 0, 20), (5, 0, 100), (5, 1, 500), (5, 2, 1500), (5, 3, 3000), (6, 0, 800)):
        state = random_game(n, seed, ply)
        actions = sum(1 for _ in state.legal_actions())

        def enumerate_all() -> None:
            for _ in fresh(state).legal_actions():
                pass

        def count_only() -> None:
            s = fresh(state)
            s.legal_cells()
            s.targets()

        sec = best_of(enumerate_all, repeat=5, number=20)
        gen = best_of(count_only, repeat=5, number=20)
        stacks = (state.black | state.white).bit_count()
        rows.append({"n": n, "ply": state.ply, "stacks": stacks, "max h": state.levels[-1][0] if state.levels else 0,
                     "actions": actions, "targets us": f"{gen * 1e6:.1f}", "legal_actions us": f"{sec * 1e6:.1f}",
                     "us/action": f"{sec * 1e6 / max(actions, 1):.2f}", "x baseline": f"{sec * 1e6 / base:.3f}"})
    print()
    print("generate every legal action of a fresh state (targets: the move bitboards only)")
    print(table(rows))


if __name__ == "__main__":
    main()
