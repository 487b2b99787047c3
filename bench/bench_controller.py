"""The controller's cost per command round trip, against raw pipe round trips.

    python -m bench.bench_controller [ROUND_TRIPS]

Every figure talks to the same kind of minimal echo engine (a Python child
process answering `=ID ` to every command, see ECHO), one child per row:

* raw pipe       blocking ``os.write`` of `1 name\\n` and ``os.read`` until
                 the terminating empty line (no ids, no parsing, no
                 deadline): the floor a plain controller pays for two
                 process switches, each a sleep and a wake-up.
* raw pipe, polled  the same with a non-blocking read retried with
                 ``sched_yield`` (as referee/engines/eager.py polls): the floor of a
                 controller that spins instead of sleeping.
* trio pipe      the same exchange on trio's process streams
                 (``send_all``, ``receive_some``): trio's own floor (an epoll
                 wake-up and a scheduler pass per answer).
* controller     ``EngineChannel.command("name", deadline=...)`` through
                 referee/engines/process.py with the pipe fast path of
                 referee/engines/eager.py: id, encoding, the deadline, decoding, id check.
* controller, no fast path  the same with ``eager=False`` (every answer
                 waits in trio, under a cancel scope).
* controller alone  the controller's own CPU per command, no pipe and no
                 process: the channel over an in-process echo that answers
                 inside the fast path's ``send_now``/``receive_now``.

The machine is shared, so the rows are measured interleaved: each of 7
rounds runs one batch of ROUND_TRIPS (default 2000) of every row in turn,
so a change of load hits every row alike. Figures are medians over the
rounds, in microseconds; ratios are medians of the per-round ratios. Look
at the load (``uptime``) too: on an idle machine a blocking read pays the
wake-up of an idle core and the polled rows win; under load the spin finds
the core taken and the rows converge.

Goal: controller / raw pipe within 2x.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import baseline_us, table
from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.engines.eager import EagerReceive, EagerSend
from hexarena.referee.engines.process import EngineProcess

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
ROUNDS = 7

Batch = Callable[[int], Awaitable[float]]     # n round trips -> seconds per round trip


def _echo_child() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def raw_pipe(proc: subprocess.Popen, polled: bool) -> Batch:
    """Round trips with plain os.write/os.read on `proc`'s pipes; `polled`: a non-blocking
    read retried after sched_yield, else a blocking read."""
    assert proc.stdin is not None and proc.stdout is not None
    fin, fout = proc.stdin.fileno(), proc.stdout.fileno()
    os.set_blocking(fout, not polled)

    async def batch(n: int) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            os.write(fin, b"1 name\n")
            data = b""
            while not data.endswith(b"\n\n"):
                try:
                    data += os.read(fout, 65536)
                except BlockingIOError:
                    os.sched_yield()
        return (time.perf_counter() - t0) / n
    return batch


def trio_pipe(proc: trio.Process) -> Batch:
    """Round trips on bare trio process streams."""
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    async def batch(n: int) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            await stdin.send_all(b"1 name\n")
            data = b""
            while not data.endswith(b"\n\n"):
                data += await stdout.receive_some(65536)
        return (time.perf_counter() - t0) / n
    return batch


def commands(channel: EngineChannel) -> Batch:
    """Round trips of EngineChannel.command."""
    async def batch(n: int) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            await channel.command("name", deadline=trio.current_time() + 10)
        return (time.perf_counter() - t0) / n
    return batch


class _EchoSend(EagerSend):
    """The fast path's send side of an in-process echo: keeps the answer for `_EchoReceive`."""

    def __init__(self) -> None:
        self.answer = b""

    def send_now(self, data: bytes | bytearray | memoryview) -> bytes:
        self.answer = b"=" + bytes(data).split(b" ", 1)[0] + b" \n\n"
        return b""

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await trio.lowlevel.checkpoint_if_cancelled()
        self.send_now(data)


class _EchoReceive(EagerReceive):
    def __init__(self, send: _EchoSend) -> None:
        self.send = send

    def receive_now(self, max_bytes: int = 65536, spin: bool = True) -> bytes | None:
        data, self.send.answer = self.send.answer, b""
        return data

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await trio.lowlevel.checkpoint_if_cancelled()
        return self.receive_now() or b""


def in_process() -> EngineChannel:
    """A channel whose every command is answered inside the fast path, without I/O (the
    awaited methods answer the same way, for a channel that does not use the fast path)."""
    send = _EchoSend()
    return EngineChannel(send, _EchoReceive(send), "echo")


ROWS = ["raw pipe", "raw pipe, polled", "trio pipe", "controller", "controller, no fast path",
        "controller alone (no I/O)"]


def measure(n: int) -> dict[str, list[float]]:
    """Seconds per round trip of every row, one figure per round, the rows interleaved."""
    times: dict[str, list[float]] = {row: [] for row in ROWS}

    async def main() -> None:
        blocking, polled = _echo_child(), _echo_child()
        try:
            with TemporaryDirectory() as tmp:
                async with trio.open_nursery() as nursery:
                    bare = await nursery.start(partial(trio.run_process, [sys.executable, "-c", ECHO],
                                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE))
                    fast = await EngineProcess.start(nursery, [sys.executable, "-c", ECHO],
                                                     Path(tmp, "fast.log"), "echo")
                    slow = await EngineProcess.start(nursery, [sys.executable, "-c", ECHO],
                                                     Path(tmp, "slow.log"), "echo", eager=False)
                    try:
                        batches = dict(zip(ROWS, [
                            raw_pipe(blocking, polled=False), raw_pipe(polled, polled=True), trio_pipe(bare),
                            commands(fast.channel), commands(slow.channel), commands(in_process()),
                        ]))
                        for row, batch in batches.items():        # warm up
                            await batch(max(1, n // 10))
                        for _ in range(ROUNDS):
                            for row, batch in batches.items():
                                times[row].append(await batch(n))
                    finally:
                        await fast.aclose()
                        await slow.aclose()
                        assert bare.stdin is not None
                        await bare.stdin.aclose()
        finally:
            for proc in (blocking, polled):
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait()

    trio.run(main)
    return times


def ratio(times: dict[str, list[float]], a: str, b: str) -> float:
    """Median over the rounds of row a / row b."""
    return statistics.median(x / y for x, y in zip(times[a], times[b]))


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 2000
    load = os.getloadavg()[0]
    base = baseline_us()
    times = measure(n)
    us = {row: statistics.median(t) * 1e6 for row, t in times.items()}
    rows = [{"measure": row, "us": f"{us[row]:.1f}", "range": f"{min(times[row]) * 1e6:.1f}-{max(times[row]) * 1e6:.1f}",
             "x raw pipe": f"{ratio(times, row, 'raw pipe'):.2f}", "x baseline": f"{us[row] / base:.3f}"}
            for row in ROWS]
    print(f"round trips: {ROUNDS} rounds of {n} per row, interleaved; baseline {base:.0f} us; "
          f"load average {load:.2f} before")
    print(table(rows))
    print(f"controller / raw pipe: {ratio(times, 'controller', 'raw pipe'):.2f}x (goal: within 2x); "
          f"/ raw pipe, polled: {ratio(times, 'controller', 'raw pipe, polled'):.2f}x; "
          f"/ trio pipe: {ratio(times, 'controller', 'trio pipe'):.2f}x; "
          f"load average {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main(sys.argv[1:])
