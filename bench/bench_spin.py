"""The channel's spin against an engine that answers after D microseconds: the referee's CPU per command.

    python -m bench.bench_spin [--delays US,...] [--spins US,...] [--commands N] [--rounds R]

One child process per delay answers each command after D microseconds of
busy work (an engine computing its move; D = 0: a `play` answered at once).
The referee's side is an ``EngineChannel`` over the pipe fast path
(referee/engines/eager.py) whose spin is set, round after round, to each
value of --spins (0: one non-blocking try, then the answer is awaited in
trio). Each round runs N commands per spin, interleaved, so a change of the
machine's load hits every spin alike; figures are medians over the rounds:
the referee process's CPU per command (``time.process_time``: its own, not
the child's) and the wall time per command.

A spin pays when its CPU is below the awaited path's (spin 0) at the same
delay. Look at the load average printed: on a loaded machine ``sched_yield``
hands the core to the engine, so a spin costs little CPU even while it
waits; on an idle one a spin that misses is CPU burnt.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import trio

from bench.common import table
from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.engines.eager import EagerReceive, EagerSend

CHILD = r'''
import os, sys, time
read = sys.stdin.buffer.readline
delay = float(sys.argv[1]) * 1e-6
while True:
    line = read()
    if not line:
        break
    cid = line.split()[0]
    end = time.perf_counter() + delay
    while time.perf_counter() < end:
        pass
    os.write(1, b"=" + cid + b" \n\n")
'''


async def measure(delays: list[int], spins: list[float], n: int, rounds: int) -> dict[tuple[int, float], list]:
    """(delay, spin) -> [(CPU us, wall us) per command, one per round]."""
    out: dict[tuple[int, float], list] = {}
    for delay in delays:
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(delay)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, bufsize=0)
        assert child.stdin is not None and child.stdout is not None
        receive = EagerReceive(trio.lowlevel.FdStream(os.dup(child.stdout.fileno())))
        channel = EngineChannel(EagerSend(trio.lowlevel.FdStream(os.dup(child.stdin.fileno()))), receive, "echo")
        try:
            for _ in range(rounds):
                for spin in spins:
                    receive.spin = spin
                    c0, t0 = time.process_time(), time.perf_counter()
                    for _ in range(n):
                        await channel.command("name", deadline=trio.current_time() + 10)
                    out.setdefault((delay, spin), []).append(
                        ((time.process_time() - c0) / n * 1e6, (time.perf_counter() - t0) / n * 1e6))
        finally:
            await channel.aclose_streams()
            child.stdin.close()
            child.wait()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_spin", description=__doc__.split("\n")[0])
    parser.add_argument("--delays", default="0,100,300,1000,3000", help="the engine's answer delays, us")
    parser.add_argument("--spins", default="0,50,200", help="the spins to compare, us")
    parser.add_argument("--commands", type=int, default=200, help="commands per spin per round (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    args = parser.parse_args(argv)
    try:
        delays = [int(x) for x in args.delays.split(",")]
        spins = [float(x) * 1e-6 for x in args.spins.split(",")]
    except ValueError:
        parser.error("--delays and --spins: microseconds, separated by commas")
    if args.commands < 1 or args.rounds < 1 or min(delays) < 0 or min(spins) < 0:
        parser.error("--commands and --rounds at least 1; delays and spins not negative")
    results = trio.run(measure, delays, spins, args.commands, args.rounds)
    rows = []
    for delay in delays:
        row = {"answer after us": str(delay)}
        for spin in spins:
            cpu = statistics.median(c for c, _ in results[(delay, spin)])
            wall = statistics.median(w for _, w in results[(delay, spin)])
            row[f"spin {spin * 1e6:g}: CPU us"] = f"{cpu:.1f}"
            row[f"spin {spin * 1e6:g}: wall us"] = f"{wall:.0f}"
        rows.append(row)
    print(f"load {os.getloadavg()[0]:.1f}; medians over {args.rounds} interleaved rounds of {args.commands} "
          "commands: the referee's CPU and wall time per command")
    print(table(rows))


if __name__ == "__main__":
    main()
