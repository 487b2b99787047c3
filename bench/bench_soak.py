"""Soak: many fast games through a real tournament run, its throughput and the referee's latency.

    python -m bench.bench_soak [--games N] [-j J] [--restart game|fault|both] [--spin US[,US...]]
                               (default 2,000 games, J = cores, both modes, the channel's spin)

Plays N games of Spelde n=6 between two `python -m hexarena.players random`
engines (the built-in random player: it answers `genmove` at once, so it is
an instant random engine; no lighter engine is needed) at
Fischer 0.1 s + 0.01 s (margin 0.05 s), through a real
``hexarena.referee.tournament.run`` into a temporary folder (journal, SGFs,
engine logs: everything a tournament writes), with J workers, once with
``restart = "game"`` (two engine processes started per game) and once with
``restart = "fault"`` (each worker slot keeps its two processes).

Figures:
* games/s, actions/s     over the wall time of the whole run.
* time forfeits          games lost on time; with instant engines every one
                         is spurious (goal 0). Other faults are counted too.
* referee overhead/action  p50 and p99 of the wall time per action inside
                         the turn loop not spent inside an engine channel's
                         command (the `overhead` hook of ``referee.tournament.run.run``).
                         Goal: p50 <= 0.3 ms, p99 <= 2 ms.
* raw pipe round trip    p50 and p99 of an echo round trip through a pipe to
                         a child process (blocking os.write/os.read), measured
                         in the same run just before the soak: the floor.
* referee CPU/action     the referee process's own CPU (its threads, not its
                         children: the engines) over the run, per action; beside
                         it the raw pipe floor's CPU per round trip (this
                         process's side of the echo above). An action costs the
                         referee two commands (`genmove` to the mover, `play`
                         to the other engine) and, with a clock, a `time_left`.
* --spin                 the seconds the channel's fast path polls for an answer
                         (referee/engines/eager.py, SPIN), in microseconds; with
                         several values the soak runs once per value, in turn.
Ratios are to bench.common.baseline_us() measured in the same run.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.bench_controller import ECHO
from bench.common import baseline_us, table
from hexarena.engine.core import Termination
from hexarena.referee.engines import eager
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.run import run
from hexarena.results.record.journal import read_journal

MAIN, INCREMENT = 0.1, 0.01


def soak_config(games: int, restart: str = "fault") -> config_mod.TournamentConfig:
    """Two built-in random players, `games` games of Spelde n=6 at Fischer 0.1 s + 0.01 s."""
    return config_mod.from_dict({
        "engines": {"a": {"player": "random", "restart": restart}, "b": {"player": "random", "restart": restart}},
        "games": [{"game": "spelde", "sizes": [6]}],
        "games_per_pair": games,
        "time": {"main": MAIN, "increment": INCREMENT},
    })


def pipe_trips(n: int) -> tuple[list[float], float]:
    """Seconds of each of `n` echo round trips through a pipe (blocking os.write/os.read), and this
    process's CPU seconds per round trip."""
    proc = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    fin, fout = proc.stdin.fileno(), proc.stdout.fileno()
    out = []
    c0 = time.process_time()
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            os.write(fin, b"1 name\n")
            data = b""
            while not data.endswith(b"\n\n"):
                data += os.read(fout, 65536)
            out.append(time.perf_counter() - t0)
    finally:
        cpu = (time.process_time() - c0) / n
        proc.stdin.close()
        proc.wait()
    return out, cpu


def soak(games: int, jobs: int, out: Path, restart: str = "fault") -> dict:
    """Play the soak tournament in `out`; its records, wall seconds and per-action overheads."""
    overheads: list[float] = []
    t0, c0 = time.perf_counter(), time.process_time()
    trio.run(lambda: run(soak_config(games, restart), out, concurrency=jobs, overhead=overheads.append))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"records": read_journal(out), "wall": wall, "cpu": cpu, "overheads": overheads, "restart": restart,
            "spin": eager.SPIN}


