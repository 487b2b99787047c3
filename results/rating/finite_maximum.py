"""Does the Bradley-Terry likelihood have a finite maximum? Exact combinatorial checks.

With theta = (ratings r, advantages a) and one "scoring edge" per (row, side
that scored) -- winner w over loser l in pool p, sigma = +1 if w was first,
-1 if second; a draw gives both edges -- the maximum fails to exist exactly
when some direction d with ``X d != 0`` has ``d_w - d_l + sigma * a_p >= 0`` on
every edge (the likelihood never decreases along it). Three families of such
directions are checked here:

1. ``a = 0``: the win graph (draws count both ways) is not strongly connected;
   a group that beat everyone outside it can be pushed up for ever.
2. ``X d = 0`` with ``d != 0``: the schedule does not separate an advantage
   from the ratings (the information matrix is singular).
3. ``a = +-e_p``: the edge constraints are then difference constraints with
   weights ``+-sigma`` on the pool's edges, feasible iff that graph has no
   negative cycle (Bellman-Ford). For a single pool this check is complete.

Mixed directions over several pools are not enumerated; the fit catches them
when Newton's method diverges. Standard library and numpy only.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from hexarena.results.rating.counts import Counts




@dataclass(frozen=True)
class Obstacles:
    """Why the maximum does not exist; the player and pool indices whose estimates it leaves open."""

    reasons: tuple[str, ...]
    players: frozenset[int]
    pools: frozenset[int]

    @classmethod
    def none(cls) -> Obstacles:
        return cls((), frozenset(), frozenset())


def pool_label(pool: tuple[str, int]) -> str:
    return f"{pool[0]}/{pool[1]}"


def find_obstacles(c: Counts) -> Obstacles:
    """Every obstacle found by the three checks (empty when the maximum exists, up to mixed directions)."""
    reasons: list[str] = []
    players: set[int] = set()
    pools: set[int] = set()
    win, lose, sigma, pool = scoring_edges(c)
    components = strong_components(len(c.players), win, lose)
    if len(components) > 1:
        reasons += _describe_components(c, components, win, lose)
        sizes = sorted(len(comp) for comp in components)
        largest = max(components, key=len)
        for comp in components:
            if comp is not largest or sizes[-1] == sizes[-2]:
                players.update(comp)
    unidentified = _unidentified_pools(c)
    for p in unidentified:
        reasons.append(f"the schedule does not separate the first-player advantage in {pool_label(c.pools[p])} "
                       "from the ratings")
    for p in range(len(c.pools)):
        if p in unidentified:
            continue
        grows = [words for direction, words in ((1, "first"), (-1, "second"))
                 if not has_negative_cycle(len(c.players), win, lose, np.where(pool == p, direction * sigma, 0))]
        if len(grows) == 2:         # both ways at once: only when the win graph already parts the players
            reasons.append(f"no first-player advantage can be measured in {pool_label(c.pools[p])}: its results "
                           "fit any edge for the first or the second player equally well")
        elif grows:
            reasons.append(f"no first-player advantage can be measured in {pool_label(c.pools[p])}: "
                           f"its results favour the {grows[0]} player every time, whatever its edge")
        if grows:
            unidentified.add(p)
    for p in unidentified:
        pools.add(p)
        here = c.pool == p
        players.update(c.first[here].tolist())
        players.update(c.second[here].tolist())
    return Obstacles(tuple(reasons), frozenset(players), frozenset(pools))


def scoring_edges(c: Counts) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(winner, loser, sigma, pool) of every scoring edge: sigma +1 when the first player scored."""
    first_scored = (c.wins + c.draws) > 0
    second_scored = (c.losses + c.draws) > 0
    win = np.concatenate([c.first[first_scored], c.second[second_scored]])
    lose = np.concatenate([c.second[first_scored], c.first[second_scored]])
    sigma = np.concatenate([np.ones(first_scored.sum(), int), -np.ones(second_scored.sum(), int)])
    pool = np.concatenate([c.pool[first_scored], c.pool[second_scored]])
    return win, lose, sigma, pool


def strong_components(n: int, win: np.ndarray, lose: np.ndarray) -> list[list[int]]:
    """Strongly connected components of the graph winner -> loser (Kosaraju, iterative)."""
    out: list[set[int]] = [set() for _ in range(n)]
    into: list[set[int]] = [set() for _ in range(n)]
    for w, l in sorted(set(zip(win.tolist(), lose.tolist()))):        # in np.unique's order
        out[w].add(l)
        into[l].add(w)
    order: list[int] = []
    seen = [False] * n
    for start in range(n):
        if seen[start]:
            continue
        seen[start] = True
        stack = [(start, iter(out[start]))]
        while stack:
            node, it = stack[-1]
            nxt = next((v for v in it if not seen[v]), None)
            if nxt is None:
                stack.pop()
                order.append(node)
            else:
                seen[nxt] = True
                stack.append((nxt, iter(out[nxt])))
    component = [-1] * n
    components: list[list[int]] = []
    for start in reversed(order):
        if component[start] >= 0:
            continue
        component[start] = len(components)
        members, todo = [], [start]
        while todo:
            node = todo.pop()
            members.append(node)
            for v in into[node]:
                if component[v] < 0:
                    component[v] = len(components)
                    todo.append(v)
        components.append(sorted(members))
    return components


