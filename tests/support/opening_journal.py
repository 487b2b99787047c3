"""A journal of game pairs played from openings, as a tournament with an openings book and
`random_openings` leaves it: seeded random games played out by the rules, void games and a void
game replayed among them. For the openings statistics' tests and bench/bench_openings.py."""
from __future__ import annotations

import random
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.results.record.game import Ending, GameRecord, VoidCause
from hexarena.results.record.journal import JournalWriter
from hexarena.results.record.moves import moves_of_lists

ENGINES = ("alpha", "beta", "gamma")


def book_lines(game: str, size: int, count: int, plies: int, seed: int) -> list[tuple[str, ...]]:
    """`count` distinct random lines of `plies` actions that leave the game going."""
    info = registry.get(game)
    rng = random.Random(seed)
    out: list[tuple[str, ...]] = []
    while len(out) < count:
        state, line = info.new_game(info.variant(size), 0), []
        for _ in range(plies):
            action = state.random_action(rng)
            line.append(state.format(action))
            state = state.play(action)
        if state.outcome() is None and tuple(line) not in out:
            out.append(tuple(line))
    return out


def build_journal(path: Path, game: str = "spelde", size: int = 4, book: int = 3, book_plies: int = 1,
                  random_plies: int = 1, rounds: int = 2, seed: int = 7, cap: int = 60) -> int:
    """Write the journal at `path`: for each round and book line, a fresh random tail of
    `random_plies`, then one game pair per pairing of ENGINES (seats exchanged). Every seventh
    game is journaled void first and then replayed; the last game has no partner. Returns the
    records written."""
    info = registry.get(game)
    variant = info.variant(size)
    words = info.describe(variant).partition(" ")[2]
    rng = random.Random(seed)
    lines = book_lines(game, size, book, book_plies, seed)
    written = index = pair = 0
    with JournalWriter(path) as journal:
        for _ in range(rounds):
            for line in lines:
                opening = line + _tail(info, variant, line, random_plies, rng)
                for a, b in [(x, y) for i, x in enumerate(ENGINES) for y in ENGINES[i + 1:]]:
                    for first, second in ((a, b), (b, a)):
                        gid = f"{game}-{size}/{index:04d}"
                        if index % 7 == 3:
                            journal.append(GameRecord.voided(gid, game, size, words, first, second,
                                                             VoidCause.START, "engine failed to start",
                                                             pair=pair))
                            written += 1
                        journal.append(_played(info, variant, words, gid, first, second, opening, pair, rng, cap))
                        written += 1
                        index += 1
                    pair += 1
        first, second = ENGINES[:2]
        journal.append(_played(info, variant, words, f"{game}-{size}/{index:04d}", first, second,
                               lines[0] + _tail(info, variant, lines[0], random_plies, rng), None, rng, cap))
    return written + 1


def _tail(info, variant, line: tuple[str, ...], plies: int, rng: random.Random) -> tuple[str, ...]:
    while True:
        state = info.new_game(variant, 0)
        for token in line:
            state = state.play(state.parse(token))
        tail = []
        for _ in range(plies):
            action = state.random_action(rng)
            tail.append(state.format(action))
            state = state.play(action)
        if state.outcome() is None:
            return tuple(tail)


def _played(info, variant, words: str, gid: str, first: str, second: str, opening: tuple[str, ...],
            pair: int | None, rng: random.Random, cap: int) -> GameRecord:
    state = info.new_game(variant, 0)
    actions = []
    for token in opening:
        state = state.play(state.parse(token))
        actions.append(token)
    while state.outcome() is None and len(actions) < cap:
        action = state.random_action(rng)
        actions.append(state.format(action))
        state = state.play(action)
    outcome = state.outcome() or state.adjudicate()
    winner = {Colour.BLACK: first, Colour.WHITE: second, None: None}[outcome.winner]
    return GameRecord(id=gid, game=info.id, size=variant.size, variant=words, first=first, second=second,
                      black=first, white=second, winner=winner, result=outcome.result(),
                      termination=Ending(outcome.termination.value), plies=len(actions),
                      moves=moves_of_lists(actions), opening=len(opening), pair=pair)
