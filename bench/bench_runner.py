"""The runner against its peer: hexarena's own cost per move beside fastchess's, in one run.

    python -m bench.bench_runner [--games N] [--rounds R] [--fastchess PATH] [--stockfish PATH] [--engine PATH]
                                 [--beyond] [--keep DIR]

Plays, one after the other, as child processes run from the command line as
a user runs them:

* hexarena: `hexarena tournament` of N games (default 100) between two kept
  `random` players (the built-in player: it answers `genmove` at once;
  `restart = "fault"`, so each slot keeps its two processes), or two kept
  copies of the program `--engine PATH` (`--engine c-kit`: the C kit's example
  engine, a random player in C, built here: it spends a few us a move where the
  Python one spends 100-300), default time
  limits (no clock: `genmove` and `play` per move, no `time_left`), with the
  pre-flight, `-q`; Spelde n=6 and Anda n=9, at `-j 1` and `-j 2`;
* fastchess, when `--fastchess PATH` names its binary (docs/bench.md says how
  to build it): N games between two Debian `stockfish` engines (`apt-get
  install stockfish`; `--stockfish` names another) at `nodes=1`, reused
  (fastchess's default, `restart=off`), `-games 2 -rounds N/2`, at
  `-concurrency 1` and `2`.

Figures, per row:

* runner CPU/move   the runner's user + system CPU over the moves of all its
                    games (plies; for chess, half-moves of its PGN's
                    PlyCount tags): its own process's (from /proc/PID/stat,
                    read once it has exited and before it is reaped; its
                    engines excluded) plus, for hexarena on worker processes
                    (`-j 2`), the workers' (their /proc/PID/stat, sampled
                    every SAMPLE seconds while they run: the last sample
                    of each, so at most SAMPLE seconds of each worker's end
                    are missed). `own` is the runner's own process alone.
* engines us        the CPU per move of everything else the run's process
                    tree spent (its reaped descendants' CPU, RUSAGE_CHILDREN,
                    less the runner's figure): its engines, and for
                    hexarena its pre-flight's engines, its guardian
                    (referee/engines/leftovers.py) and the workers' last
                    SAMPLE seconds. Both runners share two cores with
                    their engines: what an engine spends a move is what
                    its runner's games cannot use.
* moves/s           moves over the run's wall time (process start to exit).
* games/s j2/j1     games/s at `-j 2` over games/s at `-j 1`.
* fixed cost        start to first game (the process's start to the first
                    game's start) and last game to exit (the last game's
                    end to the process's exit). hexarena: a game's start is
                    its SGF file's time less the record's `seconds`, its end
                    the journal's last write; fastchess: its `Started game`
                    and `Finished game` lines, timed as they arrive.

Before the runs, hexarena's modules are compiled to bytecode (as an installed
package has them; an environment with PYTHONDONTWRITEBYTECODE would otherwise
make every process of every run compile them again: ~0.25 s each).

and the ratio of hexarena's CPU per move and moves/s to fastchess's at the
same `-j`. With `--beyond`, each run is paired with a short one of N/5 games
(at least 2) just before it, and `beyond us` is the CPU per move beyond a
run's fixed cost: the two runs' difference in CPU over their difference in
moves (a Python runner's interpreter, imports and end weigh on a run of short
games as they weigh on nothing a user plays for hours), with its ratio to
fastchess's. Both runners share the machine with their engines: at `-j 2` on
two cores the engines take what the runner leaves. Runs are sized by
`--games` (each row is one run; 100 games of each take ~1-2 minutes in all
on the 2-core reference machine when it is quiet). `--rounds R` plays all
the runs R times over, one round after the other (a stretch of a busy host
then weighs on both runners), and prints each figure's median; each ratio
is taken within its round (to that round's fastchess run) and shown as its
median with its range.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench.common import table
from tests.support.bytecode import compile_package
from hexarena.results.record.journal import read_journal

TICK = os.sysconf("SC_CLK_TCK")
GAMES = (("spelde", 6), ("anda", 9))
SAMPLE = 0.02           # seconds between two readings of the worker processes' CPU
WORKER = b"hexarena.worker"


def _stat_cpu(pid: int | str) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICK       # utime, stime (fields 14, 15 of stat(5))


def is_worker(pid: int | str) -> bool:
    """A runner's worker process: ``python -m hexarena.worker``, or forked and named so (its comm)."""
    with open(f"/proc/{pid}/comm", "rb") as fh:
        if fh.read().strip() == WORKER:
            return True
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return WORKER in fh.read()


