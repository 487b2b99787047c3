"""Identical games: the same action sequence played twice by the same two engines.

Deterministic engines replay their games; a tournament without openings
then measures one game many times. Pure: a function of the records (those
that keep their actions, journal schema with ``actions``).
"""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from hexarena.results.record.game import GameRecord


@dataclass(frozen=True)
class Repeats:
    """In one pool (game, size, variant) between two engines: games with actions, and how many
    of them repeat an earlier one exactly (the same action sequence, whoever held which seat)."""

    pool: str
    engines: tuple[str, str]
    games: int
    repeated: int


class RepeatFinder:
    """Records `add`ed one at a time, each game kept as a 16-byte digest of its actions (not
    the record): what :func:`repeated_games` counts, for a reader that streams a journal."""

    def __init__(self) -> None:
        self.seen: dict[tuple, Counter[bytes]] = {}

    def add(self, r: GameRecord) -> None:
        if r.void or r.moves is None:
            return
        key = (f"{r.game}-{r.size}" + (f" {r.variant}" if r.variant else ""), tuple(sorted((r.first, r.second))))
        digest = hashlib.blake2b("\n".join(m.action for m in r.moves).encode(), digest_size=16).digest()
        self.seen.setdefault(key, Counter())[digest] += 1

    def found(self) -> list[Repeats]:
        """One entry per pairing and pool that has a repeated game, in first-seen order."""
        out = []
        for (pool, engines), counts in self.seen.items():
            repeated = sum(n - 1 for n in counts.values())
            if repeated:
                out.append(Repeats(pool, engines, sum(counts.values()), repeated))
        return out


def repeated_games(records: Iterable[GameRecord]) -> list[Repeats]:
    """One entry per pairing and pool that has a repeated game, in first-seen order."""
    finder = RepeatFinder()
    for r in records:
        finder.add(r)
    return finder.found()


def repeats_text(found: Iterable[Repeats]) -> str:
    """Lines warning about identical games (`found`: :func:`repeated_games`), or "" when there are none."""
    lines = [f"identical games: {r.engines[0]} vs {r.engines[1]} on {r.pool}: {r.repeated} of {r.games} "
             "repeat an earlier game move for move (add openings: docs/tournament.md)" for r in found]
    return "\n".join(lines)
