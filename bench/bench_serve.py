"""hexarena serve: what watching costs the referee, how fast a board follows, what a page keeps.

    python -m bench.bench_serve [--games N] [-j J] [--rounds R] [--updates U]
                                (default 300 games, J = 2, 2 rounds, 1,000 updates)

1. Throughput: the soak tournament of bench/bench_soak.py (Spelde n=6, two instant
   random engines, Fischer 0.1 s + 0.01 s, engines kept), N games with J workers,
   in R rounds of three runs each, one after the other (a loaded machine drifts):
   * alone;
   * watched by `hexarena serve DIR` in another process, with three connected
     event-stream clients (one process of three threads, draining every event);
   * with the server inside the referee's process (as `tournament --serve`: the same
     trio loop), the same three clients.
   Figure: actions/s, the median over the rounds, and its ratio to the run alone
   (goal: within 10%); and the CPU milliseconds per action of the referee's process
   alone and of the `hexarena serve` process beside it (less sensitive to a loaded
   machine than the wall-clock speeds).
2. Latency and memory in a real browser (headless Chromium): a tournament of
   `mcts:0.05s` against `greedy` on Spelde n=5 (-j 2) served by `hexarena serve`;
   the folder page records, for every board it paints, the time of the paint minus the
   wall time the referee wrote with the action (its live line's `at`, taken right after
   the engine's answer was read and checked): the latency from an engine's answer to the
   browser's board change (goal: p50 and p99 under 100 ms; the first paint of each board,
   which waits for the empty board's drawing, is left out). The page's JavaScript heap
   (the DevTools Protocol's Performance.getMetrics, after a garbage collection) and its
   DOM nodes after 50 and after U paints.
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.bench_soak import percentile, soak_config
from bench.common import baseline_us, table
from hexarena.referee.tournament.run import run
from hexarena.results.record.journal import read_journal
from hexarena.web.app import new_token
from hexarena.web.server import serve, url
from hexarena.web.site import watch_app
from tests.support.web import start_server

#: Three event-stream clients in one process: each reads its stream to the end; the process
#: prints "connected" once all three had their first event, and its counts when it ends.
CLIENTS = r"""
import http.client, sys, threading
port, token, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
counts, ready = [0, 0, 0], threading.Barrier(4)
def drain(i):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=3600)
    c.request("GET", path, headers={"Cookie": f"hexarena-{port}={token}"})
    r = c.getresponse()
    first = True
    try:
        while chunk := r.read1(65536):
            counts[i] += chunk.count(b"\nevent: ") + chunk.startswith(b"event: ")
            if first:
                first = False
                ready.wait()
    except (OSError, http.client.HTTPException):      # the server stopped
        pass
threads = [threading.Thread(target=drain, args=(i,), daemon=True) for i in range(3)]
for t in threads:
    t.start()
ready.wait()
print("connected", flush=True)
sys.stdin.read()
print("events", *counts, flush=True)
"""


def clients(port: int, token: str, key: str) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", CLIENTS, str(port), token, f"/t/{key}/events"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.strip() == "connected", line
    return process


def stop_clients(process: subprocess.Popen) -> list[int]:
    out, _ = process.communicate("", timeout=60)
    return [int(n) for n in out.split()[1:]]


def actions_per_second(records: list, wall: float) -> float:
    return sum(r.plies for r in records) / wall


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux: /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


#: CPU milliseconds per action of the last `beside` run: the referee's process and the server's.
CPU: dict[str, list[float]] = {"referee": [], "server": []}


def alone(games: int, jobs: int, out: Path) -> tuple[float, list[int]]:
    t0, c0 = time.perf_counter(), time.process_time()
    trio.run(lambda: run(soak_config(games), out, concurrency=jobs))
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    records = read_journal(out)
    CPU["referee"].append(cpu / sum(r.plies for r in records) * 1e3)
    return actions_per_second(records, wall), []


def beside(games: int, jobs: int, out: Path) -> tuple[float, list[int]]:
    """The soak watched by `hexarena serve` in another process and three clients."""
    server = start_server(["serve", str(out)])
    try:
        watching = clients(server.port, server.token, out.name)
        t0, s0 = time.perf_counter(), cpu_seconds(server.process.pid)
        trio.run(lambda: run(soak_config(games), out, concurrency=jobs))
        wall = time.perf_counter() - t0
        records = read_journal(out)
        speed = actions_per_second(records, wall)
        time.sleep(0.5)                              # the last events reach the clients
        CPU["server"].append((cpu_seconds(server.process.pid) - s0) / sum(r.plies for r in records) * 1e3)
    finally:
        server.stop(signal.SIGINT)
    return speed, stop_clients(watching)


def inside(games: int, jobs: int, out: Path) -> tuple[float, list[int]]:
    """The soak with the server in its own trio loop (as `tournament --serve`) and three clients."""
    token = new_token()
    result: dict = {}

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, watch_app([out], token), "127.0.0.1", 0)
            assert url("127.0.0.1", port, token)
            watching = await trio.to_thread.run_sync(clients, port, token, out.name)
            t0 = time.perf_counter()
            await run(soak_config(games), out, concurrency=jobs)
            wall = time.perf_counter() - t0
            result["speed"] = actions_per_second(read_journal(out), wall)
            await trio.sleep(0.5)
            nursery.cancel_scope.cancel()
        result["events"] = stop_clients(watching)

    trio.run(main)
    return result["speed"], result["events"]


def throughput(games: int, jobs: int, rounds: int) -> list[dict]:
    modes = {"alone": alone, "hexarena serve beside, 3 clients": beside, "server inside (--serve), 3 clients": inside}
    speeds: dict[str, list[float]] = {m: [] for m in modes}
    events: dict[str, list[int]] = {m: [] for m in modes}
    for r in range(rounds):
        for mode, measure in modes.items():
            with TemporaryDirectory() as tmp:
                speed, heard = measure(games, jobs, Path(tmp) / "soak")
            speeds[mode].append(speed)
            events[mode] = heard
            print(f"round {r + 1}: {mode}: {speed:.0f} actions/s; events per client {heard}", file=sys.stderr)
    base = statistics.median(speeds["alone"])
    return [{"run": mode, "actions/s (median)": f"{statistics.median(s):.0f}",
             "each round": " ".join(f"{x:.0f}" for x in s), "x alone": f"{statistics.median(s) / base:.3f}",
             "events/client": str(min(events[mode], default=0))} for mode, s in speeds.items()]


RECORD = """window.paints = []; window.firsts = new Set();
new MutationObserver((changes) => changes.forEach((c) => {
  if (c.type !== 'attributes' || !c.target.matches('svg.hexboard')) return;
  const card = c.target.closest('.live-game');
  const first = !window.firsts.has(card.dataset.game);
  window.firsts.add(card.dataset.game);
  const since = card.dataset.since ? Number(card.dataset.since) : NaN;
  window.paints.push([Date.now() - since * 1000, first]);
})).observe(document.getElementById('live-games'), {attributes: true, attributeFilter: ['data-ply'], subtree: true});"""


def page_metrics(driver) -> dict[str, float]:
    driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    metrics = driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return {m["name"]: m["value"] for m in metrics}


def browser(updates: int) -> list[dict]:
    from tests.support.chromium import chromium
    config = """seed = 3
