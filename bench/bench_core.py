"""The compiled core against the Python rules and the C speed limit: random playouts and legal actions.

Run: ``python -m bench.bench_core [--games N] [--sizes 7 9 11] [--mcts SECONDS]`` (needs the core:
``pip install ./core``). For each game the core implements and each of its recommended
sizes (or those given), one table row:

* playout ms: CPU milliseconds of one uniformly random playout (balance ``nopie``,
  komi 0, from the empty board to the end or the ply cap) through ``GameState.playout``,
  core and Python, and their ratio;
* limit ms (Anda): ``anda_limit bench N GAMES`` (../shared/limit/anda_limit.c, compiled
  here with ``gcc -std=c11 -O2 -march=native`` into a temporary folder), the CPU time of
  its process per playout, and the core's ratio to it (the goal: at most 2);
* legal us: median wall microseconds of listing ``legal_actions()`` (at most its first
  ``LEGAL_CAP``: Spelde's flip sets run to millions) on fresh states sampled from
  playouts (nothing cached), core and Python, and their ratio.

``--mcts SECONDS``: a second table instead, MCTS iterations a second (the built-in
``mcts``, the game's own evaluator and selection) at each game's default size, from the
same position in both modes (12 random plies of the Python rules from the start, read
into the core's rules), a search of SECONDS each, core and Python, and their ratio. The
core mode is the core's rules, and the core's whole search where it has the game's
(``hexarena_core.SEARCH_GAMES``, players/compiled_search.py); the Python mode runs with
``HEXARENA_CORE=0`` (the Python rules and the Python tree).

Everything is measured in the same run, so the ratios compare on a loaded machine.
"""
from __future__ import annotations

import argparse
import importlib
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

from bench.common import table
from hexarena.engine import compiled, registry

LIMIT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "limit" / "anda_limit.c"
#: Legal actions listed per sampled state at most.
LEGAL_CAP = 10_000


def build_limit(source: Path, folder: str) -> Path | None:
    """anda_limit compiled with -O2 -march=native into `folder`; None without gcc or source."""
    gcc = shutil.which("gcc")
    if gcc is None or not source.exists():
        return None
    exe = Path(folder) / "anda_limit"
    subprocess.run([gcc, "-std=c11", "-O2", "-march=native", "-o", str(exe), str(source)], check=True)
    return exe


