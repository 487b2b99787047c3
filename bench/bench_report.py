"""`hexarena report` on a tournament folder of N games: time and file size.

    python -m bench.bench_report [GAMES] [--keep DIR]
    python -m bench.bench_report --long [GAMES] [--keep DIR]

Builds a folder as a tournament leaves it (journal.jsonl and games/*.sgf,
records written by the referee's own SGF writer) from seeded random games
of the five games at their smallest recommended sizes among four players,
then times:

* replay only   every SGF read and replayed through the rules (the baseline:
                the least any report that draws positions must do)
* report, cold  the whole page with no cache: replay, compact per-ply data,
                ratings, tables, template; on one core and in worker processes
* from the cache file  a later `hexarena report` of the same folder
* refresh       a second report with the same ReplayCache (what a running
                tournament pays per refresh)
* after a tournament  `python -m hexarena report DIR` run as a user runs it
                (a new process: interpreter, imports, page), cold (no page,
                and no cache but the entries the referee wrote at each
                game's end: the folder is built again with them, written as
                the referee writes them, from the states it played);
                beside it the referee's cost of writing those entries, per
                game, and `hexarena report --rebuild` (every record replayed
                in worker processes, the entries written anew)

and prints the page's size. Goals: a report from the cache under ~2 s for
1,000 games; after a tournament under 0.5 s wall.

`--long`: a folder of long games instead: each game in turn at each of its recommended sizes,
played at random up to the referee's own ply cap (Anda of 150-450 plies, Vaxandis of 300-800 at
its cap), with the plies per game and size printed; then, per game, the CPU of the Python replay's
parts (the SGF parse, the rules' steps, the viewer data) beside the report's own replay
(`record_data`: one call of the compiled core per record where it replays), and the whole cold
report in this process on one core (the page alone, from the viewer data in memory; the replays
alone) and as `hexarena report DIR` (a new process, its replay threads or workers included in
its CPU). Goal: the cold report of 1,000 such games under 2 s of CPU.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import table
from hexarena.results.page.html_report import write_report
from hexarena.results.page.replay import replay_record
from hexarena.results.page.record_data import core_replays, record_data
from hexarena.results.page.replay_cache import CACHE_NAME, ReplayCache
from hexarena.results.page.replay_data import game_data
from hexarena.results.record.journal import read_journal
from hexarena.results.record.sgf import parse_sgf
from tests.support.folders import build_folder

def main() -> None:
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        keep = Path(args[args.index("--keep") + 1])
        del args[args.index("--keep"):args.index("--keep") + 2]
    long = "--long" in args
    args = [a for a in args if a != "--long"]
    games = int(args[0]) if args else 1000
    if long:
        long_games(games, keep)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        t0 = time.perf_counter()
        build_folder(folder, games)
        built = time.perf_counter() - t0
        t0, c0 = time.perf_counter(), time.process_time()
        for sgf in sorted((folder / "games").glob("*.sgf")):
            replay_record(sgf.read_text(encoding="utf-8"))
        replay_only, replay_cpu = time.perf_counter() - t0, time.process_time() - c0
        cpu: list[float] = []

        def timed(make_cache) -> tuple[float, ReplayCache]:
            t0, c0 = time.perf_counter(), time.process_time()
            cache = make_cache()
            write_report(folder, cache=cache)
            cpu.append(time.process_time() - c0)
            return time.perf_counter() - t0, cache

        (folder / CACHE_NAME).unlink(missing_ok=True)
        cold_parallel, _ = timed(lambda: ReplayCache(folder, parallel=True, persist=False))
        cold, _ = timed(lambda: ReplayCache(folder, parallel=False))   # writes the cache file
        warm, cache = timed(lambda: ReplayCache(folder))                # a later `hexarena report`
        refresh, _ = timed(lambda: cache)
        path, count = folder / "report.html", games
        size = path.stat().st_size
        print(f"{count} games, folder built in {built:.1f} s")
        rows = [("replay only, one core (baseline)", replay_only, replay_cpu),
                (f"report, cold, {os.cpu_count()} replay " + ("threads" if core_replays() else "worker processes"),
                 cold_parallel, None),
                ("report, cold, one core", cold, cpu[1]),
                ("report, from the cache file", warm, cpu[2]), ("refresh, cache in memory", refresh, cpu[3])]
        print(table([{"step": step, "wall s": f"{t:.2f}", "CPU s": "-" if c is None else f"{c:.2f}",
                      "wall ratio": f"{t / replay_only:.2f}"} for step, t, c in rows]))
        print("(CPU s: this process only; on a busy machine wall time exceeds it)")
        print(f"report.html: {size / 1024:.0f} KiB ({size / count:.0f} bytes per game)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        entries = build_folder(folder, games, remember=True)
        cli = [sys.executable, "-m", "hexarena", "report", str(folder)]
        after, after_cpu = _timed(cli)
        rebuild, rebuild_cpu = _timed(cli + ["--rebuild"])
        print(table([
            {"step": "after a tournament: `hexarena report` (a new process)", "wall s": f"{after:.2f}",
             "CPU s": f"{after_cpu:.2f}", "wall ratio": f"{after / replay_only:.2f}"},
            {"step": "`hexarena report --rebuild` (a new process)", "wall s": f"{rebuild:.2f}",
             "CPU s": f"{rebuild_cpu:.2f}", "wall ratio": f"{rebuild / replay_only:.2f}"},
            {"step": "the referee: an entry written at a game's end, per game", "wall s": f"{entries / games:.4f}",
             "CPU s": "", "wall ratio": ""}]))
        print(f"(wall ratio: to `replay only` above; CPU s: the command's process and its children; "
              f"load {os.getloadavg()[0]:.1f})")


def long_games(games: int, keep: Path | None) -> None:
    """The `--long` bench (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        if not (folder / "journal.jsonl").is_file():
            build_folder(folder, games, long=True)
        plies: dict[str, list[int]] = {}
        for record in read_journal(folder / "journal.jsonl"):
            plies.setdefault(f"{record.game} n={record.size}", []).append(record.plies)
        print(f"{games} long games: plies per game (min / median / max), by game and size")
        print(table([{"game": key, "games": len(p), "min": min(p), "median": sorted(p)[len(p) // 2], "max": max(p),
                      "plies": sum(p)} for key, p in sorted(plies.items())]))
        total = sum(map(sum, plies.values()))
        print(table(_replay_parts(folder, plies)))
        print("(CPU s in this process; Python: the SGF parse, replay_record's time less the parse (the rules' "
              "steps and the loop around them) and game_data; core: record_data, the whole record in one call "
              + ("of the compiled core" if core_replays() else "(no core with replay_record: the Python path)") + ")")
        (folder / CACHE_NAME).unlink(missing_ok=True)
        c0 = time.process_time()
        cache = ReplayCache(folder, parallel=False, persist=False)
        write_report(folder, cache=cache)
        cold = time.process_time() - c0
        c0 = time.process_time()
        write_report(folder, cache=cache)
        page = time.process_time() - c0
        c0 = time.process_time()
        ReplayCache(folder, parallel=False, persist=False).games([str(r.sgf) for r in read_journal(folder, summary=True)])
        replays = time.process_time() - c0
        cli = [sys.executable, "-m", "hexarena", "report", str(folder)]
        wall, cpu = _timed(cli)
        (folder / CACHE_NAME).unlink(missing_ok=True)
        size = (folder / "report.html").stat().st_size
        print(table([
            {"step": "report, cold, one core, in this process", "CPU s": f"{cold:.2f}", "wall s": "",
             "us/ply": f"{cold / total * 1e6:.1f}"},
            {"step": "of which the page alone (journal, ratings, template: the viewer data in memory)",
             "CPU s": f"{page:.2f}", "wall s": "", "us/ply": f"{page / total * 1e6:.1f}"},
            {"step": "of which the replays (every record read and replayed, one core)",
             "CPU s": f"{replays:.2f}", "wall s": "", "us/ply": f"{replays / total * 1e6:.1f}"},
            {"step": "`hexarena report DIR`, cold (a new process, workers included)", "CPU s": f"{cpu:.2f}",
             "wall s": f"{wall:.2f}", "us/ply": f"{cpu / total * 1e6:.1f}"}]))
        print(f"report.html: {size / 1024:.0f} KiB; load {os.getloadavg()[0]:.1f}; goal: under 2 s of CPU")


def _replay_parts(folder: Path, plies: dict[str, list[int]]) -> list[dict]:
    """Per game, the CPU of the Python replay's parts and of the replay the report makes
    (record_data: the core's one call where it replays), and their ratio."""
    parts: dict[str, list[float]] = {}
    texts = [(sgf.name.rsplit("-", 2)[0], sgf.read_text(encoding="utf-8"))
             for sgf in sorted((folder / "games").glob("*.sgf"))]
    for game, text in texts:
        c0 = time.process_time()
        parse_sgf(text)
        c1 = time.process_time()
        replay = replay_record(text)
        c2 = time.process_time()
        game_data(replay)
        c3 = time.process_time()
        del replay
        spent = parts.setdefault(game, [0.0] * 4)
        for k, cost in enumerate((c1 - c0, c2 - c1 - (c1 - c0), c3 - c2)):
            spent[k] += cost
    for game, text in texts:                # apart: the Python replay's garbage would be collected in its time
        c0 = time.process_time()
        record_data(text)
        parts[game][3] += time.process_time() - c0
    counts = {game: sum(sum(p) for key, p in plies.items() if key.split()[0] == game) for game in parts}
    parts["all"] = [sum(p[k] for p in parts.values()) for k in range(4)]
    counts["all"] = sum(counts.values())
    rows = []
    for game, (parse, rules, data, ours) in sorted(parts.items(), key=lambda kv: kv[0] == "all"):
        count, python = counts[game], parse + rules + data
        rows.append({"game": game, "plies": count, "Python: parse / rules / data s": f"{parse:.2f} / {rules:.2f} / {data:.2f}",
                     "Python us/ply": f"{python / count * 1e6:.1f}", "report's replay s": f"{ours:.2f}",
                     "us/ply": f"{ours / count * 1e6:.2f}", "ratio": f"{ours / python:.3f}"})
    return rows


def _timed(argv: list[str]) -> tuple[float, float]:
    """Seconds of wall time and of CPU (the process and its children) of the command `argv`,
    which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


if __name__ == "__main__":
    main()
