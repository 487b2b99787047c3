"""Marbanta's move generation on bitboards: sight, roots, new groups.

Pure functions of a board's tables and the stones; ``state.py`` owns
the state. Vocabulary (docs/rules/marbanta.md):

* ``friendly`` / ``enemy``: the stones of the player to move and of the other.
* ``owner``: a list indexed by bit giving the bitboard of the (old) group that
  holds the stone on that bit. Groups never merge in Marbanta (a new group
  touches no old friendly stone), so the state keeps this list up to date by
  appending one group per turn.
* ``free``: the empty sites that touch no friendly stone, the only sites a
  new group may use.
* A **root** is legal when it is free, sees N >= 1 distinct friendly groups
  and its region of ``free`` holds at least N sites (then a connected set of
  N free sites containing it exists).

New groups are enumerated with Redelmeier's algorithm restricted to
``free``: every connected set containing the root is produced exactly once.
``sample.py`` draws one uniformly by counting the leaves of that
same tree (:func:`count_leaves`).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ...geometry import Hexagon, expand_unclipped, hexagon, iter_bits, split_rays


@dataclass(frozen=True, eq=False)
class SightTables:
    """Per board side: the rays of every site as bitboards, split by direction sign."""

    board: Hexagon
    up: tuple[tuple[int, ...], ...]      # [bit] -> rays whose bits increase away from the site
    down: tuple[tuple[int, ...], ...]    # [bit] -> rays whose bits decrease away from the site
    nbr: tuple[int, ...]                 # [bit] -> neighbour bitboard
    width: int
    mask: int


@lru_cache(maxsize=None)
def tables(n: int) -> SightTables:
    """The shared tables of the hexagon of side n."""
    board = hexagon(n)
    up, down = split_rays(n)
    return SightTables(board, up, down, board.neighbour_mask, board.width, board.mask)


def free_sites(t: SightTables, friendly: int, enemy: int) -> int:
    """Empty sites not adjacent to (and not holding) a friendly stone."""
    return t.mask & ~expand_unclipped(friendly, t.width, t.width + 1) & ~enemy


def sighted(t: SightTables, friendly: int, enemy: int) -> int:
    """Every site that sees at least one friendly stone (sight is symmetric).

    Kogge-Stone occluded fills from all friendly stones at once, in the six
    directions, through the sites that are not enemy stones. Five doubling
    steps reach 31 sites, more than the longest line of a side-13 board. The
    padding column of the layout stops every step from wrapping a row.
    """
    w = t.width
    open_ = t.mask & ~enemy
    out = 0
    for s in (1, w, w + 1):
        g, p, k = friendly, open_, s                 # towards higher bits
        g |= p & (g << k)
        p &= p << k
        k <<= 1
        g |= p & (g << k)
        p &= p << k
        k <<= 1
        g |= p & (g << k)
        p &= p << k
        k <<= 1
        g |= p & (g << k)
        p &= p << k
        out |= g | (p & (g << (k << 1)))
        g, p, k = friendly, open_, s                 # towards lower bits
        g |= p & (g >> k)
        p &= p >> k
        k <<= 1
        g |= p & (g >> k)
        p &= p >> k
        k <<= 1
        g |= p & (g >> k)
        p &= p >> k
        k <<= 1
        g |= p & (g >> k)
        p &= p >> k
        out |= g | (p & (g >> (k << 1)))
    return out & ~friendly


def seen_from(t: SightTables, r: int, enemy: int) -> int:
    """The sites seen from site r (bit index): along each ray up to the first enemy stone."""
    vis = 0
    for ray in t.up[r]:
        b = ray & enemy
        vis |= ray & ((b & -b) - 1) if b else ray
    for ray in t.down[r]:
        b = ray & enemy
        if b:
            h = b.bit_length()
            vis |= (ray >> h) << h
        else:
            vis |= ray
    return vis


def groups_seen(t: SightTables, r: int, friendly: int, enemy: int, owner: list[int]) -> int:
    """N(r): the number of distinct friendly groups with a stone seen from r."""
    seen = seen_from(t, r, enemy) & friendly
    n = 0
    while seen:
        seen &= ~owner[(seen & -seen).bit_length() - 1]
        n += 1
    return n


def has_room(t: SightTables, free: int, r: int, need: int) -> bool:
    """Whether the region of `free` holding site r has at least `need` sites (a flood that
    stops as soon as it has `need`)."""
    cur = 1 << r
    w, v = t.width, t.width + 1
    while cur.bit_count() < need:
        nxt = expand_unclipped(cur, w, v) & free
        if nxt == cur:
            return False
        cur = nxt
    return True


def root_size(t: SightTables, r: int, friendly: int, enemy: int, owner: list[int], free: int) -> int:
    """N(r) when r is a legal root, else 0 (r must be free)."""
    n = groups_seen(t, r, friendly, enemy, owner)
    return n if n and has_room(t, free, r, n) else 0


def legal_roots(t: SightTables, friendly: int, enemy: int, owner: list[int]) -> dict[int, int]:
    """Every legal root (bit index) with its N, in bit order."""
    free = free_sites(t, friendly, enemy)
    out = {}
    for r in iter_bits(free & sighted(t, friendly, enemy)):
        n = root_size(t, r, friendly, enemy, owner, free)
        if n:
            out[r] = n
    return out


def new_groups(t: SightTables, free: int, r: int, k: int) -> Iterator[int]:
    """Every connected set of k sites of `free` containing site r, once each, as bitboards."""
    root = 1 << r
    if k == 1:
        yield root
        return
    start = t.nbr[r] & free
    yield from _grow(t.nbr, free, root, start, start | root, k - 1)


def _grow(nbr: tuple[int, ...], free: int, cur: int, untried: int, seen: int, left: int) -> Iterator[int]:
    while untried:
        x = untried & -untried
        untried ^= x
        if left == 1:
            yield cur | x
            continue
        nb = nbr[x.bit_length() - 1] & free & ~seen
        yield from _grow(nbr, free, cur | x, untried | nb, seen | nb, left - 1)


def count_leaves(nbr: tuple[int, ...], free: int, untried: int, seen: int, left: int) -> int:
    """Leaves of the Redelmeier subtree (untried, seen) with `left` stones still to add."""
    if left == 1:
        return untried.bit_count()
    total = 0
    if left == 2:
        while untried:
            x = untried & -untried
            untried ^= x
            total += (untried | (nbr[x.bit_length() - 1] & free & ~seen)).bit_count()
        return total
    while untried:
        x = untried & -untried
        untried ^= x
        nb = nbr[x.bit_length() - 1] & free & ~seen
        total += count_leaves(nbr, free, untried | nb, seen | nb, left - 1)
    return total


def count_groups(t: SightTables, free: int, r: int, k: int) -> int:
    """The number of sets :func:`new_groups` yields, without building them."""
    if k == 1:
        return 1
    start = t.nbr[r] & free
    return count_leaves(t.nbr, free, start, start | (1 << r), k - 1)
