"""Does the clock-aware `mcts` ever lose on time? Real tournaments under Fischer and byo-yomi.

    python -m bench.bench_clock_safety [--games N] [-j J] [--controls fischer,byoyomi]
        [--only anda,anda-prison] [--out DIR]

For each clock (Fischer 10 s + 0.1 s; byo-yomi 5 s main time + 3 periods of
1 s), one `hexarena` tournament (engine processes, referee, journal) of the
built-in `mcts` (1 s a move or less when the clock says so) against `random`
on every game (or those --only names) at its smallest recommended size (Anda-prison capped at 2 x
sites plies, as in lab/strength.py), N games per game (default 40), seats
alternating. Prints per game: games, mcts's time forfeits (goal 0), its other
faults, its score, the mean and the longest think of its moves, and the
wall time. The tournaments stay in --out (default: a temporary folder) for
`hexarena show` / `hexarena report`.
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import table
from hexarena.engine import registry
from hexarena.engine.actions import holders_after
from hexarena.engine.core import Colour
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.run import run
from hexarena.results.record.journal import read_journal

CONTROLS = {
    "fischer": {"control": "fischer", "main": 10, "increment": 0.1},
    "byoyomi": {"control": "byoyomi", "main": 5, "period": 1, "periods": 3},
}


def clock_config(control: str, games: int, only: list[str] | None = None) -> config_mod.TournamentConfig:
    entries = []
    for gid in only or registry.playable():
        info = registry.get(gid)
        size = min(info.sizes)
        entry: dict = {"game": gid, "size": size}
        if gid == "anda-prison":
            entry["ply_cap"] = 2 * (3 * size * (size - 1) + 1)
        entries.append(entry)
    return config_mod.from_dict({
        "seed": 15, "games_per_pair": games, "time": CONTROLS[control], "games": entries,
        "engines": {"mcts": {"player": "mcts"}, "random": {"player": "random"}},
    }, f"bench_clock_safety {control}")


def summary(records: list, only: list[str] | None = None) -> list[dict]:
    rows = []
    for gid in only or registry.playable():
        mine = [r for r in records if r.game == gid]
        thinks = [m.think for r in mine for m, who in zip(r.moves or (), movers(r)) if m.think is not None and who == "mcts"]
        rows.append({
            "game": gid, "games": len(mine),
            "mcts time losses": sum(r.faulty == "mcts" and r.termination == "time" for r in mine),
            "other mcts faults": sum(r.faulty == "mcts" and r.termination != "time" for r in mine),
            "mcts score%": f"{100 * sum((r.winner == 'mcts') + 0.5 * (r.winner is None) for r in mine) / max(1, len(mine)):.0f}",
            "mean think s": f"{statistics.fmean(thinks):.3f}" if thinks else "-",
            "max think s": f"{max(thinks):.3f}" if thinks else "-",
        })
    return rows


def movers(record) -> list[str]:
    """Who chose each action of a record (seat 1 holds Black at the start; colours follow swaps)."""
    info = registry.get(record.game)
    state = info.new_game(info.variant(record.size, record.variant.split()), 0)
    holders = {Colour.BLACK: record.first, Colour.WHITE: record.second}
    out = []
    for move in record.moves or ():
        action = state.parse(move.action)
        out.append(holders[state.to_move])
        holders = holders_after(holders, action)
        state = state.play(action)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_clock_safety", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per game (default 40)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--controls", default="fischer,byoyomi")
    parser.add_argument("--only", default=None, help="comma-separated game ids (default: every game)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    only = args.only.split(",") if args.only else None
    if only and (unknown := sorted(set(only) - set(registry.playable()))):
        parser.error(f"--only: unknown game(s) {', '.join(unknown)}; games: {', '.join(registry.playable())}")
    with TemporaryDirectory() as tmp:
        base = args.out or Path(tmp)
        for control in args.controls.split(","):
            t0 = time.perf_counter()
            trio.run(lambda: run(clock_config(control, args.games, only), base / control,
                                 concurrency=args.jobs, resume=(base / control).exists()))
            records = read_journal(base / control)          # whole records: the think times
            print(f"{control}: {CONTROLS[control]}, mcts vs random, {args.games} games per game, -j {args.jobs}, "
                  f"{time.perf_counter() - t0:.0f} s wall")
            print(table(summary(records, only)), flush=True)


if __name__ == "__main__":
    main()
