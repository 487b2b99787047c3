"""Reading a long tournament's journal: `hexarena ratings` and `hexarena status` at 10,000 and
100,000 games with analysis.

    python -m bench.bench_reading [--games 10000,100000] [--keep DIR]

Writes a tournament folder per size: the saved config of a round-robin of eight players at Spelde
n=6 (`games_per_pair` chosen to reach the size) and a journal of that schedule's games, each a
seeded random game whose every action carries an info line with a winrate, visits, depth and a pv
of eight actions (about 9 KB a line, as an analysing engine leaves it), written by the record's
own `to_json`. Then runs each command as a user does (a process of its own) and prints its wall
time, CPU (user and system) and peak memory (the child's maximum resident set), the run of
median CPU of three, with:

* the floor: the same journal's lines only iterated in this process (no decoding);
* the journal read whole (every line decoded, every move checked: what a reader of moves pays)
  and read as summaries (what ratings and status read), one record at a time, in this process;
* of the summaries, the scan checking each line's moves (`moves_text()`) alone.

* `hexarena serve` on the folder (127.0.0.1): the size of a folder page's first message (the
  snapshot event) once the server has read the whole journal, the seconds until then from the
  start, and the server's peak resident memory (VmHWM) at that point.

Goals: `ratings` and `status` under 1 s and under 100 MB at 10,000 games, linear beyond; serve's
first message for a folder under 100 KB at any size.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import table
from hexarena.engine import registry
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.folder import CONFIG_NAME
from hexarena.referee.tournament.schedule import schedule
from hexarena.results.record.game import Ending, GameRecord
from hexarena.results.record.journal import JOURNAL_NAME, iter_journal, journal_lines
from hexarena.results.record.moves import Move, moves_text

PLAYERS = [f"p{k}" for k in range(1, 9)]
GAME, SIZE = "spelde", 6
MOVES_KEY = b', "moves": '

PAIRS = len(PLAYERS) * (len(PLAYERS) - 1) // 2


def config_text(per_pair: int) -> str:
    engines = "\n".join(f'[engines.{p}]\nplayer = "random"' for p in PLAYERS)
    return (f"games_per_pair = {per_pair}\n[time]\nmove = 1\n{engines}\n"
            f'[[games]]\ngame = "{GAME}"\nsizes = [{SIZE}]\n')


def templates(count: int, seed: int) -> list[tuple[Move, ...]]:
    """`count` random games of Spelde n=6 as moves, each action with one info line."""
    rng = random.Random(seed)
    info = registry.get(GAME)
    out = []
    for _ in range(count):
        state = info.new_game(info.variant(SIZE), 0)
        moves = []
        while state.outcome() is None and state.ply < 40:
            action = state.random_action(rng)
            token = state.format(action)
            pv = [token] * 8
            winrate = round(rng.random(), 4)
            line = f"info winrate {winrate} visits {rng.randrange(100, 5000)} depth {rng.randrange(3, 20)} pv {' '.join(pv)}"
            analysis = ({"line": line, "winrate": winrate, "visits": 1000, "depth": 9, "pv": pv},)
            moves.append(Move(token, "BW"[state.ply % 2], round(rng.random() * 0.2, 4), round(60 - state.ply * 0.1, 3),
                              analysis))
            state = state.play(action)
        out.append(tuple(moves))
    return out


def build(folder: Path, games: int, seed: int = 1) -> tuple[int, int]:
    """The folder of about `games` games; returns the games written and the journal's bytes."""
    per_pair = -(-games // PAIRS)
    per_pair += per_pair % 2
    text = config_text(per_pair)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.toml").write_text(text, encoding="utf-8")
    config = config_mod.load(folder / "t.toml")
    (folder / CONFIG_NAME).write_text(json.dumps(config_mod.to_dict(config)), encoding="utf-8")
    rng = random.Random(seed)
    shapes = templates(40, seed)
    written = 0
    with open(folder / JOURNAL_NAME, "w", encoding="utf-8") as fh:
        for g in schedule(config):
            moves = shapes[written % len(shapes)]
            winner = rng.choice((g.first, g.second))
            record = GameRecord(id=g.id, game=g.game, size=g.size, variant=g.variant, first=g.first,
                                second=g.second, black=g.first, white=g.second, winner=winner,
                                result="B+" if winner == g.first else "W+", termination=Ending.NO_MOVES,
                                plies=len(moves), started="2026-01-01T00:00:00Z", seconds=1.0, pair=g.pair,
                                identities=[[g.first, "1.0"], [g.second, "1.0"]], moves=moves)
            fh.write(record.to_json() + "\n")
            written += 1
    return written, (folder / JOURNAL_NAME).stat().st_size


def run_command(args: list[str], runs: int = 3) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user and system) and peak resident MB of one command run as its
    own process: the median run of `runs` by CPU (a busy machine stretches the wall time)."""
    done = sorted((_run_once(args) for _ in range(runs)), key=lambda r: r[1])
    return done[len(done) // 2]


def _run_once(args: list[str]) -> tuple[float, float, float]:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "hexarena", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"hexarena {' '.join(args)} exited {proc.returncode}:\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def first_message(port: int, token: str, key: str) -> bytes:
    """The first Server-Sent Event of the folder's event stream, as sent."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", f"/t/{key}/events", headers={"Cookie": f"hexarena-{port}={token}"})
        answer = connection.getresponse()
        data = b""
        while b"\n\n" not in data and (chunk := answer.read1(65536)):
            data += chunk
        return data[: data.find(b"\n\n") + 2]
    finally:
        connection.close()