def has_negative_cycle(n: int, win: np.ndarray, lose: np.ndarray, weight: np.ndarray) -> bool:
    """Bellman-Ford from a virtual source on edges win -> lose (dist[lose] <= dist[win] + weight)."""
    dense = np.full((n, n), np.iinfo(np.int64).max // 4, dtype=np.int64)
    np.minimum.at(dense, (win, lose), weight.astype(np.int64))
    dist = np.zeros(n, dtype=np.int64)
    for _ in range(n + 1):
        new = np.minimum(dist, (dist[:, None] + dense).min(axis=0))
        if np.array_equal(new, dist):
            return False
        dist = new
    return True


def _describe_components(c: Counts, components: list[list[int]], win: np.ndarray, lose: np.ndarray) -> list[str]:
    where = np.empty(len(c.players), dtype=int)
    for k, comp in enumerate(components):
        where[comp] = k
    cross = where[win] != where[lose]
    beats = set(where[win][cross].tolist())      # components with an edge out (a win over outsiders)
    beaten = set(where[lose][cross].tolist())    # components with an edge in
    reasons = []
    for k, comp in enumerate(components):
        names = ", ".join(c.players[i] for i in comp)
        group = len(comp) > 1
        if k not in beats and k not in beaten:
            reasons.append(f"{names} never played the other players")
        elif k not in beaten:
            reasons.append(f"{names} won every game" + (" against the other players" if group else ""))
        elif k not in beats:
            reasons.append(f"{names} lost every game" + (" against the other players" if group else ""))
    return ["some players only won or only lost against the others: " + "; ".join(reasons)]


def _unidentified_pools(c: Counts) -> set[int]:
    """Pools whose advantage the schedule does not separate from the ratings (exact, in integers).

    A null direction has ``d_j = d_i + a_p`` on every row (i first, j second,
    pool p). Along a spanning forest every d is an integer combination phi of
    the advantages; every other row then demands ``(phi_i - phi_j + e_p) . a = 0``.
    Pool p is unidentified iff e_p is not in the span of those demands.
    """
    n, p = len(c.players), len(c.pools)
    pairs = sorted(set(zip(c.first.tolist(), c.second.tolist(), c.pool.tolist())))
    neighbours: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for i, j, q in pairs:
        neighbours[i].append((j, q, 1))       # d_j = d_i + a_q
        neighbours[j].append((i, q, -1))      # d_i = d_j - a_q
    phi: list[tuple[int, ...] | None] = [None] * n
    demands: set[tuple[int, ...]] = set()
    for root in range(n):
        if phi[root] is not None:
            continue
        phi[root] = (0,) * p
        todo = [root]
        while todo:
            u = todo.pop()
            phi_u = phi[u]
            assert phi_u is not None      # a vertex is stacked once its phi is set
            for v, q, sign in neighbours[u]:
                expected = tuple(x + sign * (k == q) for k, x in enumerate(phi_u))
                phi_v = phi[v]
                if phi_v is None:
                    phi[v] = expected
                    todo.append(v)
                elif phi_v != expected:
                    demands.add(tuple(a - b for a, b in zip(expected, phi_v)))
    basis = _echelon([list(map(Fraction, d)) for d in demands], p)
    return {q for q in range(p) if not _in_span(basis, [Fraction(k == q) for k in range(p)])}


def _echelon(rows: list[list[Fraction]], width: int) -> list[tuple[int, list[Fraction]]]:
    """A reduced basis as (pivot column, row) pairs, exact."""
    basis: list[tuple[int, list[Fraction]]] = []
    for row in rows:
        row = _reduce(basis, row)
        pivot = next((k for k in range(width) if row[k] != 0), None)
        if pivot is not None:
            basis.append((pivot, [x / row[pivot] for x in row]))
    return basis


def _reduce(basis: list[tuple[int, list[Fraction]]], row: list[Fraction]) -> list[Fraction]:
    row = list(row)
    for pivot, b in basis:
        if row[pivot] != 0:
            factor = row[pivot]
            row = [x - factor * y for x, y in zip(row, b)]
    return row


def _in_span(basis: list[tuple[int, list[Fraction]]], row: list[Fraction]) -> bool:
    return not any(_reduce(basis, row))