class WorkersCpu(threading.Thread):
    """The CPU of a runner's worker processes (its children running `python -m hexarena.worker`, or
    forked and named ``hexarena.worker``),
    sampled from /proc every SAMPLE seconds until :meth:`stop`; :attr:`seconds` sums the last
    sample of each."""

    def __init__(self, runner: int):
        super().__init__(daemon=True)
        self.runner, self.seen, self.done = runner, {}, threading.Event()

    def run(self) -> None:
        while not self.done.wait(SAMPLE):
            try:
                tasks = os.listdir(f"/proc/{self.runner}/task")
            except OSError:
                return
            for task in tasks:
                try:
                    with open(f"/proc/{self.runner}/task/{task}/children", encoding="ascii") as fh:
                        children = fh.read().split()
                except OSError:
                    continue
                for pid in children:
                    try:
                        if pid not in self.seen and not is_worker(pid):
                            continue
                        self.seen[pid] = _stat_cpu(pid)
                    except (OSError, ValueError, IndexError):
                        pass

    def stop(self) -> float:
        self.done.set()
        self.join()
        return sum(self.seen.values())


def reaped_cpu() -> float:
    """Seconds of user + system CPU of this process's reaped children and of their own reaped
    descendants (``RUSAGE_CHILDREN``): taken before a run and after it, the CPU of its whole tree."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu_at_exit(proc: subprocess.Popen) -> float:
    """Seconds of user + system CPU of `proc` itself (not its children), read from /proc once it has
    exited and before it is reaped (waitid with WNOWAIT); then reaps it."""
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
    cpu = _stat_cpu(proc.pid)
    proc.wait()
    return cpu


def hexarena_config(game: str, size: int, games: int, engine: str | list[str] | None = None,
                    ply_cap: int | None = None) -> str:
    """Two kept engines: the built-in `random` player, or the program `engine` (a path, or a
    command line as a list) on both sides; each game cut at `ply_cap` plies when given."""
    argv = [engine] if isinstance(engine, str) else engine
    side = f"cmd = {json.dumps(argv)}" if argv else 'player = "random"'
    return (f"games_per_pair = {games}\n"
            f'[engines.a]\n{side}\nrestart = "fault"\n'
            f'[engines.b]\n{side}\nrestart = "fault"\n'
            f'[[games]]\ngame = "{game}"\nsizes = [{size}]\n' + (f"ply_cap = {ply_cap}\n" if ply_cap else ""))


def run_hexarena(game: str, size: int, games: int, jobs: int, work: Path, engine: str | list[str] | None = None,
                 python: str = sys.executable, ply_cap: int | None = None) -> dict:
    """One `hexarena tournament` run in `work` (its current folder, so that `python` imports the
    hexarena it has installed, not a checkout's beside the bench), by the interpreter `python`;
    its figures."""
    config, out = work / f"{game}-{jobs}.toml", work / f"{game}-{size}-j{jobs}"
    config.write_text(hexarena_config(game, size, games, engine, ply_cap), encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    argv = [python, "-m", "hexarena", "tournament", str(config), "--out", str(out), "-j", str(jobs), "-q"]
    start, before = time.time(), reaped_cpu()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=work)
    assert proc.stderr is not None
    workers = WorkersCpu(proc.pid)
    workers.start()
    err = proc.stderr.read()
    cpu = own_cpu_at_exit(proc)
    end, tree = time.time(), reaped_cpu() - before
    workers_cpu = workers.stop()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{err.decode(errors='replace')}")
    records = read_journal(out)
    first = min((out / str(r.sgf)).stat().st_mtime - r.seconds for r in records if r.sgf)
    last = (out / "journal.jsonl").stat().st_mtime
    return {"runner": "hexarena", "game": f"{game} n={size}", "j": jobs, "games": len(records),
            "moves": sum(r.plies for r in records), "cpu": cpu + workers_cpu, "own": cpu,
            "engines": tree - cpu - workers_cpu, "wall": end - start,
            "to first": first - start, "to exit": end - last, "void": sum(r.void for r in records)}


def pgn_moves(text: str) -> int:
    """Half-moves in a PGN file written by fastchess: the sum of its games' PlyCount tags."""
    return sum(int(n) for n in re.findall(r'^\[PlyCount "(\d+)"\]', text, re.M))


def run_fastchess(binary: str, stockfish: str, games: int, jobs: int, work: Path) -> dict:
    """One fastchess run of `games` games at `-concurrency jobs` in `work`; its figures."""
    pgn = work / f"fastchess-j{jobs}.pgn"
    pgn.unlink(missing_ok=True)
    argv = [binary, "-engine", f"cmd={stockfish}", "name=sf1", "-engine", f"cmd={stockfish}", "name=sf2",
            "-each", "proto=uci", "tc=inf", "nodes=1", "-rounds", str(max(1, games // 2)), "-games", "2",
            "-concurrency", str(jobs), "-pgnout", f"file={pgn}"]
    starts: list[float] = []
    ends: list[float] = []
    start, before = time.time(), reaped_cpu()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=work)
    assert proc.stdout is not None
    tail: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            now, line = time.time(), raw.decode(errors="replace")
            if line.startswith("Started game"):
                starts.append(now)
            elif line.startswith("Finished game"):
                ends.append(now)
            tail[:] = (tail + [line])[-20:]
    reader = threading.Thread(target=read)
    reader.start()
    cpu = own_cpu_at_exit(proc)
    end, tree = time.time(), reaped_cpu() - before
    reader.join()
    if proc.returncode != 0 or not starts or not ends:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{''.join(tail)}")
    return {"runner": "fastchess", "game": "chess, stockfish nodes=1", "j": jobs, "games": len(ends),
            "moves": pgn_moves(pgn.read_text(encoding="utf-8", errors="replace")), "cpu": cpu, "own": cpu,
            "engines": tree - cpu,
            "wall": end - start, "to first": min(starts) - start, "to exit": end - max(ends), "void": 0}


def c_kit_engine(folder: Path) -> Path:
    """The C kit's example engine, built into `folder` (tests/support/kits.py); SystemExit when it cannot be."""
    from tests.support import kits
    if (missing := kits.tools_missing()) is not None:
        raise SystemExit(f"--engine c-kit: {missing}")
    return kits.c_engine(folder)


def figures(results: list[dict]) -> list[dict]:
    """One round's figures, a dict per run: CPU and own CPU per move (us), moves/s, the ratios to
    the same round's fastchess run at the same -j (None without one), games/s at -j 2 over -j 1."""
    peer = {r["j"]: r for r in results if r["runner"] == "fastchess"}
    by = {(r["runner"], r["game"], r["j"]): r for r in results}
    out = []
    for r in results:
        per_move = r["cpu"] / max(r["moves"], 1)
        rate = r["moves"] / r["wall"]
        one = by.get((r["runner"], r["game"], 1))
        fc = peer.get(r["j"]) if r["runner"] != "fastchess" else None
        beyond, peer_beyond = _beyond(r), _beyond(fc) if fc else None
        out.append({
            "key": (r["runner"], r["game"], r["j"]), "games": r["games"], "moves": r["moves"], "cpu": per_move * 1e6,
            "cpu x": per_move / (fc["cpu"] / fc["moves"]) if fc else None, "own": r["own"] / max(r["moves"], 1) * 1e6,
            "engines": r["engines"] / max(r["moves"], 1) * 1e6,
            "rate": rate, "rate x": rate / (fc["moves"] / fc["wall"]) if fc else None,
            "scale": (r["games"] / r["wall"]) / (one["games"] / one["wall"]) if one and r["j"] == 2 else None,
            "first": r["to first"], "exit": r["to exit"], "beyond": beyond,
            "beyond x": beyond / peer_beyond if beyond is not None and peer_beyond else None})
    return out


def _beyond(r: dict) -> float | None:
    """CPU per move (us) beyond the run's fixed cost: against its short run, when it has one."""
    short = r.get("short")
    if short is None or r["moves"] <= short["moves"]:
        return None
    return (r["cpu"] - short["cpu"]) / (r["moves"] - short["moves"]) * 1e6


def rows(rounds: list[list[dict]]) -> list[dict]:
    """The table: one row per run of the first round, each figure the median over the rounds; with
    several rounds, the ratios to fastchess and j2/j1 also give their range (each round's ratio is
    to that round's fastchess run)."""
    per_round = [{f["key"]: f for f in figures(results)} for results in rounds]

    def shown(key: tuple, name: str, fmt: str, spread: bool = False) -> str:
        values = [r[key][name] for r in per_round if key in r and r[key][name] is not None]
        if not values:
            return ""
        text = format(statistics.median(values), fmt)
        return text + f" ({min(values):{fmt}}-{max(values):{fmt}})" if spread and len(values) > 1 else text

    out = []
    for key in per_round[0]:
        runner, game, jobs = key
        first = per_round[0][key]
        out.append({
            "runner": runner, "game": game, "-j": str(jobs), "games": str(first["games"]),
            "moves": str(first["moves"]), "CPU/move us": shown(key, "cpu", ".0f"),
            "x fc": shown(key, "cpu x", ".1f", True), "own us": shown(key, "own", ".0f"),
            "engines us": shown(key, "engines", ".0f"),
            "moves/s": shown(key, "rate", ",.0f"), "x fc ": shown(key, "rate x", ".2f", True),
            "games/s j2/j1": shown(key, "scale", ".2f", True),
            "start->1st s": shown(key, "first", ".2f"), "last->exit s": shown(key, "exit", ".2f")})
        if first["beyond"] is not None:
            out[-1] |= {"beyond us": shown(key, "beyond", ".0f"), "x fc  ": shown(key, "beyond x", ".1f", True)}
    return out


def _paired(games: int, short: int, run: Callable[[int], dict]) -> dict:
    """`run` of `games` games, after a run of `short` games (0: none) kept as its "short"."""
    first = run(short) if short else None
    result = run(games)
    if first is not None:
        result["short"] = first
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_runner", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per run (default 100)")
    parser.add_argument("--fastchess", help="the fastchess binary (none: hexarena's rows only)")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish",
                        help="the engine fastchess runs (default: Debian's stockfish)")
    parser.add_argument("--engine", help="an HGP engine program hexarena's runs play on both sides, or `c-kit`: the C "
                        "kit's example engine (core/examples/hgp_engine.c), built with cargo and cc (default: the "
                        "built-in random player)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of all the runs, one after the other (default "
                        "1); each figure is then the median over the rounds, each ratio with its range")
    parser.add_argument("--beyond", action="store_true", help="pair each run with one of N/5 games: the CPU per "
                        "move beyond a run's fixed cost")
    parser.add_argument("--keep", type=Path, help="a folder to keep the runs' output in")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.fastchess and not os.access(args.fastchess, os.X_OK):
        parser.error(f"--fastchess {args.fastchess}: not an executable file")
    engine = str(Path(args.engine).resolve()) if args.engine and args.engine != "c-kit" else None
    if engine and not os.access(engine, os.X_OK):
        parser.error(f"--engine {args.engine}: not an executable file")
    rounds: list[list[dict]] = []
    short = max(2, args.games // 10 * 2) if args.beyond else 0      # the paired runs' games (even, for fastchess)
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if args.engine == "c-kit":
            engine = str(c_kit_engine(work))
        for n in range(args.rounds):
            folder = work / f"round-{n + 1}" if args.rounds > 1 else work
            folder.mkdir(exist_ok=True)
            results: list[dict] = []
            for jobs in (1, 2):
                if args.fastchess:
                    results.append(_paired(args.games, short, partial(run_fastchess, args.fastchess, args.stockfish,
                                                                      jobs=jobs, work=folder)))
                for game, size in GAMES:
                    results.append(_paired(args.games, short, partial(run_hexarena, game, size, jobs=jobs,
                                                                      work=folder, engine=engine)))
            rounds.append(results)
    load = os.getloadavg()
    print(f"runner bench: {args.games} games a run, {args.rounds} round{'s' * (args.rounds > 1)}, hexarena's engines "
          f"{engine or 'the built-in random'}, {os.cpu_count()} cores, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
          f"at the end")
    print(table(rows(rounds)))
    voids = sum(r["void"] for results in rounds for r in results)
    if voids:
        print(f"({voids} void games: see the folders with --keep)")


if __name__ == "__main__":
    main()