games_per_pair = 1000
[engines.mcts]
player = "mcts:0.05s"
[engines.greedy]
player = "greedy"
[[games]]
game = "spelde"
size = 5
"""
    with TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "t.toml").write_text(config, encoding="utf-8")
        out = root / "out"
        tournament = subprocess.Popen([sys.executable, "-m", "hexarena", "tournament", str(root / "t.toml"),
                                       "--out", str(out), "-j", "2", "-q"], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
        server = start_server(["serve", str(out)])
        try:
            with chromium() as driver:
                driver.execute_cdp_cmd("Performance.enable", {})
                driver.get(server.url)
                driver.get(f"http://127.0.0.1:{server.port}/t/out/")
                driver.execute_script(RECORD)
                marks = {}
                t0 = time.monotonic()
                while (n := driver.execute_script("return window.paints.length")) < updates:
                    if n >= 50 and 50 not in marks:
                        marks[50] = page_metrics(driver)
                    assert time.monotonic() - t0 < 1800 and tournament.poll() is None, "too few updates"
                    time.sleep(0.5)
                marks[n] = page_metrics(driver)
                paints = driver.execute_script("return window.paints")
        finally:
            server.stop(signal.SIGINT)
            tournament.send_signal(signal.SIGTERM)
            tournament.wait(timeout=120)
    lat = [ms for ms, first in paints if not first and ms == ms]
    rows = [{"figure": "answer -> board change p50", "value": f"{percentile(lat, 0.5):.0f}", "unit": "ms"},
            {"figure": "answer -> board change p90", "value": f"{percentile(lat, 0.9):.0f}", "unit": "ms"},
            {"figure": "answer -> board change p99", "value": f"{percentile(lat, 0.99):.0f}", "unit": "ms"},
            {"figure": "answer -> board change max", "value": f"{max(lat):.0f}", "unit": "ms"}]
    for n, m in sorted(marks.items()):
        rows.append({"figure": f"page JS heap after {n} updates", "value": f"{m['JSHeapUsedSize'] / 1e6:.2f}",
                     "unit": "MB"})
        rows.append({"figure": f"page DOM nodes after {n} updates", "value": f"{m['Nodes']:.0f}", "unit": ""})
    print(f"browser: {len(paints)} board paints ({len(lat)} timed) in {time.monotonic() - t0:.0f} s",
          file=sys.stderr)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_serve", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="soak games per run (default 300)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="workers (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three runs (default 2)")
    parser.add_argument("--updates", type=int, default=1000, help="board paints in the browser (default 1000)")
    args = parser.parse_args(argv)
    base = baseline_us()
    print(f"soak {args.games} games of Spelde n=6, -j {args.jobs}, {args.rounds} rounds; baseline {base:.0f} us")
    print(table(throughput(args.games, args.jobs, args.rounds)), flush=True)
    print(f"CPU per action: the referee's process alone {statistics.median(CPU['referee']):.3f} ms, "
          f"hexarena serve beside it {statistics.median(CPU['server']):.3f} ms (medians over the rounds)", flush=True)
    if args.updates:
        print(table(browser(args.updates)), flush=True)


if __name__ == "__main__":
    main()
