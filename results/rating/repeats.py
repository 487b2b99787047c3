"""Identical games: the same action sequence played twice by the same two engines.

Deterministic engines replay their games; a tournament without openings
then measures one game many times. Pure: a function of the records (those
that keep their actions, journal schema with ``actions``).
"""
from __future__ import annotations

from collections import Counter
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


def repeated_games(records: list[GameRecord]) -> list[Repeats]:
    """One entry per pairing and pool that has a repeated game, in first-seen order."""
    seen: dict[tuple, Counter] = {}
    for r in records:
        if r.void or r.actions is None:
            continue
        key = (f"{r.game}-{r.size}" + (f" {r.variant}" if r.variant else ""), tuple(sorted((r.first, r.second))))
        seen.setdefault(key, Counter())[tuple(r.actions)] += 1
    out = []
    for (pool, engines), counts in seen.items():
        repeated = sum(n - 1 for n in counts.values())
        if repeated:
            out.append(Repeats(pool, engines, sum(counts.values()), repeated))
    return out


def repeats_text(records: list[GameRecord]) -> str:
    """Lines warning about identical games, or "" when every game is distinct."""
    lines = [f"identical games: {r.engines[0]} vs {r.engines[1]} on {r.pool}: {r.repeated} of {r.games} "
             "repeat an earlier game move for move (add openings: docs/tournament.md)"
             for r in repeated_games(records)]
    return "\n".join(lines)