def limit_ms(exe: Path, n: int, games: int) -> tuple[float, float]:
    """(CPU ms per playout, mean plies) of anda_limit's bench mode at side n."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(exe), "bench", str(n), str(games), "1"], check=True, capture_output=True,
                         text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    plies = re.search(r"mean_plies=([0-9.]+)", out)
    return cpu / games * 1e3, float(plies.group(1)) if plies else float("nan")


def playouts(info, n: int, games: int, seed: int) -> tuple[float, float, list]:
    """(CPU ms per playout, mean plies, sampled states) of `games` random playouts."""
    rng = random.Random(seed)
    variant = info.variant(n, ["nopie"])
    cap = info.ply_cap(n)
    plies, samples = [], []
    t0 = time.process_time()
    for _ in range(games):
        end, _ = info.new_game(variant, 0).playout(rng, cap)
        plies.append(end.ply)
    cpu = time.process_time() - t0
    for _ in range(3):                              # states along a game, for the legal-actions cost
        state = info.new_game(variant, 0)
        while state.outcome() is None and state.ply < cap:
            if rng.random() < 0.05:
                samples.append(state)
            state = state.play(state.random_action(rng))
    return cpu / games * 1e3, statistics.fmean(plies), samples


def legal_us(info, samples: list) -> float:
    """Median wall microseconds of listing the legal actions (at most LEGAL_CAP) of a fresh copy of each sample."""
    cost = []
    for state in samples:
        pos = state.to_position()
        fresh = info.from_position(state.variant, pos, info.read_keys(pos))
        t0 = time.perf_counter()
        list(islice(fresh.legal_actions(), LEGAL_CAP))
        cost.append(time.perf_counter() - t0)
    return statistics.median(cost) * 1e6 if cost else float("nan")


def mcts_rows(games: list[str], seconds: float, rounds: int) -> list[dict]:
    """One row per game: MCTS iterations a second with the core's rules and the Python ones
    (the best of `rounds` searches of `seconds` each, the modes alternating)."""
    from hexarena.players import MctsBot
    from tests.support.positions import walk
    rows = []
    for game in games:
        python, core = rules_of(game)
        start = walk(python.new_game(python.variant(None), 0), 12)
        pos = start.to_position()
        states = {"core": core.from_position(start.variant, pos, core.read_keys(pos)), "python": start}
        rate = {"core": 0.0, "python": 0.0}
        for _ in range(rounds):
            for mode, state in states.items():
                switch = os.environ.get(compiled.SWITCH)
                if mode == "python":
                    os.environ[compiled.SWITCH] = "0"
                try:
                    t0 = time.perf_counter()
                    found = MctsBot(seconds=seconds).search(state, random.Random(5))
                    rate[mode] = max(rate[mode], found.iterations / (time.perf_counter() - t0))
                finally:
                    if switch is None:
                        os.environ.pop(compiled.SWITCH, None)
                    else:
                        os.environ[compiled.SWITCH] = switch
        rows.append({"game": game, "n": start.variant.size, "iterations/s core": f"{rate['core']:.0f}",
                     "iterations/s python": f"{rate['python']:.0f}",
                     "core/python": f"{rate['core'] / rate['python']:.1f}x"})
    return rows


def rules_of(game: str):
    """(the Python rules, the core's rules) of a game the core implements."""
    package = f"hexarena.engine.games.{registry.GAME_MODULES[game]}"
    return (importlib.import_module(f"{package}.state").RULES,
            importlib.import_module(f"{package}.compiled").RULES)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="core and anda_limit playouts per size")
    ap.add_argument("--python-games", type=int, default=8, help="Python playouts per size")
    ap.add_argument("--sizes", type=int, nargs="*", help="board sides (default: each game's recommended ones)")
    ap.add_argument("--only", nargs="*", help="game ids (default: every game the core implements)")
    ap.add_argument("--limit", type=Path, default=LIMIT_SOURCE, help="anda_limit.c")
    ap.add_argument("--limit-built", type=Path, help="anda_limit already built from it (then not built here)")
    ap.add_argument("--mcts", type=float, metavar="SECONDS", help="MCTS iterations a second instead (see above)")
    ap.add_argument("--rounds", type=int, default=2, help="searches per mode and game with --mcts")
    args = ap.parse_args()
    from hexarena.engine import compiled
    if compiled.installed() is None:
        sys.exit("bench_core: the compiled core is not installed (pip install ./core)")
    games = [g for g in registry.playable() if compiled.implements(g) and (not args.only or g in args.only)]
    if args.mcts is not None:
        print(table(mcts_rows(games, args.mcts, args.rounds)))
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        exe = args.limit_built or build_limit(args.limit, tmp)
        for game in games:
            python, core = rules_of(game)
            for n in args.sizes or python.sizes:
                core_ms, core_plies, samples = playouts(core, n, args.games, seed=n)
                py_ms, py_plies, _ = playouts(python, n, args.python_games, seed=n)
                row = {"game": game, "n": n, "plies (core/py)": f"{core_plies:.0f}/{py_plies:.0f}",
                       "core ms": f"{core_ms:.3f}", "python ms": f"{py_ms:.1f}",
                       "python/core": f"{py_ms / core_ms:.0f}x"}
                if game == "anda" and exe is not None:
                    lim, lim_plies = limit_ms(exe, n, args.games)
                    row |= {"limit ms": f"{lim:.3f}", "limit plies": f"{lim_plies:.0f}",
                            "core/limit": f"{core_ms / lim:.2f}"}
                core_legal, py_legal = legal_us(core, samples), legal_us(python, samples)
                row |= {"legal us core": f"{core_legal:.0f}", "legal us python": f"{py_legal:.0f}",
                        "legal python/core": f"{py_legal / core_legal:.0f}x"}
                rows.append(row)
        if exe is None:
            print(f"anda_limit: not built (gcc or {args.limit} missing)")
    print(table(rows))


if __name__ == "__main__":
    main()
