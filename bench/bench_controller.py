"""The controller's overhead per command round trip, against a raw pipe round trip.

    python -m bench.bench_controller [ROUND_TRIPS]

Both figures talk to the same kind of minimal echo engine (a Python child
process answering `=ID ` to every command, see ECHO):

* raw pipe      plain blocking ``os.write`` of `1 name\\n` and ``os.read``
                until the terminating empty line (no ids, no parsing, no
                deadline): the floor any controller pays for two process
                switches.
* trio pipe     the same exchange on trio's process streams (``send_all``,
                ``receive_some``), no deadline, no parsing: trio's own
                floor (epoll wake-up and a scheduler pass per answer).
* controller, no fast path  the same without referee/eager.py's wrapper
                (every answer waits in trio).
* controller    ``EngineChannel.command("name", deadline=...)`` through
                referee/process.py on trio: id allocation, encoding,
                the deadline scope, ResponseReader, id check.

Each figure is the median of 5 batches of ROUND_TRIPS (default 2000) round
trips, in microseconds. Goal: controller / raw pipe within 2x; the
controller's own share is controller minus trio pipe. Ratios to
bench.common.baseline_us() measured in the same run are printed beside.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import baseline_us, table
from hexarena.referee.process import EngineProcess

ECHO = r'''
import os, sys
read = sys.stdin.buffer.readline
while True:
    line = read()
    if not line:
        break
    words = line.split()
    cid = words[0] if words and words[0].isdigit() else b""
    os.write(1, b"=" + cid + b" \n\n")
    if b"quit" in words:
        break
'''
BATCHES = 5


def raw_pipe(n: int) -> list[float]:
    """Seconds per round trip, one figure per batch, with blocking os.write/os.read."""
    proc = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    fin, fout = proc.stdin.fileno(), proc.stdout.fileno()
    out = []
    try:
        for _ in range(BATCHES):
            t0 = time.perf_counter()
            for _ in range(n):
                os.write(fin, b"1 name\n")
                data = b""
                while not data.endswith(b"\n\n"):
                    data += os.read(fout, 65536)
            out.append((time.perf_counter() - t0) / n)
    finally:
        proc.stdin.close()
        proc.wait()
    return out


def trio_pipe(n: int) -> list[float]:
    """Seconds per round trip, one figure per batch, on bare trio process streams."""
    out: list[float] = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            proc = await nursery.start(partial(trio.run_process, [sys.executable, "-c", ECHO],
                                               stdin=subprocess.PIPE, stdout=subprocess.PIPE))
            for _ in range(BATCHES):
                t0 = time.perf_counter()
                for _ in range(n):
                    await proc.stdin.send_all(b"1 name\n")
                    data = b""
                    while not data.endswith(b"\n\n"):
                        data += await proc.stdout.receive_some(65536)
                out.append((time.perf_counter() - t0) / n)
            await proc.stdin.aclose()

    trio.run(main)
    return out


def controller(n: int, eager: bool = True) -> list[float]:
    """Seconds per round trip, one figure per batch, through EngineChannel on trio
    (`eager`: with the pipe fast path of referee/eager.py)."""
    out: list[float] = []

    async def main() -> None:
        with TemporaryDirectory() as tmp:
            async with trio.open_nursery() as nursery:
                engine = await EngineProcess.start(nursery, [sys.executable, "-c", ECHO], Path(tmp, "echo.log"),
                                                   "echo", eager=eager)
                try:
                    channel = engine.channel
                    for _ in range(BATCHES):
                        t0 = time.perf_counter()
                        for _ in range(n):
                            await channel.command("name", deadline=trio.current_time() + 10)
                        out.append((time.perf_counter() - t0) / n)
                finally:
                    await engine.aclose()

    trio.run(main)
    return out


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 2000
    base = baseline_us()
    raw = statistics.median(raw_pipe(n)) * 1e6
    bare = statistics.median(trio_pipe(n)) * 1e6
    ctl = statistics.median(controller(n)) * 1e6
    slow = statistics.median(controller(n, eager=False)) * 1e6
    rows = [
        {"measure": "raw pipe round trip", "us": f"{raw:.1f}", "x baseline": f"{raw / base:.3f}"},
        {"measure": "trio pipe round trip", "us": f"{bare:.1f}", "x baseline": f"{bare / base:.3f}"},
        {"measure": "controller round trip", "us": f"{ctl:.1f}", "x baseline": f"{ctl / base:.3f}"},
        {"measure": "controller, no fast path", "us": f"{slow:.1f}", "x baseline": f"{slow / base:.3f}"},
        {"measure": "controller - raw pipe", "us": f"{ctl - raw:.1f}", "x baseline": f"{(ctl - raw) / base:.3f}"},
        {"measure": "controller - trio pipe", "us": f"{ctl - bare:.1f}", "x baseline": f"{(ctl - bare) / base:.3f}"},
    ]
    print(f"round trips: {BATCHES} batches of {n}; baseline {base:.0f} us")
    print(table(rows))
    print(f"controller / raw pipe: {ctl / raw:.2f}x (goal: within 2x); controller / trio pipe: {ctl / bare:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
