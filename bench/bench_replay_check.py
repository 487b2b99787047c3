"""The coordinator's replay check of a cluster worker's record (hexarena/cluster_check.py): its cost per game.

    python -m bench.bench_replay_check [GAMES_PER_PAIR]

Plays a small local tournament (built-in `random` vs `greedy`, `-j 2`) over the five
games at two sizes each, then times `refusal(record, scheduled game)` on every record:
the replay of its actions through the rules from the initial position, and the
checks of colours, result, winner and termination.

Figures, per game and size:
* games, plies     records checked, their mean plies.
* ms/check         median time of one check (median over 5 rounds of all records of the row).
* us/ply           ms/check per ply.
* % of game        ms/check / the game's own mean wall time (engines, referee), in percent.
* / baseline       ms/check as a ratio to bench.common.baseline_us().
The check runs on the coordinator, once per game, in a thread beside the journal writer.
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from statistics import mean
from tempfile import TemporaryDirectory

from bench.common import baseline_us, median_of, table
from hexarena.cluster_check import refusal
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.schedule import schedule
from hexarena.results.record.game import GameRecord

SIZES = {"spelde": (5, 7), "anda": (4, 5), "anda-prison": (4, 5), "vaxandis": (4, 5), "marbanta": (4, 5)}


def config_text(games_per_pair: int) -> str:
    games = "".join(f'[[games]]\ngame = "{g}"\nsizes = [{a}, {b}]\n' for g, (a, b) in SIZES.items())
    return (f"seed = 3\ngames_per_pair = {games_per_pair}\n[time]\nmove = 10\n"
            f'[engines.random]\nplayer = "random"\n[engines.greedy]\nplayer = "greedy"\n{games}')


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games_per_pair = int(args[0]) if args else 4
    with TemporaryDirectory(prefix="bench-replay-") as tmp:
        folder = Path(tmp)
        (folder / "t.toml").write_text(config_text(games_per_pair), encoding="utf-8")
        subprocess.run([sys.executable, "-m", "hexarena", "tournament", "t.toml", "--out", "out", "-j", "2", "-q",
                        "--no-preflight"], cwd=folder, check=True, capture_output=True)
        scheduled = {g.id: g for g in schedule(config_mod.load(folder / "t.toml"))}
        records = [GameRecord.from_dict(json.loads(line)) for line in (folder / "out" / "journal.jsonl").open()]
    rows_of: dict[tuple[str, int], list[GameRecord]] = defaultdict(list)
    for record in records:
        if not record.void:
            rows_of[record.game, record.size].append(record)
    base = baseline_us()
    rows = []
    for (game, size), group in sorted(rows_of.items()):
        pairs = [(r, scheduled[r.id]) for r in group]
        assert all(refusal(r, g) is None for r, g in pairs), f"{game} n={size}: a real record was refused"
        seconds = median_of(lambda: [refusal(r, g) for r, g in pairs], repeat=5) / len(pairs)
        plies = mean(r.plies for r in group)
        rows.append({"game": game, "n": size, "games": len(group), "plies": f"{plies:.0f}",
                     "ms/check": f"{seconds * 1e3:.2f}", "us/ply": f"{seconds * 1e6 / max(plies, 1):.0f}",
                     "% of game": f"{100 * seconds / mean(r.seconds for r in group):.2f}",
                     "/ baseline": f"{seconds * 1e6 / base:.1f}"})
    print(f"baseline: {base:.0f} us; {len(records)} games, random vs greedy, games_per_pair={games_per_pair}")
    print(table(rows))


if __name__ == "__main__":
    main()
