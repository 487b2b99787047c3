"""Dask cluster vs local runner: per-game overhead and games/hour with 1, 2, 4 workers.

    python -m bench.bench_cluster [GAMES [N ...]]        (needs `pip install -e '.[cluster]'`)

The same GAMES games (built-in `random` vs `greedy`, Spelde n=5, default
time limits) are played by the local runner (`-j N`) and through a
`LocalCluster` of N single-thread worker processes (`--cluster local:N`),
for N = 1, 2, 4 (or the N given), on this machine. Each run gets a fresh output folder; the
pre-flight is left out; the cluster's start-up is timed apart from the games.

Figures:
* wall s        wall time of the games (journal written, SGF and logs written).
* s/game        wall / games.
* games/h       games per hour at that rate.
* +ms/game      (cluster wall - local wall at the same N) / games: what a Dask
                task costs per game (submit over TLS, pickling the config, the
                worker's trio.run and temp folder, sending the record and logs
                back, the coordinator's replay check and SGF file).
* setup s       starting the LocalCluster and connecting (paid once per run).
* task trip ms  median round trip of a task that plays nothing (same arguments):
                Dask's own share of +ms/game.
A game here is short (two Python engines start, about 20 quick moves), so the
overhead shows; at real time controls it vanishes in the game's length. On a
2-core machine games/hour stops growing at 2 workers: a game keeps about one
core busy (one engine thinks at a time), so workers beyond the cores only
share them (docs/cluster.md). Ratios are to bench.common.baseline_us().
"""
from __future__ import annotations

import sys
import time
from functools import partial
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import baseline_us, median_of, table
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.schedule import schedule
from hexarena.referee.tournament.run import run


def _config(games: int) -> config_mod.TournamentConfig:
    return config_mod.from_dict({
        "seed": 5, "games_per_pair": games,
        "engines": {"random": {"player": "random"}, "greedy": {"player": "greedy"}},
        "games": [{"game": "spelde", "size": 5}]}, "bench_cluster")


def local(config: config_mod.TournamentConfig, out: Path, n: int) -> dict[str, float]:
    t0 = time.perf_counter()
    outcome = trio.run(partial(run, config, out, concurrency=n))
    return {"wall": time.perf_counter() - t0, "setup": 0.0, "void": outcome.void}


def cluster(config: config_mod.TournamentConfig, out: Path, n: int) -> dict[str, float]:
    from hexarena.cluster import open_cluster

    t0 = time.perf_counter()
    with open_cluster(f"local:{n}") as dask:
        dask.client.wait_for_workers(n)
        t1 = time.perf_counter()

        def lost(message: str) -> None:
            raise SystemExit(message)
        outcome = trio.run(partial(run, config, out, concurrency=dask.slots, play=dask.player(config, out, lost)))
        t2 = time.perf_counter()
        game = schedule(config)[0]
        trip = median_of(lambda: dask.client.submit(_echo, game, config, pure=False).result(), repeat=20)
    return {"wall": t2 - t1, "setup": t1 - t0, "void": outcome.void, "trip": trip}


def _echo(*args: object) -> tuple:
    """A task that plays nothing: its round trip is Dask's part of the overhead."""
    return args


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    workers = [int(n) for n in sys.argv[2:]] or [1, 2, 4]
    config = _config(games)
    base = baseline_us()
    rows, walls = [], {}
    with TemporaryDirectory() as tmp:
        for n in workers:
            for runner, fn in (("local -j N", local), ("--cluster local:N", cluster)):
                figures = fn(config, Path(tmp) / f"{runner[:5]}-{n}", n)
                walls[runner, n] = figures["wall"]
                extra = "" if runner.startswith("local") else \
                    f"{(figures['wall'] - walls['local -j N', n]) / games * 1e3:+.0f}"
                rows.append({"runner": runner, "N": n, "games": games, "void": int(figures["void"]),
                             "wall s": f"{figures['wall']:.2f}", "s/game": f"{figures['wall'] / games:.3f}",
                             "games/h": f"{games / figures['wall'] * 3600:.0f}", "+ms/game": extra,
                             "setup s": f"{figures['setup']:.2f}" if figures["setup"] else "",
                             "task trip ms": f"{figures['trip'] * 1e3:.0f}" if "trip" in figures else "",
                             "s/game / baseline": f"{figures['wall'] / games * 1e6 / base:.0f}"})
    print(f"baseline: {base:.0f} us; {games} games of spelde n=5, random vs greedy")
    print(table(rows))


if __name__ == "__main__":
    main()
