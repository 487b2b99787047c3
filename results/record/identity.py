"""Who an engine says it is: the `name` and `version` it answered at the handshake, per config name.

A record's `identities` holds, by seat, the engine's answers to `name` and
`version` (None: refused). Its *identity* is both answers joined by a space
(`hexarena-mcts 0.1`), or only the one given; None when it gave neither, and
for records that have no identities (schema-1 journals). The *label* that
tells two builds under one config name apart is ``NAME (IDENTITY)``, or the
config name alone when the identity is unknown. Standard library only.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .game import GameRecord

#: The most characters of each answer read (the referee writes at most 200; a journal edited by
#: hand may hold more, which no table or label shows).
SHOWN = 200
#: How an unknown identity is shown (records without identities, engines that answer neither).
UNKNOWN = "(not told)"


def identity_of(record: GameRecord, player: str) -> str | None:
    """The identity of `player` (a config name of the record) in that game, or None when unknown."""
    if record.identities is None:
        return None
    seat = 0 if player == record.first else 1 if player == record.second else None
    if seat is None:
        return None
    words = [w.strip()[:SHOWN] for w in record.identities[seat] if w and w.strip()]
    return " ".join(words) or None


def label(record: GameRecord, player: str) -> str:
    """``NAME (IDENTITY)``, or NAME when the identity is unknown."""
    identity = identity_of(record, player)
    return player if identity is None else f"{player} ({identity})"


def identities_by_engine(records: Iterable[GameRecord]) -> dict[str, Counter[str | None]]:
    """Per config name (sorted), the games it played under each identity (None: unknown); void
    games are not counted."""
    seen: dict[str, Counter[str | None]] = {}
    for r in records:
        if r.void:
            continue
        for player in (r.first, r.second):
            seen.setdefault(player, Counter())[identity_of(r, player)] += 1
    return dict(sorted(seen.items()))


def identity_rows(records: Iterable[GameRecord]) -> list[tuple[str, str, int]]:
    """(config name, identity or :data:`UNKNOWN`, games) by name, most games first; empty when no
    record knows any identity (nothing worth showing)."""
    table = identities_by_engine(records)
    if not any(i is not None for counts in table.values() for i in counts):
        return []
    return [(name, identity or UNKNOWN, n) for name, counts in table.items()
            for identity, n in sorted(counts.items(), key=lambda x: (-x[1], x[0] or ""))]


def identity_lines(records: Iterable[GameRecord]) -> list[str]:
    """One line per config name, ``NAME: IDENTITY (N games), ...``; empty as :func:`identity_rows`."""
    lines: dict[str, list[str]] = {}
    for name, identity, n in identity_rows(records):
        lines.setdefault(name, []).append(f"{identity} ({n} game{'s' if n != 1 else ''})")
    return [f"{name}: " + ", ".join(parts) for name, parts in lines.items()]
