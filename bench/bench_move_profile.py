"""Where the runner's CPU per move goes: a sampled profile of `hexarena tournament`, part by part.

    python -m bench.bench_move_profile [--games N] [--game spelde:6] [-j 1|2] [--rate HZ] [--keep DIR]

Runs the runner bench's tournament (bench/bench_runner.py: two kept `random`
players, default time limits) once, sampled by py-spy (``pip install py-spy``;
not a dependency of hexarena) at `--rate` samples a second, its worker
processes included at `-j 2` (``--subprocesses``; the engines' samples are
dropped). A sample inside an import is "start-up: imports"; any other is put in the part of the runner named by its deepest
frame that belongs to one (:data:`PARTS`, first match from the leaf): the
channel's poll, write, framing and awaited path, the rules, the clocks, the
turn loop, live files, the live view, the journal, the game's files at its
end, the messages between workers and the runner, the engines' start and
handshake; samples in trio's own frames with no such frame below are "trio:
scheduler and I/O". Idle samples (a thread waiting for work, the event loop
blocked in epoll) are dropped.

Figures: each part's share of a process's active samples times that
process's CPU (user + system from /proc, as bench/bench_runner.py reads it:
the runner's at its exit, the workers' sampled), over the run's moves: us
per move. py-spy samples wall time while a thread runs or is runnable, so a
part that yields the core (the spin's ``sched_yield``) weighs more in
samples than in CPU; a thread blocked in ``poll(2)`` (a game alone in its loop
waiting for an answer: referee/engines/eager.py) would count as running, so
those samples are dropped as idle with the others (the read and the system
call's own CPU go with them); the totals are the /proc figures.
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_runner import WorkersCpu, hexarena_config, own_cpu_at_exit
from bench.common import table
from tests.support.bytecode import compile_package
from hexarena.results.record.journal import read_journal

#: (part, patterns): a frame ("function (path:line)") belongs to the first part one of whose
#: patterns it contains.
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("channel: spin for the answer", ("EagerReceive._poll ", "EagerReceive.receive_now ")),
    ("channel: write", ("EagerSend.", "EngineChannel._send", "FdStream.send_all")),
    ("channel: framing and answer parse", ("protocol/controller.py", "protocol/framing.py",
                                           "protocol/analysis.py")),
    ("channel: awaited answer", ("EngineChannel._await_answer", "EagerReceive.receive_some",
                                 "EngineChannel._receive_one", "FdStream.receive_some")),
    ("channel: command's own code", ("referee/engines/channel.py", "referee/engines/eager.py")),
    ("rules (read, play, outcome)", ("(engine/", "hexarena_core")),
    ("clocks", ("referee/game/clock.py", "protocol/clock")),
    ("live files", ("tournament/live_files.py",)),
    ("live view", ("referee/console/",)),
    ("journal", ("record/journal.py", "run.py:_write", "_write (referee/tournament/run.py")),
    ("game's files at its end (SGF, report entry)", ("results/page/", "record/sgf", "_write_game")),
    ("worker <-> runner messages", ("tournament/wire.py", "tournament/worker.py", "tournament/workers.py")),
    ("records and moves", ("results/record/",)),
    ("engines' start, handshake, stop", ("game/handshake.py", "tournament/pool.py", "engines/process.py",
                                         "engines/spawn.py", "engines/capped_log.py", "engines/leftovers.py",
                                         "engines/transcript.py", "tournament/preflight.py")),
    ("turn loop (match.py)", ("referee/game/",)),
    ("schedule, slots (run.py)", ("referee/tournament/",)),
)
IDLE = ("WorkerThread._work ", "EagerReceive.receive_blocking ", "EpollIOManager.get_events ", "EpollIOManager._epoll_wait ",
        "Thread.wait ", "Condition.wait ", "Event.wait ")
TRIO = "(trio/"


def part_of(frames: list[str]) -> str | None:
    """The part a sample belongs to (None: idle), from its frames, root first."""
    if any(frames[-1].startswith(idle) for idle in IDLE):
        return None
    if any("importlib" in f for f in frames):
        return "start-up: imports"
    for frame in reversed(frames):
        for part, patterns in PARTS:
            if any(p in frame for p in patterns):
                return part
    if any(TRIO in f for f in frames):
        return "trio: scheduler and I/O"
    return "other (start-up, CLI, threads)"


def process_of(frames: list[str]) -> str | None:
    """'runner', 'worker', or None (an engine, or a sample of no known process)."""
    text = ";".join(frames)
    if "hexarena/worker.py" in text or "tournament/worker.py" in text:
        return "worker"
    if "hexarena/commands_run.py" in text or "hexarena/supervise.py" in text:
        return "runner"
    return None


def samples(raw: str) -> dict[str, collections.Counter]:
    """Active samples per process kind and part, from py-spy's raw (collapsed) output."""
    out: dict[str, collections.Counter] = {"runner": collections.Counter(), "worker": collections.Counter()}
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [f for f in stack.split(";") if not f.startswith("process ")]
        kind = process_of(frames)
        part = part_of(frames) if kind else None
        if kind and part:
            out[kind][part] += int(count)
    return out


