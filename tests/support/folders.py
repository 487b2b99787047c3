"""A tournament folder as the referee leaves it (journal.jsonl and games/*.sgf, written by the
referee's own SGF writer) from seeded random games of the five games, for the report's tests."""
from __future__ import annotations

import random
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.referee.match import Report
from hexarena.referee.sgf import sgf_text
from hexarena.results.records import GameRecord, JournalWriter

PLAYERS = ("alpha", "beta", "gamma", "delta")


def build_folder(folder: Path, games: int, seed: int = 1, cap: int = 80) -> None:
    """A tournament folder of `games` seeded random games (`cap` plies at most each)."""
    rng = random.Random(seed)
    ids = registry.playable()
    (folder / "games").mkdir(parents=True, exist_ok=True)
    with JournalWriter(folder / "journal.jsonl") as journal:
        for k in range(games):
            gid = ids[k % len(ids)]
            info = registry.get(gid)
            size = min(info.sizes)
            first, second = rng.sample(PLAYERS, 2)
            variant = info.variant(size)
            state = info.new_game(variant, 0)
            report = Report(info, variant, (first, second))
            while state.outcome() is None and len(report.actions) < cap:
                action = state.random_action(rng)
                report.actions.append((state.to_move, state.format(action)))
                state = state.play(action)
            report.outcome = state.outcome() or state.adjudicate()
            if report.outcome.termination is Termination.PLY_CAP and rng.random() < 0.3:
                report.outcome = Outcome(rng.choice((Colour.BLACK, Colour.WHITE)), Termination.RESIGN)
            game_id = f"{gid}-{size}/{k:04d}"
            sgf = f"games/{gid}-{size}-{k:04d}.sgf"
            (folder / sgf).write_text(sgf_text(report, game_id), encoding="utf-8")
            journal.append(GameRecord(
                id=game_id, game=gid, size=size, variant=" ".join(info.describe(variant).split()[1:]),
                first=first, second=second, black=report.name_of(Colour.BLACK), white=report.name_of(Colour.WHITE), winner=report.winner, result=report.result,
                termination=report.termination, plies=len(report.actions), sgf=sgf))
