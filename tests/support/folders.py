"""A tournament folder as the referee leaves it (journal.jsonl and games/*.sgf, written by the
record's own SGF writer) from seeded random games of the five games, for the report's tests.
bench/bench_report.py times the report on such folders. :func:`tiny_journal` writes many
one-ply games quickly, for the readers of long journals."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.results.page import replay_cache
from hexarena.results.record.game import Ending, GameRecord
from hexarena.results.record.moves import moves_of_lists
from hexarena.results.record.journal import JournalWriter
from hexarena.results.record.sgf import sgf_text

PLAYERS = ("alpha", "beta", "gamma", "delta")


def build_folder(folder: Path, games: int, seed: int = 1, cap: int = 80, remember: bool = False,
                 long: bool = False) -> float:
    """A tournament folder of `games` seeded random games (`cap` plies at most each) at each game's
    smallest recommended size; `long`: at each of its recommended sizes in turn instead, capped at
    the referee's own ply cap (random Anda games of 150-450 plies, Vaxandis games at their caps of
    300-800). With `remember`, each
    game's entry in the report's cache too, written as the referee writes it (from the states
    played). Returns the seconds spent writing those entries."""
    spent = 0.0
    rng = random.Random(seed)
    ids = registry.playable()
    (folder / "games").mkdir(parents=True, exist_ok=True)
    with JournalWriter(folder / "journal.jsonl") as journal:
        for k in range(games):
            gid = ids[k % len(ids)]
            info = registry.get(gid)
            sizes = sorted(info.sizes)
            size = sizes[k // len(ids) % len(sizes)] if long else sizes[0]
            limit = info.ply_cap(size) if long else cap
            first, second = rng.sample(PLAYERS, 2)
            variant = info.variant(size)
            state = info.new_game(variant, 0)
            actions: list[tuple[Colour, str]] = []
            states, played = [state], []
            while state.outcome() is None and len(actions) < limit:
                action = state.random_action(rng)
                actions.append((state.to_move, state.format(action)))
                state = state.play(action)
                states.append(state)
                played.append(action)
            outcome = state.outcome() or state.adjudicate()
            if outcome.termination is Termination.PLY_CAP and rng.random() < 0.3:
                outcome = Outcome(rng.choice((Colour.BLACK, Colour.WHITE)), Termination.RESIGN)
            winner = {Colour.BLACK: first, Colour.WHITE: second, None: None}[outcome.winner]
            record = GameRecord(
                id=f"{gid}-{size}/{k:04d}", game=gid, size=size, variant=info.describe(variant).partition(" ")[2],
                first=first, second=second, black=first, white=second, winner=winner, result=outcome.result(),
                termination=Ending(outcome.termination.value), plies=len(actions),
                sgf=f"games/{gid}-{size}-{k:04d}.sgf",
                moves=moves_of_lists([a for _, a in actions], colours="".join(c.letter for c, _ in actions)))
            text = sgf_text(record, info.sgf_number)
            (folder / record.sgf).write_text(text, encoding="utf-8")
            journal.append(record)
            if remember:
                t0 = time.perf_counter()
                replay_cache.remember(folder, record, text, states, played)
                spent += time.perf_counter() - t0
    return spent


def tiny_journal(folder: Path, games: int) -> list[str]:
    """`games` one-ply journal lines of two players (game 7 void, then replayed at the end), written
    from one record's line; the ids in the order their last lines stand."""
    line = GameRecord(id="ID", game="spelde", size=4, variant="", first="a", second="b", black="a", white="b",
                      winner="a", result="B+R", termination=Ending("resign"), plies=1).to_json()
    void = json.loads(line) | {"winner": None, "result": "Void", "termination": "void", "reason": "crash"}
    ids = [f"spelde-4/{k:06d}" for k in range(games)]
    with open(folder / "journal.jsonl", "w", encoding="utf-8") as out:
        for k, game_id in enumerate(ids):
            text = json.dumps(void | {"id": game_id}) if k == 7 else line.replace('"ID"', json.dumps(game_id), 1)
            out.write(text + "\n")
        out.write(line.replace('"ID"', json.dumps(ids[7]), 1) + "\n")
    return ids[:7] + ids[8:] + [ids[7]]