def serve_first(folder: Path, games: int) -> tuple[int, float, float]:
    """`hexarena serve FOLDER`: the first message's bytes once it counts every game, the seconds
    from the start until then, and the server's peak resident MB then."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "hexarena", "serve", str(folder)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        found = re.match(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", proc.stdout.readline())
        if found is None:
            raise SystemExit("hexarena serve printed no address")
        port, token = int(found.group(1)), found.group(2)
        while True:
            message = first_message(port, token, folder.name)
            if json.loads(message.split(b"data: ", 1)[1])["finished_count"] >= games:
                break
            time.sleep(0.1)
        wall = time.perf_counter() - t0
        peak = next(int(line.split()[1]) for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                    if line.startswith("VmHWM:"))
        return len(message), wall, peak / 1024
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10000,100000", help="journal sizes, comma-separated")
    parser.add_argument("--keep", type=Path, help="a folder to keep the journals in")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.games.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-reading-") as tmp:
        root = args.keep or Path(tmp)
        for n in sizes:
            folder = root / f"t{n}"
            games, size = build(folder, n)
            journal = folder / JOURNAL_NAME
            floor = timed(lambda: sum(1 for _ in journal_lines(journal)))
            whole = timed(lambda: sum(1 for _ in iter_journal(journal)))
            summaries = timed(lambda: sum(1 for _ in iter_journal(journal, summary=True)))
            scan = timed(lambda: sum(1 for _, line in journal_lines(journal)
                                     if moves_text().fullmatch(line, line.find(MOVES_KEY) + len(MOVES_KEY))))
            ratings, ratings_cpu, ratings_mb = run_command(["ratings", str(folder)])
            status, status_cpu, status_mb = run_command(["status", str(folder)])
            first, served, served_mb = serve_first(folder, games)
            rows.append({"games": games, "journal MB": f"{size / 1e6:.0f}",
                         "ratings s": f"{ratings:.2f}", "ratings CPU s": f"{ratings_cpu:.2f}",
                         "ratings MB": f"{ratings_mb:.0f}", "status s": f"{status:.2f}",
                         "status CPU s": f"{status_cpu:.2f}", "status MB": f"{status_mb:.0f}",
                         "lines only s": f"{floor:.2f}", "read whole s": f"{whole:.2f}",
                         "summaries s": f"{summaries:.2f}", "moves scan s": f"{scan:.2f}", "serve 1st KB": f"{first / 1e3:.1f}",
                         "serve read s": f"{served:.2f}", "serve MB": f"{served_mb:.0f}",
                         "us/game (ratings)": f"{ratings / games * 1e6:.0f}"})
    print(f"hexarena ratings and status on journals with analysis; load average {os.getloadavg()[0]:.1f}")
    print(table(rows))


if __name__ == "__main__":
    main()
