"""Spelde's flip sets: which sets of an enemy group's stones split it.

All functions work on bitboards of one board (engine.geometry.Hexagon) and
are pure; the per-group answers are cached because the same groups recur
position after position. Three rules (docs/rules/spelde.md, option `flips=`):

* `literal`: any non-empty F such that G minus F has at least two parts;
* `dense`: as literal, and F is a path of consecutive stones;
* `standard`: F is a path whose first stone is adjacent to the placed stone,
  G minus every proper prefix of it stays connected, and G minus F does not.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache

from ...geometry import Hexagon, hexagon, iter_bits

#: Rejection-sampling tries before a literal flip set is drawn from the full list.
SAMPLE_TRIES = 256
#: Literal flip sets of groups up to this size are listed once and cached.
LIST_LIMIT = 14
#: Search states explored for path-shaped flip sets of one group (dense, standard).
PATH_BUDGET = 3_000


def splits(board: Hexagon, group: int, flips: int) -> bool:
    """True when the group minus the flipped stones has at least two connected parts."""
    rest = group & ~flips
    return rest != 0 and board.flood(rest & -rest, rest) != rest


def bad_stones(board: Hexagon, stones: int) -> int:
    """The stones of groups that no flip set can split: singletons, pairs and triangles.

    Bit-parallel: counts each stone's friendly neighbours per direction,
    without labelling groups.
    """
    w = board.width
    # has[d]: the stones whose neighbour in direction d (engine.geometry.DIRECTIONS) is a stone.
    # No mask is needed: every term is and-ed with a subset of `stones`.
    h0, h1, h2 = stones & stones >> 1, stones & stones >> (w + 1), stones & stones >> w
    has = (h0, h1, h2, h0 << 1, h1 << (w + 1), h2 << w)   # a pair seen from its other end
    one = two = three = 0
    for h in has:
        three |= two & h
        two |= one & h
        one |= h
    bad = stones & ~one
    exactly1 = one & ~two
    if exactly1:
        back = (exactly1 >> 1, exactly1 >> (w + 1), exactly1 >> w,
                exactly1 << 1, exactly1 << (w + 1), exactly1 << w)
        for d in range(6):
            bad |= exactly1 & has[d] & back[d]
    exactly2 = two & ~three
    if exactly2:
        back = (exactly2 >> 1, exactly2 >> (w + 1), exactly2 >> w,
                exactly2 << 1, exactly2 << (w + 1), exactly2 << w)
        for d in range(6):
            e = d + 1 if d < 5 else 0
            bad |= exactly2 & has[d] & has[e] & back[d] & back[e]
    return bad


def _path_sets(board: Hexagon, rule: str, group: int, starts: int) -> Iterator[int]:
    """The valid flip sets that are paths (`dense`, `standard`), shortest first, each once.

    Breadth-first over (stones, last stone) states, deduplicated per length.
    The number of paths in a large compact group is exponential, so the
    search stops after PATH_BUDGET states (docs/rules/spelde.md): short
    separating paths, which compact groups always have, come first.
    """
    nbr = board.neighbour_mask
    frontier = {(1 << s, s) for s in iter_bits(starts & group)}
    found: set[int] = set()
    visited = 0
    while frontier and visited < PATH_BUDGET:
        grown = set()
        for path, last in frontier:
            visited += 1
            if path not in found and splits(board, group, path):
                found.add(path)
                yield path
                if rule == "standard":
                    continue            # the splitting flip is the last one
            elif rule == "standard" and path in found:
                continue
            for t in iter_bits(nbr[last] & group & ~path):
                grown.add((path | 1 << t, t))
        frontier = grown


@lru_cache(maxsize=65536)
def _cached_sets(n: int, rule: str, group: int, starts: int) -> tuple[int, ...]:
    board = hexagon(n)
    if rule == "literal":
        return tuple(f for f in _subsets(group) if splits(board, group, f))
    return tuple(_path_sets(board, rule, group, starts))


def _subsets(group: int) -> Iterator[int]:
    """Every non-empty subset of a bitboard."""
    sub = group
    while sub:
        yield sub
        sub = (sub - 1) & group


def flip_sets(board: Hexagon, rule: str, group: int, placed: int) -> Iterator[int]:
    """Every valid flip set of `group` for a stone placed on bit `placed`, each once.

    Literal sets of large groups are generated lazily (there may be millions);
    the others are cached per group.
    """
    if rule == "literal":
        if group.bit_count() > LIST_LIMIT:
            return (f for f in _subsets(group) if splits(board, group, f))
        return iter(_cached_sets(board.n, rule, group, 0))
    return iter(_cached_sets(board.n, rule, group, _starts(board, rule, group, placed)))


def _starts(board: Hexagon, rule: str, group: int, placed: int) -> int:
    """Where a flip path may begin: next to the placed stone (standard) or anywhere (dense)."""
    return board.neighbour_mask[placed] & group if rule == "standard" else group


def can_split(board: Hexagon, rule: str, group: int, placed: int) -> bool:
    """Whether the group has a valid flip set for a stone placed on `placed`."""
    if rule == "literal":
        return not bad_stones(board, group)
    return _has_path_set(board.n, rule, group, _starts(board, rule, group, placed))


@lru_cache(maxsize=65536)
def _has_path_set(n: int, rule: str, group: int, starts: int) -> bool:
    return next(_path_sets(hexagon(n), rule, group, starts), None) is not None


def is_valid(board: Hexagon, rule: str, group: int, flips: int, placed: int) -> bool:
    """Whether `flips` (a non-empty subset of `group`) is a valid flip set."""
    if not flips or flips & ~group:
        return False
    if rule == "literal":
        return splits(board, group, flips)
    if not splits(board, group, flips):
        return False
    return flips in _cached_sets(board.n, rule, group, _starts(board, rule, group, placed))


def combined_flip_sets(board: Hexagon, rule: str, groups: list[int], placed: int) -> Iterator[int]:
    """Every union of one valid flip set per group, lazily (itertools.product would list them all)."""
    if not groups:
        yield 0
        return
    for f in flip_sets(board, rule, groups[0], placed):
        for rest in combined_flip_sets(board, rule, groups[1:], placed):
            yield f | rest


def random_flip_set(board: Hexagon, rule: str, group: int, placed: int, rng: random.Random) -> int:
    """A uniformly random valid flip set (the group must have one).

    Literal: rejection sampling over uniform subsets (exactly uniform), with
    the full list as the fallback for groups where valid sets are rare.
    """
    if rule == "literal":
        width = group.bit_length()
        for _ in range(SAMPLE_TRIES):
            f = rng.getrandbits(width) & group      # each stone in or out with probability 1/2
            if f and splits(board, group, f):
                return f
    options = sorted(flip_sets(board, rule, group, placed))
    return rng.choice(options)
