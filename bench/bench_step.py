"""The step API per ply: the compiled core's rules against the Python rules and, for Anda, the C limit.

Run: ``python -m bench.bench_step [--plies N] [--only GAME] [--sizes 7,9,11] [--anda-limit PATH]``.

One "ply" is what an engine written on the rules pays to play one random action through the public
API: ``state.outcome()``, ``state.random_action(rng)`` and ``state.play(action)``, from the initial
state of the variant (``nopie``, komi 0) to the end or the referee's cap, over fresh games until `N`
plies are played. "legal" is one ``list(state.legal_actions())`` (its first 1,000 actions) on a state
sampled along random games,
rebuilt from its position so that nothing is cached (the median). "referee" is the referee's check
of an engine's answer per ply (referee/game/match.py): ``state.read(token)``, ``state.play(action)``
and ``after.outcome()``, over the tokens of random games of the Python rules (one per 150 plies of
``--plies``, 2 to 20) replayed from the initial state, the notation's token cache emptied first. Both rules run in this process: the
Python rules (``<game>/state.py``) and the core's (``<game>/compiled.py``). Times are CPU time of this
process (``time.process_time``), so other jobs on a shared machine inflate them less.

The C limit is ``anda_limit.c`` (uniform random Anda playouts, nopie komi 0, a whole playout in C per
call), built with ``gcc -std=c11 -O2`` in a temporary folder and run as ``anda_limit bench N P SEED``;
its us/ply is the CPU time of its process over the plies it reports (its start-up included, lost
in at least 500 playouts). ``core/C`` is the core's ply over it (the goal: at most 3). The
limit is found at ``--anda-limit``, else at ``shared/limit/anda_limit.c`` beside the checkout or its
parent; without it (or without gcc) its columns show ``-``. The ``base`` column is the pure-Python
baseline of bench.common (microseconds), measured in the same run.
"""
from __future__ import annotations

import argparse
import importlib
import random
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from itertools import islice
from pathlib import Path

from bench.common import baseline_us, fresh_copy, table
from hexarena.engine import compiled, registry
from hexarena.engine.game import GameInfo, GameState, Variant
from hexarena.engine.notation import read_action

ROOT = Path(__file__).resolve().parents[1]
#: The legal actions listed per timed call (a Spelde turn can have tens of thousands).
LISTED = 1000


def both_rules(game: str) -> tuple[GameInfo, GameInfo | None]:
    """(the Python rules, the core's rules or None when the core is not installed or lacks the game)."""
    package = f"hexarena.engine.games.{registry.GAME_MODULES[game]}"
    python = importlib.import_module(f"{package}.state").RULES
    if not compiled.implements(game):
        return python, None
    return python, importlib.import_module(f"{package}.compiled").RULES


def time_plies(info: GameInfo, n: int, plies: int, seed: int) -> tuple[float, list[GameState]]:
    """CPU microseconds per random ply (outcome, random_action, play) over fresh games until `plies`
    plies are played, and 20 states of other random games (:func:`sample_states`)."""
    rng = random.Random(seed)
    variant = info.variant(n, ["nopie"] if "nopie" in info.balances else [])
    cap = info.ply_cap(n)
    done, spent = 0, 0.0
    while done < plies:
        state = info.new_game(variant, 0)
        t0 = time.process_time()
        k = 0
        while state.outcome() is None and state.ply < cap:
            state = state.play(state.random_action(rng))
            k += 1
        spent += time.process_time() - t0
        done += k
    return spent / done * 1e6, sample_states(info, variant, cap, seed + 1)


def sample_states(info: GameInfo, variant: Variant, cap: int, seed: int, count: int = 20) -> list[GameState]:
    """`count` states that are not over, every 5th of random games from the initial state."""
    rng = random.Random(seed)
    state, samples = info.new_game(variant, 0), []
    while len(samples) < count:
        if state.outcome() is not None or state.ply >= cap:
            state = info.new_game(variant, 0)
            continue
        state = state.play(state.random_action(rng))
        if state.ply % 5 == 0 and state.outcome() is None:
            samples.append(state)
    return samples


def time_legal(states: list[GameState], cap: int = LISTED) -> float:
    """Median CPU microseconds of listing the first `cap` legal actions of fresh copies of `states`."""
    times = []
    for state in states:
        fresh = [fresh_copy(state) for _ in range(5)]
        t0 = time.process_time()
        for s in fresh:
            list(islice(s.legal_actions(), cap))
        times.append((time.process_time() - t0) / len(fresh))
    return statistics.median(times) * 1e6 if times else float("nan")


