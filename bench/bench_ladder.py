"""The ladder server under load: real bridges of cheap built-in players against one server.

    python -m bench.bench_ladder [--bridges N] [--seconds S] [--flight N] [--move X] [--sample S]
                                 (defaults: 6 bridges for 90 s; 20 bridges at 0.1 s moves, sampled 20 s)

Phase 1, throughput: N bridges of the built-in random player (it answers at once) play in one
pool of Spelde n=5, 1 s a move, rounds every 0.2 s, for S seconds. Figures: games and moves
journaled, games per hour, the server process's own CPU (user + system, its anchors and other
children excluded) per move and per game, its resident memory after the run, and the time
losses of these honest engines (goal 0).

Phase 2, games in flight: `--flight` bridges (default 20, so 10 games at once) whose engine
answers each `genmove` after `--move` seconds (default 0.1: the random player behind a sleep,
``python -m bench.bench_ladder --engine 0.1``), clock 2 s a move. Once 10 games are in flight
(the pool's live files), the server's CPU is sampled over `--sample` seconds (default 20): cores
used (goal: under 0.25).

Ratios are to bench.common.baseline_us() measured in the same run (a fixed pure-Python workload).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from bench.common import baseline_us, table

HEXARENA = [sys.executable, "-m", "hexarena"]
TICK = os.sysconf("SC_CLK_TCK")


def _config(move: float) -> str:
    return (f"interval = 0.2\nprovisional = 10\n[bounds]\nconnections = 500\nper_account = 2\n"
            f"[[pools]]\nname = \"p\"\ngame = \"spelde\"\nsize = 5\nanchors = [\"random\"]\n"
            f"[pools.time]\nmove = {move}\n")


def _cpu(pid: int) -> float:
    """The process's own user + system CPU seconds (not its children's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class _Run:
    """A server and its bridges in a temporary folder."""

    def __init__(self, tmp: Path, bridges: int, move: float, engine: list[str]):
        self.data = tmp / "data"
        tokens = {}
        for i in range(bridges):
            out = subprocess.run([*HEXARENA, "ladder", "account", "add", f"b{i:02d}", "--data", str(self.data)],
                                 capture_output=True, text=True, check=True)
            tokens[f"b{i:02d}"] = out.stdout.split()[0]
        (tmp / "l.toml").write_text(_config(move))
        self.server = subprocess.Popen([*HEXARENA, "ladder", "serve", str(tmp / "l.toml"), "--data", str(self.data)],
                                       stdout=subprocess.PIPE, stderr=open(tmp / "server.err", "w"), text=True)
        assert self.server.stdout is not None
        ws = self.server.stdout.readline().split()[1]
        self.bridges = [subprocess.Popen([*HEXARENA, "connect", ws, "--account", name, "--out", str(tmp / name),
                                          "--", *engine], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         env={**os.environ, "HEXARENA_LADDER_TOKEN": token})
                        for name, token in tokens.items()]

    def records(self) -> list[dict]:
        path = self.data / "p" / "journal.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def in_flight(self) -> int:
        live = self.data / "p" / "live"
        return len(list(live.glob("*.jsonl"))) if live.exists() else 0

    def stop(self) -> None:
        for b in self.bridges:
            b.kill()
        self.server.terminate()
        self.server.wait(30)
        for b in self.bridges:
            b.wait(30)


def throughput(bridges: int, seconds: float) -> dict[str, object]:
    with TemporaryDirectory() as tmp:
        run = _Run(Path(tmp), bridges, 1.0, ["random"])
        try:
            time.sleep(3.0)                                   # bridges start and log in
            cpu0, t0, n0 = _cpu(run.server.pid), time.monotonic(), len(run.records())
            time.sleep(seconds)
            cpu1, t1 = _cpu(run.server.pid), time.monotonic()
            records = run.records()[n0:]
            rss = _rss_mb(run.server.pid)
        finally:
            run.stop()
    played = [r for r in records if r["termination"] != "void"]
    moves = sum(r["plies"] for r in played)
    losses = sum(1 for r in played if r.get("forfeit") == "time")
    cpu = cpu1 - cpu0
    return {"bridges": bridges, "seconds": round(t1 - t0, 1), "games": len(played), "moves": moves,
            "games/hour": round(len(played) * 3600 / (t1 - t0)),
            "server CPU/move ms": round(1000 * cpu / max(moves, 1), 2),
            "server CPU/game ms": round(1000 * cpu / max(len(played), 1), 1),
            "RSS after MB": round(rss, 1), "time losses": losses}


def in_flight(bridges: int, move: float, sample: float = 20.0) -> dict[str, object]:
    engine = [sys.executable, "-m", "bench.bench_ladder", "--engine", str(move)]
    with TemporaryDirectory() as tmp:
        run = _Run(Path(tmp), bridges, 2.0, engine)
        try:
            deadline = time.monotonic() + 120
            while run.in_flight() < bridges // 2 and time.monotonic() < deadline:
                time.sleep(0.2)
            flights, cpu0, t0 = [], _cpu(run.server.pid), time.monotonic()
            while time.monotonic() - t0 < sample:
                time.sleep(0.5)
                flights.append(run.in_flight())
            cpu1, t1 = _cpu(run.server.pid), time.monotonic()
            played = [r for r in run.records() if r["termination"] != "void"]
        finally:
            run.stop()
    return {"bridges": bridges, "move s": move, "games in flight (mean)": round(sum(flights) / len(flights), 1),
            "server cores": round((cpu1 - cpu0) / (t1 - t0), 3),
            "time losses": sum(1 for r in played if r.get("forfeit") == "time"), "games": len(played)}


def serve_slow(delay: float) -> None:
    """An HGP engine: the built-in random player, each genmove after `delay` seconds."""
    from hexarena.players.serve import make_engine
    engine = make_engine("random", 0)
    while not engine.finished:
        line = sys.stdin.readline()
        if not line:
            break
        if "genmove" in line:
            time.sleep(delay)
        response = engine.handle(line)
        if response is not None:
            sys.stdout.write(response)
            sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bridges", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--flight", type=int, default=20)
    parser.add_argument("--move", type=float, default=0.1)
    parser.add_argument("--sample", type=float, default=20.0, help="seconds phase 2 samples the server's CPU")
    parser.add_argument("--engine", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.engine is not None:
        serve_slow(args.engine)
        return
    base = baseline_us()
    load = os.getloadavg()[0]
    print(f"baseline {base:.0f} us; load {load:.2f} on {os.cpu_count()} cores at start")
    row = throughput(args.bridges, args.seconds)
    row["CPU/move / baseline"] = round(row["server CPU/move ms"] * 1000 / base, 2)   # type: ignore[operator]
    print(table([row]))
    if args.flight:
        print(table([in_flight(args.flight, args.move, args.sample)]))
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