def py_spy() -> str | None:
    """py-spy's path: on PATH, or beside this interpreter (a virtual environment not activated)."""
    return shutil.which("py-spy") or shutil.which("py-spy", path=os.path.dirname(sys.executable))


def profile(game: str, size: int, games: int, jobs: int, rate: int, work: Path) -> tuple[dict, dict]:
    """Run the tournament under py-spy: (figures, active samples per process kind and part)."""
    config, out, raw = work / "profile.toml", work / f"{game}-{size}-j{jobs}", work / f"{game}-j{jobs}.txt"
    config.write_text(hexarena_config(game, size, games), encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    argv = [sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out), "-j", str(jobs), "-q"]
    start = time.time()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    spy = subprocess.Popen([py_spy() or "py-spy", "record", "--pid", str(proc.pid), "--subprocesses", "--nonblocking", "-r", str(rate),
                            "-f", "raw", "-o", str(raw)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers = WorkersCpu(proc.pid)
    workers.start()
    assert proc.stderr is not None
    err = proc.stderr.read()
    own = own_cpu_at_exit(proc)
    wall = time.time() - start
    _, said = spy.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{err.decode(errors='replace')}")
    if spy.returncode != 0 or not raw.exists():
        raise SystemExit(f"py-spy exited {spy.returncode} (it needs to trace its target: ptrace):\n"
                         f"{said.decode(errors='replace')[-2000:]}")
    records = read_journal(out)
    figures = {"moves": sum(r.plies for r in records), "games": len(records), "own": own,
               "workers": workers.stop(), "wall": wall}
    return figures, samples(raw.read_text(encoding="utf-8", errors="replace"))


def rows(figures: dict, counts: dict[str, collections.Counter]) -> list[dict]:
    """One row per part: us per move in the runner's process, in the workers, in all."""
    cpu = {"runner": figures["own"], "worker": figures["workers"]}
    moves = max(figures["moves"], 1)
    per: dict[str, dict[str, float]] = collections.defaultdict(lambda: {"runner": 0.0, "worker": 0.0})
    for kind, counter in counts.items():
        total = sum(counter.values())
        for part, n in counter.items():
            per[part][kind] = n / total * cpu[kind] / moves * 1e6 if total else 0.0
    order = [p for p, _ in PARTS] + ["trio: scheduler and I/O", "start-up: imports", "other (start-up, CLI, threads)"]
    out = []
    for part in sorted(per, key=order.index):
        r, w = per[part]["runner"], per[part]["worker"]
        out.append({"part": part, "runner us": f"{r:.1f}", "workers us": f"{w:.1f}" if cpu["worker"] else "",
                    "all us/move": f"{r + w:.1f}"})
    total = (cpu["runner"] + cpu["worker"]) / moves * 1e6
    out.append({"part": "all (CPU from /proc)", "runner us": f"{cpu['runner'] / moves * 1e6:.1f}",
                "workers us": f"{cpu['worker'] / moves * 1e6:.1f}" if cpu["worker"] else "",
                "all us/move": f"{total:.1f}"})
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_move_profile", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games in the run (default 30)")
    parser.add_argument("--game", default="spelde:6", help="GAME:SIZE (default spelde:6)")
    parser.add_argument("-j", type=int, default=1, choices=(1, 2), help="slots (2: on worker processes)")
    parser.add_argument("--rate", type=int, default=1000, help="py-spy's samples a second (default 1000)")
    parser.add_argument("--keep", type=Path, help="a folder to keep the run and py-spy's output in")
    args = parser.parse_args(argv)
    if py_spy() is None:
        parser.error("py-spy is neither on PATH nor beside this interpreter (pip install py-spy)")
    game, _, size = args.game.partition(":")
    if not size.isdigit():
        parser.error(f"--game {args.game}: expected GAME:SIZE, e.g. spelde:6")
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        figures, counts = profile(game, int(size), args.games, args.j, args.rate, work)
    load = os.getloadavg()
    print(f"move profile: {args.game} -j {args.j}, {figures['games']} games, {figures['moves']} moves, "
          f"{figures['wall']:.1f} s, py-spy at {args.rate} Hz, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(table(rows(figures, counts)))


if __name__ == "__main__":
    main()