def percentile(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of xs, nearest rank."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def report(games: int, jobs: int, base: float, trips: tuple[list[float], float], result: dict) -> str:
    records, wall, over = result["records"], result["wall"], result["overheads"]
    trips, trip_cpu = trips
    actions = sum(r.plies for r in records)
    terms: dict[str, int] = {}
    for r in records:
        terms[r.termination] = terms.get(r.termination, 0) + 1
    time_losses = terms.get(Termination.TIME.value, 0)
    faults = sum(1 for r in records if r.faulty is not None)

    def ms(x: float) -> str:
        return f"{x * 1e3:.3f}"

    def xb(x: float) -> str:
        return f"{x * 1e6 / base:.2f}"

    p50, p99 = percentile(over, 0.5), percentile(over, 0.99)
    f50, f99 = percentile(trips, 0.5), percentile(trips, 0.99)
    rows = [
        {"figure": "games/s", "value": f"{len(records) / wall:.1f}", "unit": "1/s", "x baseline": ""},
        {"figure": "actions/s", "value": f"{actions / wall:.0f}", "unit": "1/s", "x baseline": ""},
        {"figure": "time forfeits", "value": str(time_losses), "unit": "games", "x baseline": ""},
        {"figure": "games with a fault", "value": str(faults), "unit": "games", "x baseline": ""},
        {"figure": "ref overhead/action p50", "value": ms(p50), "unit": "ms", "x baseline": xb(p50)},
        {"figure": "ref overhead/action p99", "value": ms(p99), "unit": "ms", "x baseline": xb(p99)},
        {"figure": "raw pipe round trip p50", "value": ms(f50), "unit": "ms", "x baseline": xb(f50)},
        {"figure": "raw pipe round trip p99", "value": ms(f99), "unit": "ms", "x baseline": xb(f99)},
        {"figure": "referee CPU/action", "value": ms(result["cpu"] / max(actions, 1)), "unit": "ms",
         "x baseline": xb(result["cpu"] / max(actions, 1))},
        {"figure": "raw pipe CPU/round trip", "value": ms(trip_cpu), "unit": "ms", "x baseline": xb(trip_cpu)},
        {"figure": "mean overhead/action", "value": ms(statistics.fmean(over)) if over else "-", "unit": "ms",
         "x baseline": xb(statistics.fmean(over)) if over else ""},
    ]
    head = (f"soak: {len(records)} of {games} games of Spelde n=6, random vs random, Fischer {MAIN:g} s + "
            f"{INCREMENT:g} s, -j {jobs}, restart = {result['restart']!r}, spin {result['spin'] * 1e6:g} us; {actions} actions ({len(over)} timed) in "
            f"{wall:.1f} s; terminations {dict(sorted(terms.items()))}; baseline {base:.0f} us")
    return head + "\n" + table(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_soak", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="workers (default: cores)")
    parser.add_argument("--restart", choices=("game", "fault", "both"), default="both",
                        help="engine restart mode(s) to soak (default: both, one after the other)")
    parser.add_argument("--spin", default=None,
                        help="the channel's spin in microseconds, or several separated by commas (default: SPIN)")
    args = parser.parse_args(argv)
    try:
        spins = [eager.SPIN] if args.spin is None else [float(x) * 1e-6 for x in args.spin.split(",")]
    except ValueError:
        parser.error(f"--spin {args.spin!r}: microseconds, separated by commas")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and -j must be at least 1")
    base = baseline_us()
    trips = pipe_trips(2000)
    for restart in ("game", "fault") if args.restart == "both" else (args.restart,):
        for spin in spins:
            eager.SPIN = spin
            with TemporaryDirectory() as tmp:
                result = soak(args.games, args.jobs, Path(tmp) / "soak", restart)
            print(report(args.games, args.jobs, base, trips, result), flush=True)


if __name__ == "__main__":
    main()
