"""The strength the compiled core gives MCTS: `python -m bench.bench_core_strength [--games N]
[--seconds X] [-j J] [--out DIR] [--only GAME...]`.

One real tournament (`hexarena tournament`, engines as processes): `mcts` with the core
(`core`) against `mcts` without it (`python`, run with HEXARENA_CORE=0), each game at its
smallest recommended size, N games per game (pairs with seats exchanged after two fresh
random plies; in Anda after the pie fixed at ``komi=0 keep``, as lab/strength.py's ``PREFIX``:
a random komi decides most pairs by colour), X seconds a move (a move clock alone: each search may use its whole move). It prints per game the core's score (draws 1/2) with a 95%
normal interval, and in all. The core must be installed (`pip install ./core`). A run is
resumable: `--out DIR` again plays only what is missing.
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import table
from hexarena.engine import compiled, registry


#: The opening of the games whose random pie would decide them (lab/strength.py's PREFIX).
PIE_FIXED = {"anda": "komi=0 keep"}


def config_text(games: int, seconds: float, only: list[str] | None = None) -> str:
    lines = ["seed = 44", f"games_per_pair = {games}", "", "[time]", f"move = {seconds}", "",
             '[engines.core]', 'player = "mcts"', "",
             '[engines.python]', 'player = "mcts"', 'env = { HEXARENA_CORE = "0" }', ""]
    for game_id in only or registry.playable():
        info = registry.get(game_id)
        lines += ["[[games]]", f'game = "{game_id}"', f"size = {min(info.sizes)}"]
        if game_id in PIE_FIXED:
            lines.append(f'openings = ["{PIE_FIXED[game_id]}"]')
        lines += ["random_openings = 2", ""]
    return "\n".join(lines)


def scores(journal: Path) -> list[dict[str, object]]:
    per_game: dict[str, list[float]] = {}
    for line in journal.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["result"] == "Void":
            continue
        points = 1.0 if record["winner"] == "core" else 0.5 if record["winner"] is None else 0.0
        per_game.setdefault(f"{record['game']} n={record['size']}", []).append(points)
    per_game["all"] = [p for points in list(per_game.values()) for p in points]
    rows = []
    for name, points in per_game.items():
        n = len(points)
        mean = sum(points) / n
        sd = math.sqrt(sum((p - mean) ** 2 for p in points) / (n - 1)) if n > 1 else 0.0
        rows.append({"game": name, "games": n, "core score": f"{sum(points):g}/{n}",
                     "core %": f"{100 * mean:.0f}", "95% +-": f"{196 * sd / math.sqrt(n):.0f}"})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=0.2, help="seconds a move (default %(default)s)")
    parser.add_argument("-j", type=int, default=2, help="games at once (default %(default)s)")
    parser.add_argument("--out", type=Path, help="the tournament folder (default: a temporary one)")
    parser.add_argument("--only", nargs="+", choices=registry.playable(), metavar="GAME",
                        help="these games only (default: all five)")
    args = parser.parse_args()
    if compiled.active() is None:
        sys.exit("the compiled core is not installed (pip install ./core) or HEXARENA_CORE=0 is set")
    folder = args.out or Path(tempfile.mkdtemp(prefix="hexarena-strength-"))
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "strength.toml"
    config.write_text(config_text(args.games, args.seconds, args.only), encoding="utf-8")
    out = folder / "run"
    resume = ["--resume"] if (out / "journal.jsonl").exists() else []
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out),
                    "-j", str(args.j), "-q", *resume], check=True)
    print(f"mcts with the core against mcts without it, {args.seconds:g} s a move, -j {args.j}, "
          f"{time.monotonic() - started:.0f} s; folder {out}")
    print(table(scores(out / "journal.jsonl")))


if __name__ == "__main__":
    main()
