"""Adjudication: what it saves and what it gets wrong, `mcts:200` against itself.

    python -m bench.bench_adjudication [--games N] [--game G] [--size S] [--player P] [-j J]
                                       (default 200 games of Spelde n=5, J = cores)

Plays one schedule three times through a real tournament run
(``referee.tournament.run``, engines kept between games, each reseeded per
game): without adjudication (every game played out), with
``[adjudication] resign_winrate = 0.95, resign_moves = 4`` (two-sided),
and with the same one-sided (`two_sided = false`); the draw rule at its
defaults (from ply 200). The built-in players are deterministic per seed,
so a game of the played-out run is the same game as its namesake of an
adjudicated run, continued to its end; the bench checks that it is (an
adjudicated game's actions are the first actions of the played-out one,
and a game not adjudicated is played identically) and counts the
adjudicated results that differ from the played-out result: the
adjudication's errors.

Figures, per run: games, mean plies, mean seconds per game, wall seconds,
adjudicated games and wrong results. Then, from the played-out run's records
alone, its analysis judged again by ``referee.game.adjudication.first_verdict``
under other thresholds (the rows marked live are the live runs' settings,
which the live runs must match game for game): adjudicated games, plies
saved, wrong results. Nothing here is a timing ratio: the figures are counts
and means.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import trio

from bench.common import table
from hexarena.engine import registry
from hexarena.engine.actions import holders_after
from hexarena.engine.core import Colour
from hexarena.referee.game.adjudication import Adjudication, Verdict, first_verdict
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.run import run
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import read_journal

#: The live runs' [adjudication] tables: (label, table).
LIVE = [("0.95/4 two-sided", {"resign_winrate": 0.95, "resign_moves": 4}),
        ("0.95/4 one-sided", {"resign_winrate": 0.95, "resign_moves": 4, "two_sided": False})]
#: Settings judged again over the played-out games: (label, rules).
SETTINGS = [(f"{label} (live)", Adjudication(**table)) for label, table in LIVE] + [
    ("0.90/2 two-sided", Adjudication(resign_winrate=0.9, resign_moves=2)),
    ("0.95/2 two-sided", Adjudication(resign_moves=2)),
    ("0.99/4 two-sided", Adjudication(resign_winrate=0.99, resign_moves=4)),
    ("0.95/8 one-sided", Adjudication(resign_moves=8, two_sided=False)),
    ("0.99/8 one-sided", Adjudication(resign_winrate=0.99, resign_moves=8, two_sided=False)),
]


def bench_config(games: int, game: str, size: int, player: str, table: dict | None) -> config_mod.TournamentConfig:
    data: dict = {"seed": 41, "games_per_pair": games, "time": {"move": 120},
                  "engines": {"a": {"player": player}, "b": {"player": player}},
                  "games": [{"game": game, "size": size}]}
    if table is not None:
        data["adjudication"] = table
    return config_mod.from_dict(data, "bench_adjudication")


def play(config: config_mod.TournamentConfig, out: Path, jobs: int) -> tuple[list[GameRecord], float]:
    """The whole records of a run of `config` in `out`, and its wall seconds."""
    t0 = time.perf_counter()
    trio.run(lambda: run(config, out, concurrency=jobs))
    return [r for r in read_journal(out) if not r.void], time.perf_counter() - t0


def movers(record: GameRecord) -> list[int]:
    """The seat (0: `first`) that chose each action of the record, through the rules (a swap moves colours)."""
    info = registry.get(record.game)
    state = info.new_game(info.variant(record.size, tuple(record.variant.split())), record.komi or 0)
    holder, out = {Colour.BLACK: 0, Colour.WHITE: 1}, []
    for move in record.moves or ():
        action = state.parse(move.action)
        out.append(holder[state.to_move])
        holder = holders_after(holder, action)
        state = state.play(action)
    return out


def judged(record: GameRecord, rules: Adjudication) -> Verdict | None:
    """The verdict `rules` give over a played-out game before its end, or None."""
    analysis = [None if m.analysis is None else list(m.analysis) for m in record.moves or ()]
    verdict = first_verdict(rules, movers(record), analysis, record.opening)
    return verdict if verdict is not None and verdict.ply < record.plies else None


def winner_of(record: GameRecord, verdict: Verdict) -> str | None:
    return None if verdict.winner is None else (record.first, record.second)[verdict.winner]


def run_row(label: str, records: list[GameRecord], wall: float, wrong: int | str) -> dict[str, object]:
    adjudicated = sum(r.termination == "adjudicated" for r in records)
    return {"run": label, "games": len(records), "mean plies": f"{statistics.fmean(r.plies for r in records):.1f}",
            "mean s/game": f"{statistics.fmean(r.seconds for r in records):.2f}", "wall s": f"{wall:.0f}",
            "adjudicated": adjudicated, "wrong": wrong}


def compare(adjudicated: list[GameRecord], played: list[GameRecord],
            rules: Adjudication) -> tuple[int, int, int, int]:
    """(adjudicated games, wrong results, games that start like their played-out namesake, live/offline
    disagreements) over the games both runs played, the adjudicated one under `rules`."""
    by_id = {r.id: r for r in played}
    count = wrong = same = differ = 0
    for r in adjudicated:
        full = by_id.get(r.id)
        if full is None or full.tokens is None or r.tokens is None:
            continue
        mine, theirs = r.tokens, full.tokens
        same += theirs[:len(mine)] == mine and (r.termination == "adjudicated" or theirs == mine)
        offline = judged(full, rules)
        live = r.adjudication if r.termination == "adjudicated" else None
        differ += (offline.as_dict() if offline is not None else None) != live
        if r.termination == "adjudicated":
            count += 1
            wrong += r.winner != full.winner
    return count, wrong, same, differ


def settings_rows(played: list[GameRecord]) -> list[dict[str, object]]:
    total = sum(r.plies for r in played)
    rows = []
    for label, rules in SETTINGS:
        verdicts = [(r, judged(r, rules)) for r in played]
        decided = [(r, v) for r, v in verdicts if v is not None]
        saved = sum(r.plies - v.ply for r, v in decided)
        wrong = sum(winner_of(r, v) != r.winner for r, v in decided)
        rows.append({"setting": label, "adjudicated": f"{len(decided)}/{len(played)}",
                     "plies saved": f"{saved} ({100 * saved / total:.0f}%)" if total else "0",
                     "wrong": wrong, "wrong %": f"{100 * wrong / len(decided):.1f}" if decided else "-"})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_adjudication", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200; seats alternate)")
    parser.add_argument("--game", default="spelde", help="game id (default spelde)")
    parser.add_argument("--size", type=int, default=5, help="board side (default 5)")
    parser.add_argument("--player", default="mcts:200", help="the built-in player, against itself (default mcts:200)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="workers (default: cores)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and -j must be at least 1")
    def config(live: dict | None) -> config_mod.TournamentConfig:
        return bench_config(args.games, args.game, args.size, args.player, live)

    with TemporaryDirectory() as tmp:
        played, wall = play(config(None), Path(tmp) / "played", args.jobs)
        rows, notes = [run_row("played out", played, wall, "-")], []
        for n, (label, live) in enumerate(LIVE):
            records, wall = play(config(live), Path(tmp) / f"live{n}", args.jobs)
            count, wrong, same, differ = compare(records, played, Adjudication(**live))
            rows.append(run_row(label, records, wall, wrong))
            notes.append(f"{label}: {same} of {len(records)} games start like (or, not adjudicated, are) their "
                         f"played-out namesake; the judge over the played-out records disagrees with the live run "
                         f"on {differ}; wrong results: {wrong} of {count} adjudicated")
    print(f"adjudication bench: {args.player} against itself, {args.game} n={args.size}, {args.games} games a run, "
          f"-j {args.jobs}")
    print(table(rows))
    print("\n".join(notes))
    print()
    print("the played-out games judged again under other settings (no game replayed)")
    print(table(settings_rows(played)))


if __name__ == "__main__":
    main()