def game_tokens(info: GameInfo, n: int, seed: int, games: int = 20) -> list[list[str]]:
    """The tokens of `games` random games of `info` at side n (to the end or the cap)."""
    rng = random.Random(seed)
    variant = info.variant(n, ["nopie"] if "nopie" in info.balances else [])
    out = []
    for _ in range(games):
        state, tokens = info.new_game(variant, 0), []
        while state.outcome() is None and state.ply < info.ply_cap(n):
            action = state.random_action(rng)
            tokens.append(state.format(action))
            state = state.play(action)
        out.append(tokens)
    return out


def time_referee(info: GameInfo, n: int, games: list[list[str]]) -> float:
    """CPU microseconds per ply of the referee's check of an answer (read, play, outcome) over `games`."""
    variant = info.variant(n, ["nopie"] if "nopie" in info.balances else [])
    read_action.cache_clear()
    plies, t0 = 0, time.process_time()
    for tokens in games:
        state = info.new_game(variant, 0)
        for token in tokens:
            action, _ = state.read(token)
            state = state.play(action)
            state.outcome()
        plies += len(tokens)
    return (time.process_time() - t0) / max(plies, 1) * 1e6


def find_limit(given: str | None) -> Path | None:
    """The C limit's source: `given`, else shared/limit/anda_limit.c beside the checkout or its parent."""
    if given:
        return Path(given)
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "limit" / "anda_limit.c"
        if path.is_file():
            return path
    return None


def build_limit(source: Path | None, folder: Path) -> Path | None:
    """The C limit built in `folder` (gcc -O2), or None without the source or gcc."""
    gcc = shutil.which("gcc")
    if source is None or gcc is None or not source.is_file():
        return None
    exe = folder / "anda_limit"
    subprocess.run([gcc, "-std=c11", "-O2", "-o", str(exe), str(source)], check=True)
    return exe


def limit_us(exe: Path | None, n: int, plies: int, seed: int) -> float | None:
    """The C limit's CPU microseconds per ply at side n, over about `plies` plies (at least 500
    playouts): its process's CPU time (as the rules' columns) over the plies it reports."""
    if exe is None:
        return None
    playouts = max(500, plies // 5)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = subprocess.run([str(exe), "bench", str(n), str(playouts), str(seed)], capture_output=True,
                          text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = re.search(r"mean_plies=([0-9.]+)", text)
    if found is None:
        raise SystemExit(f"anda_limit printed no mean_plies: {text!r}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return cpu / (playouts * float(found.group(1))) * 1e6


def fmt(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=20000, help="random plies timed per game, size and rules")
    ap.add_argument("--only", help="one game id")
    ap.add_argument("--sizes", help="sides, comma-separated (default: each game's sizes)")
    ap.add_argument("--anda-limit", help="path of anda_limit.c (the C limit)")
    ap.add_argument("--anda-limit-built", type=Path, help="the C limit already built (then not built here)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    games = [args.only] if args.only else registry.playable()
    base = baseline_us()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        exe = None if "anda" not in games else args.anda_limit_built or build_limit(find_limit(args.anda_limit),
                                                                                    Path(tmp))
        for game in games:
            python, core = both_rules(game)
            sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else list(python.sizes)
            for n in sizes:
                py_ply, samples = time_plies(python, n, args.plies, args.seed)
                co_ply, co_samples = time_plies(core, n, args.plies, args.seed) if core else (None, [])
                c_ply = limit_us(exe, n, args.plies, args.seed) if game == "anda" else None
                tokens = game_tokens(python, n, args.seed, min(20, max(2, args.plies // 150)))
                py_ref = time_referee(python, n, tokens)
                co_ref = time_referee(core, n, tokens) if core else None
                rows.append({
                    "game": game, "n": n,
                    "py us/ply": fmt(py_ply), "core us/ply": fmt(co_ply),
                    "py/core": fmt(py_ply / co_ply if co_ply else None),
                    "C us/ply": fmt(c_ply, 3), "core/C": fmt(co_ply / c_ply if co_ply and c_ply else None),
                    "py legal us": fmt(time_legal(samples), 1),
                    "core legal us": fmt(time_legal(co_samples), 1) if core else "-",
                    "py referee us": fmt(py_ref), "core referee us": fmt(co_ref),
                    "base": f"{base:.0f}",
                })
                print(table(rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(rows))


if __name__ == "__main__":
    main()
