"""Rating speed: 50 players x 200,000 games, from the CSV file to the printed table.

Generates the CSV in a temporary folder (random ratings, first-player
advantage, 10% draws, one pool), then times each stage in process and the
whole command in a fresh interpreter. Goal: under 0.5 s in process on 2 cores.

    python -m bench.bench_ratings [--players 50] [--games 200000]
"""
from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np

from bench.common import baseline_us, best_of, table
from hexarena.results.rating.load import load_games
from hexarena.results.rating.counts import aggregate
from hexarena.results.rating.ratings import fit
from hexarena.results.rating.report import build_reports, render_text


def write_csv(path: Path, players: int, games: int, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    names = np.array([f"engine{k:02d}" for k in range(players)])
    elo = rng.normal(0, 150, players)
    first = rng.integers(players, size=games)
    second = (first + rng.integers(1, players, size=games)) % players
    p = 1 / (1 + 10 ** (-(elo[first] - elo[second] + 35) / 400))
    u = rng.random(games)
    draw = u < 0.1
    first_won = ~draw & (rng.random(games) < p)
    winner = np.where(draw, "", np.where(first_won, names[first], names[second]))
    lines = ["game,size,first,second,winner"]
    lines += [f"spelde,7,{a},{b},{w}" for a, b, w in zip(names[first], names[second], winner)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def end_to_end(path: Path) -> str:
    games = load_games(path)
    text = render_text(build_reports(games.frame, by=()), crosstables=False)
    with redirect_stdout(io.StringIO()):
        print(text)
    return text


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--games", type=int, default=200_000)
    args = parser.parse_args()
    base = baseline_us()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.csv"
        write_csv(path, args.players, args.games)
        frame = load_games(path).frame
        counts = aggregate(frame)
        result = fit(counts)
        stages = [
            ("load CSV", lambda: load_games(path)),
            ("aggregate", lambda: aggregate(frame)),
            ("fit", lambda: fit(counts)),
            ("tables + text", lambda: render_text(build_reports(frame, by=()), crosstables=False)),
            ("CSV to printed table", lambda: end_to_end(path)),
        ]
        rows = []
        for name, fn in stages:
            seconds = best_of(fn, repeat=5)
            rows.append({"stage": name, "ms": f"{seconds * 1e3:.1f}", "x baseline": f"{seconds * 1e6 / base:.0f}"})
        code = (f"import sys; from hexarena.commands_ratings import ratings; "
                f"ratings.main([{str(path)!r}, '--pooled'], standalone_mode=False)")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL)
        cold = time.perf_counter() - t0
        rows.append({"stage": "fresh interpreter, imports included", "ms": f"{cold * 1e3:.0f}",
                     "x baseline": f"{cold * 1e6 / base:.0f}"})
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import pandas"], check=True)
        imports = time.perf_counter() - t0
        rows.append({"stage": "of which: interpreter + import pandas", "ms": f"{imports * 1e3:.0f}",
                     "x baseline": f"{imports * 1e6 / base:.0f}"})
        size_mb = path.stat().st_size / 1e6
    print(f"{args.players} players, {args.games} games ({size_mb:.1f} MB CSV), {len(counts.first)} "
          f"(first, second) rows, prior={result.prior}; baseline {base:.0f} us")
    print(table(rows))
    print()
    print("top of the table:")
    print("\n".join(render_text(build_reports(frame, by=()), crosstables=False).splitlines()[:5]))


if __name__ == "__main__":
    main()
