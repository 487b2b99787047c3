"""Marbanta's random player: a uniform new group for a root, and a uniform bit.

:func:`sample_group` is exact: it walks down Redelmeier's tree (see
``moves.py``) choosing each branch with probability proportional
to the leaves under it, so every connected set is equally likely; its cost is
about the number of (N-1)-stone sets. Past a budget it hands over to
:func:`chain_group`, a Metropolis chain that is only close to uniform.
"""
from __future__ import annotations

import random

from ...geometry import expand_unclipped, flood_unclipped, iter_bits
from .moves import SightTables, count_leaves

#: Leaves the exact sampler may count before it gives up for the Markov chain.
EXACT_BUDGET = 50_000


class _OverBudget(Exception):
    pass


def _count_capped(nbr: tuple[int, ...], free: int, untried: int, seen: int, left: int, budget: list[int]) -> int:
    """:func:`_count`, charging the leaves to `budget[0]`; _OverBudget once it is spent."""
    if left <= 3:
        c = count_leaves(nbr, free, untried, seen, left)
        budget[0] -= c
        if budget[0] < 0:
            raise _OverBudget
        return c
    total = 0
    while untried:
        x = untried & -untried
        untried ^= x
        nb = nbr[x.bit_length() - 1] & free & ~seen
        total += _count_capped(nbr, free, untried | nb, seen | nb, left - 1, budget)
    return total


def sample_group(t: SightTables, free: int, r: int, k: int, rng: random.Random,
                 budget: int = EXACT_BUDGET) -> int:
    """A uniformly random set of :func:`new_groups`.

    Exact: walk down Redelmeier's tree choosing each branch with probability
    proportional to the leaves under it (the leaves are counted, never listed).
    When the first level counts more than `budget` leaves (only a root that
    sees many groups beside a large empty region), fall back to
    :func:`chain_group`, which is close to uniform. ValueError when r has no
    room for k stones.
    """
    nbr = t.nbr
    cur = 1 << r
    untried = nbr[r] & free
    seen = untried | cur
    left = k - 1
    first: list[int] | None = [budget]
    while left > 1:
        branches = []
        total = 0
        u = untried
        while u:
            x = u & -u
            u ^= x
            nb = nbr[x.bit_length() - 1] & free & ~seen
            if first is not None:
                try:
                    c = _count_capped(nbr, free, u | nb, seen | nb, left - 1, first)
                except _OverBudget:
                    return chain_group(t, free, r, k, rng)
            else:
                c = count_leaves(nbr, free, u | nb, seen | nb, left - 1)
            if c:
                total += c
                branches.append((c, x, u | nb, seen | nb))
        if not total:
            raise ValueError("no room for the new group")
        first = None
        pick = rng.randrange(total)
        for c, x, untried, seen in branches:
            if pick < c:
                break
            pick -= c
        cur |= x
        left -= 1
    if left == 1:
        if not untried:
            raise ValueError("no room for the new group")
        bits = list(iter_bits(untried))
        cur |= 1 << bits[rng.randrange(len(bits))]
    return cur


def _connected_from(t: SightTables, root: int, group: int) -> bool:
    return flood_unclipped(root, group, t.width, t.width + 1) == group


def chain_group(t: SightTables, free: int, r: int, k: int, rng: random.Random,
                steps_per_stone: int = 200) -> int:
    """An approximately uniform connected k-set of `free` containing r (Metropolis chain).

    Start from the first k sites of a breadth-first search from r, then
    ``steps_per_stone * k`` steps: move a random non-root stone to a random
    site of the set's free boundary, accepted when the set stays connected
    and with probability min(1, |boundary before| / |boundary after|), which
    makes the uniform distribution stationary. ValueError when r has no room.
    """
    w, v = t.width, t.width + 1
    root = 1 << r
    group = root
    while group.bit_count() < k:                     # breadth-first prefix
        ring = expand_unclipped(group, w, v) & free & ~group
        if not ring:
            raise ValueError("no room for the new group")
        for b in iter_bits(ring):
            group |= 1 << b
            if group.bit_count() == k:
                break
    if k == 1:
        return group

    def boundary(g: int) -> int:
        return expand_unclipped(g, w, v) & free & ~g

    edge = boundary(group)
    for _ in range(steps_per_stone * k):
        movable = list(iter_bits(group & ~root))
        edges = list(iter_bits(edge))
        out = 1 << movable[rng.randrange(len(movable))]
        into = 1 << edges[rng.randrange(len(edges))]
        cand = (group & ~out) | into
        if not _connected_from(t, root, cand):
            continue
        cand_edge = boundary(cand)
        b_old, b_new = len(edges), cand_edge.bit_count()
        if b_new > b_old and rng.random() * b_new >= b_old:
            continue
        group, edge = cand, cand_edge
    return group


def random_bit(bb: int, rng: random.Random) -> int:
    """A uniformly random set bit of a non-empty bitboard (binary search for the k-th bit)."""
    k = rng.randrange(bb.bit_count())
    lo, hi = 0, bb.bit_length()
    while hi - lo > 1:                       # the k-th set bit lies in [lo, hi)
        mid = (lo + hi) >> 1
        if (bb & ((1 << mid) - 1)).bit_count() > k:
            hi = mid
        else:
            lo = mid
    return lo
