"""This checkout's runner against another's, run for run: what a change did to the CPU of a move.

    python -m bench.bench_ab --against PYTHON [--games N] [--pairs P] [--game GAME:SIZE] [-j J]
                             [--engine PATH|c-kit]

`PYTHON` is the interpreter of another checkout's environment (`git worktree add ../base REV`,
a venv there with `pip install -e .` and the core's wheel): its `python -m hexarena` is the
baseline. The bench plays P pairs (default 6) of `hexarena tournament` runs of N games (default
100) of GAME:SIZE (default spelde:6) at `-j J` (default 2) between two kept copies of the built-in
`random` player (or `--engine`), one run of each side a pair, the side that starts alternating,
after one warm-up run of each (not counted), each side's modules compiled to bytecode first (under
PYTHONDONTWRITEBYTECODE a checkout without it compiles its modules again in every process: ~0.1 s
of the runner's CPU a run, more than most changes). Each run is
measured as `bench_runner` measures it (bench/bench_runner.py `run_hexarena`: the runner's CPU
and its workers', engines excluded, per move; the runner's own process alone), from a neutral
folder so that each interpreter imports its own checkout.

On a shared host the speed of the machine drifts by tens of percent within minutes: two runs
hours apart say little, a pair's two runs share their stretch of the host. The table gives each
side's median and range over the pairs, and the median of the pairs' ratios with its range.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench.bench_runner import c_kit_engine, run_hexarena
from hexarena.engine import registry
from tests.support.bytecode import compile_with


def per_move(result: dict) -> tuple[float, float]:
    """(CPU a move, the runner's own CPU a move), in us."""
    moves = max(1, result["moves"])
    return result["cpu"] / moves * 1e6, result["own"] / moves * 1e6


def spread(values: list[float], digits: int = 1) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ab", description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the baseline checkout's Python interpreter")
    parser.add_argument("--games", type=int, default=100, help="games a run (default 100)")
    parser.add_argument("--pairs", type=int, default=6, help="pairs of runs (default 6)")
    parser.add_argument("--game", default="spelde:6", help="GAME:SIZE (default spelde:6)")
    parser.add_argument("-j", type=int, default=2, dest="jobs", help="slots (default 2)")
    parser.add_argument("--engine", default=None, help="an engine's path, or c-kit (default: the built-in random)")
    args = parser.parse_args(argv)
    game, _, size = args.game.partition(":")
    size_n = int(size) if size else registry.get(game).variant().size
    sides = {"this": sys.executable, "against": args.against}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        engine = str(c_kit_engine(work)) if args.engine == "c-kit" else args.engine
        for python in sides.values():                                   # warm-up: bytecode, caches
            compile_with(python, work)
            run_hexarena(game, size_n, max(2, args.games // 10), args.jobs, work, engine, python)
        cpu: dict[str, list[float]] = {name: [] for name in sides}
        own: dict[str, list[float]] = {name: [] for name in sides}
        for pair in range(args.pairs):
            order = list(sides) if pair % 2 == 0 else list(reversed(sides))
            for name in order:
                move, mine = per_move(run_hexarena(game, size_n, args.games, args.jobs, work, engine, sides[name]))
                cpu[name].append(move)
                own[name].append(mine)
                print(f"pair {pair + 1} {name:7} {move:7.1f} us a move, own {mine:6.1f} us", file=sys.stderr, flush=True)
    ratios = [a / b for a, b in zip(cpu["this"], cpu["against"])]
    print(f"{game} n={size_n}, -j {args.jobs}, {args.games} games a run, {args.pairs} pairs, "
          f"{'the built-in random' if engine is None else engine}; CPU a move (runner and workers, engines excluded)")
    print(f"  this checkout    {spread(cpu['this'])} us, own {spread(own['this'])} us")
    print(f"  against          {spread(cpu['against'])} us, own {spread(own['against'])} us")
    print(f"  this / against   {spread(ratios, 3)}")
    print(f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")


if __name__ == "__main__":
    main()
