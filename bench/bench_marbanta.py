"""Marbanta speed: random playouts per second and the time to enumerate every complete turn.

Run: ``python -m bench.bench_marbanta``. A playout starts from the empty
board (pie phase included) and plays ``random_action`` until the game ends.
Enumeration positions are taken from seeded random games at given plies.
"""
from __future__ import annotations

import argparse
import random

from bench.common import baseline_us, best_of, fresh_copy, table
from hexarena.engine.games.marbanta.state import RULES, MarbantaState

PLAYOUTS = {7: 40, 9: 30, 11: 20}


def playout(n: int, seed: int) -> MarbantaState:
    rng = random.Random(seed)
    state = RULES.new_game(RULES.variant(n), 0)
    while state.outcome() is None:
        state = state.play(state.random_action(rng))
    return state


def position_at(n: int, seed: int, ply: int) -> MarbantaState:
    rng = random.Random(seed)
    state = RULES.new_game(RULES.variant(n), 0)
    while state.ply < ply and state.outcome() is None:
        state = state.play(state.random_action(rng))
    return state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=float, default=1.0,
                        help="a factor on the playouts per size (default 1: 40, 30, 20)")
    args = parser.parse_args(argv)
    base = baseline_us()
    rows = []
    for n, full in PLAYOUTS.items():
        count = max(1, round(full * args.playouts))
        plies = [playout(n, seed).ply for seed in range(count)]
        # each seed's playout is deterministic: best of 3 runs, to shed other processes' load
        sec = sum(best_of(lambda: playout(n, seed), repeat=3) for seed in range(count)) / count
        rows.append({"n": n, "playouts": count, "plies/game": f"{sum(plies) / len(plies):.1f}",
                     "ms/playout": f"{sec * 1e3:.2f}", "playouts/s": f"{1 / sec:.0f}",
                     "x baseline": f"{sec * 1e6 / base:.2f}"})
    print(f"random playouts from the empty board, best of 3 per seed (baseline {base:.0f} us)")
    print(table(rows))
    rows = []
    for n, seed, ply in ((9, 1, 10), (9, 1, 30), (9, 2, 50), (11, 3, 40)):
        state = position_at(n, seed, ply)
        # fresh states each round: the legal roots are memoised on a state
        turns = sum(1 for _ in state.legal_actions())

        def enumerate_all() -> None:
            fresh = fresh_copy(state)
            for _ in fresh.legal_actions():
                pass

        sec = best_of(enumerate_all, repeat=5)
        rows.append({"n": n, "ply": state.ply, "turns": turns, "roots": state.legal_cells().bit_count(),
                     "ms": f"{sec * 1e3:.2f}", "us/turn": f"{sec * 1e6 / max(turns, 1):.2f}",
                     "x baseline": f"{sec * 1e6 / base:.2f}"})
    print()
    print("enumerate every complete turn (legal_actions)")
    print(table(rows))


if __name__ == "__main__":
    main()
