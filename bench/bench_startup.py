"""Engine start-up: `hexarena engine NAME` against `python -m hexarena.players NAME`.

    python -m bench.bench_startup [RUNS] [NAME]

Each figure is the median over RUNS (default 15) fresh processes of the wall
time from spawn to the answer of `1 protocol_version` (the referee's first
command; it waits for exactly this), in milliseconds. The runs of the
commands alternate, so load on the machine falls on both alike. Goal:
`hexarena engine` within 1.5x of `python -m hexarena.players`.
A bare `python -c pass` start is printed as the floor.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from bench.common import table


def commands(name: str) -> dict[str, list[str]]:
    return {
        "python -c pass (floor)": [sys.executable, "-c", "import sys; sys.stdin.readline(); print('=1 2\\n')"],
        f"python -m hexarena.players {name}": [sys.executable, "-m", "hexarena.players", name],
        f"hexarena engine {name}": [sys.executable, "-c", "from hexarena.cli import main; main()", "engine", name],
    }


def first_answer_ms(argv: list[str]) -> float:
    """Milliseconds from spawn to the first line of the answer to `protocol_version`."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"1 protocol_version\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    elapsed = (time.perf_counter() - t0) * 1000
    proc.stdin.write(b"2 quit\n")
    proc.stdin.close()
    proc.wait(timeout=30)
    if not line.startswith(b"=1 2"):
        raise RuntimeError(f"{argv}: unexpected answer {line!r}")
    return elapsed


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    runs = int(args[0]) if args else 15
    name = args[1] if len(args) > 1 else "random"
    cmds = commands(name)
    times: dict[str, list[float]] = {label: [] for label in cmds}
    for label, cmd in cmds.items():       # warm the file cache once
        first_answer_ms(cmd)
    for _ in range(runs):
        for label, cmd in cmds.items():
            times[label].append(first_answer_ms(cmd))
    players = statistics.median(times[f"python -m hexarena.players {name}"])
    rows = [{"command": label, "median ms": f"{statistics.median(t):.1f}", "min ms": f"{min(t):.1f}",
             "x players": f"{statistics.median(t) / players:.2f}"} for label, t in times.items()]
    print(f"start-up to the protocol_version answer, median of {runs} runs ({os.cpu_count()} CPUs)")
    print(table(rows))


if __name__ == "__main__":
    main()
