"""A round's pairings in one pool: pure, given the idle players, their ratings and history.

Players are sorted by rating plus noise (:data:`NOISE` Elo, normal) and paired with the nearest
one below them that was not their last opponent (a rematch only when no one else is left); an
odd one out meets an anchor (the server's own players: a fresh process each game, so an anchor
may play several games at once) once it has waited a round (`patient`), so that two players whose
games end a moment apart meet each other. In each game the player who has played first more often (the
balance of its firsts over its seconds) plays second; a tie is drawn at random.
"""
from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

NOISE = 60.0


def pair_round(idle: Sequence[str], anchors: Sequence[str], rating: Mapping[str, float],
               last: Mapping[str, str], balance: Mapping[str, int], rng: random.Random,
               patient: Collection[str] | None = None) -> list[tuple[str, str]]:
    """(first, second) of each game of the round; every name of `idle` plays at most once. The odd
    one out meets an anchor only when it is in `patient` (None: always)."""
    order = sorted(idle, key=lambda n: rating.get(n, 0.0) + rng.gauss(0.0, NOISE), reverse=True)
    pairs: list[list[str]] = []
    while len(order) >= 2:
        a = order.pop(0)
        pick = next((i for i, b in enumerate(order) if not _rematch(a, b, last)), 0)
        pairs.append([a, order.pop(pick)])
    for p in pairs:                  # a rematch left at the end: trade partners with another pair
        if _rematch(p[0], p[1], last):
            for q in pairs:
                if q is not p and not _rematch(p[0], q[1], last) and not _rematch(q[0], p[1], last):
                    p[1], q[1] = q[1], p[1]
                    break
    games = [seats(a, b, balance, rng) for a, b in pairs]
    if order and anchors and (patient is None or order[0] in patient):
        games.append(seats(order[0], rng.choice(list(anchors)), balance, rng))
    return games


def _rematch(a: str, b: str, last: Mapping[str, str]) -> bool:
    return last.get(a) == b or last.get(b) == a


def seats(a: str, b: str, balance: Mapping[str, int], rng: random.Random) -> tuple[str, str]:
    """The pair in seat order: the one with more firsts than seconds plays second."""
    ba, bb = balance.get(a, 0), balance.get(b, 0)
    if ba == bb:
        return (a, b) if rng.random() < 0.5 else (b, a)
    return (a, b) if ba < bb else (b, a)
