"""Anda's board mechanics: one placement with its two removal steps, kept incremental.

(A little over 300 lines on purpose: :func:`place` and the helpers it inlines
for speed are one algorithm; the from-scratch words are ``anda_regions``'.)

An :class:`Analysis` holds what a position's rules need beyond its two
bitboards: the regions, the groups of each colour, and the stones of each
colour standing smothered right now. :func:`place` resolves a single-stone
placement from the parent's analysis and returns the child's, touching only
what the placement can change:

* placing on site s splits s's region R into parts and merges s with the
  mover's groups around it; a region's count of mover groups changes only if
  it is a part of R or touches two of the merged groups, so only enemy groups
  touching R (or those regions) are re-examined; every other enemy group keeps
  its status;
* removing groups merges their sites with the regions around them into new
  regions ("pieces"), and only groups touching R or a piece are re-examined.

Two facts make the statuses cheap to carry: after a removal step, no group of
the removed colour is smothered (a group's witness breath, one that touches 0
or 2+ enemy groups, cannot border a removed group, whose breaths all touch
exactly one), so after a placement the mover has no smothered group and the
opponent's smothered groups lie next to the mover's removed stones.

Sites and bitboards follow engine.geometry; the caller guarantees that s is
empty. Nothing here checks legality: ``state.py`` does.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import anda_regions as R
from ...geometry import Hexagon
from ...geometry import expand_unclipped as _expand
from ...geometry import flood_unclipped as _flood


@dataclass(frozen=True, slots=True)
class Analysis:
    """Regions of the empty sites, groups per colour (index 0 black, 1 white), smothered stones."""

    regions: tuple[int, ...]
    groups: tuple[tuple[int, ...], tuple[int, ...]]
    smothered: tuple[int, int]


def analyse(board: Hexagon, black: int, white: int) -> Analysis:
    """The analysis of a position from scratch."""
    empty = board.mask & ~(black | white)
    return Analysis(
        tuple(R.regions(board, empty)),
        (tuple(R.groups(board, black)), tuple(R.groups(board, white))),
        (R.smothered_stones(board, black, white, empty), R.smothered_stones(board, white, black, empty)),
    )


@dataclass(frozen=True, slots=True)
class Placed:
    """A resolved placement; `own`/`other` are the mover's and the opponent's stones after it."""

    own: int
    other: int
    removed_other: int
    removed_own: int
    own_groups: tuple[int, ...]
    other_groups: tuple[int, ...]
    regions: tuple[int, ...]
    other_smothered: int          # the mover never has a smothered group after its turn


def _count(region: int, enemy: int, enemy_groups, w: int, v: int) -> int:
    """0, 1 or 2 (= two or more): the enemy groups touching a region."""
    near = _expand(region, w, v) & enemy
    if not near:
        return 0
    found = 0
    for g in enemy_groups:
        if g & near:
            if found:
                return 2
            found = 1
    return found


def _dead_groups(groups: Sequence[int], ex: int, was: int, regs: list[int], enemy: int,
                 enemy_groups: Sequence[int], w: int, v: int) -> tuple[list[int], int]:
    """The smothered groups among `groups` and their stones: a group touching `ex` (where
    something changed) is judged again, any other keeps its earlier verdict (`was`)."""
    memo: dict[int, int] = {}
    dead, removed = [], 0
    for g in groups:
        if g & ex:
            if _smothered(g, regs, enemy, enemy_groups, memo, w, v):
                dead.append(g)
                removed |= g
        elif g & was:
            dead.append(g)
            removed |= g
    return dead, removed


def _smothered(group: int, regions, enemy: int, enemy_groups, memo: dict, w: int, v: int) -> bool:
    ex = _expand(group, w, v)
    for r in regions:
        if r & ex:
            c = memo.get(r)
            if c is None:
                c = memo[r] = _count(r, enemy, enemy_groups, w, v)
            if c != 1:
                return False
    return True


def _merge(regions: list[int], dead: list[int], w: int, v: int) -> tuple[list[int], list[int]]:
    """Regions after the groups `dead` (one colour, so never adjacent) become empty; also the new pieces."""
    remaining = regions
    pieces: list[int] = []
    for g in dead:
        ex = _expand(g, w, v)
        piece, _, remaining = R.absorb(g, ex, remaining)
        piece, _, pieces = R.absorb(piece, ex, pieces)
        pieces.append(piece)
    return remaining + pieces, pieces


def _split(rest: int, ring: int, w: int, v: int) -> list[int]:
    """The parts of a region after site s is taken: `rest` = region minus s, `ring` = empty neighbours of s."""
    if not ring:
        return []
    if not ring & (ring - 1) or _flood(ring & -ring, ring, w, v) == ring:
        return [rest]                 # the empty neighbours form one arc: still connected
    cur = ring & -ring                # grow from one arc until it meets every other one
    while True:
        nxt = (cur | cur << 1 | cur >> 1 | cur << w | cur >> w | cur << v | cur >> v) & rest
        if nxt & ring == ring:
            return [rest]
        if nxt == cur:
            break
        cur = nxt
    parts = [cur]
    ring &= ~cur
    while ring:
        p = _flood(ring & -ring, rest, w, v)
        parts.append(p)
        ring &= ~p
    return parts


def region_of(an: Analysis, s: int) -> int:
    """The index in ``an.regions`` of the region holding empty site s."""
    bit = 1 << s
    for i, r in enumerate(an.regions):
        if r & bit:
            return i
    raise ValueError(f"site {s} is not empty")


def place(board: Hexagon, an: Analysis, own: int, other: int, me: int, s: int, at: int = -1) -> Placed:
    """Put a stone of colour index `me` (0 black, 1 white) on empty site s and resolve both removals.

    `own` and `other` are the mover's and the opponent's stones, `an` the analysis of that
    board; `at`, when given, is the index of s's region in ``an.regions``.
    """
    w = board.width
    v = w + 1
    bit = 1 << s
    nb = board.neighbour_mask[s]
    old_own_groups = an.groups[me]
    old_other_groups = an.groups[1 - me]
    if nb & own:
        merged, n_merged, own_groups = R.join(bit, nb, old_own_groups)
    else:
        merged, n_merged, own_groups = bit, 0, [*old_own_groups, bit]
    old_own = own
    own |= bit
    regs = list(an.regions)
    if at < 0:
        at = next(i for i, r in enumerate(regs) if r & bit)
    rs = regs.pop(at)
    rest = rs & ~bit
    parts = _split(rest, nb & rest, w, v)
    regs += parts
    # Step 1 looks again only at enemy groups beside s (they may lose the breath R) and those
    # touching a region whose count of mover groups went to or from exactly one.
    flipped = 0
    if len(parts) > 1:
        one = _count(rs, old_own, old_own_groups, w, v) == 1
        for p in parts:
            if (_count(p, own, own_groups, w, v) == 1) != one:
                flipped |= p
    elif parts and n_merged != 1:         # one part, one merged group: the part counts as R did
        if n_merged == 0:                 # the part counts R's groups and the new stone
            if _count(rs, old_own, old_own_groups, w, v) < 2:
                flipped = rest
        elif (_count(rest, own, own_groups, w, v) == 1) != (_count(rs, old_own, old_own_groups, w, v) == 1):
            flipped = rest
    if n_merged >= 2:                 # regions touching two merged groups now count fewer
        exm = _expand(merged, w, v)
        for r in regs:
            if r & exm and not r & rs:
                if (_count(r, own, own_groups, w, v) == 1) != (_count(r, old_own, old_own_groups, w, v) == 1):
                    flipped |= r
    ex = _expand(flipped, w, v) | nb if flipped else nb
    was = an.smothered[1 - me]
    dead: list[int] = []
    removed_other = 0
    if other & ex or was:
        dead, removed_other = _dead_groups(old_other_groups, ex, was, regs, own, own_groups, w, v)
    # Step 2 looks again at the new group, mover groups touching a part whose count of enemy
    # groups went to or from exactly one, and those beside the enemy's removed stones.
    flipped = 0
    if len(parts) > 1 or (parts and nb & other):   # else the part touches R's enemy groups
        one = _count(rs, other, old_other_groups, w, v) == 1
        for p in parts:
            if (_count(p, other, old_other_groups, w, v) == 1) != one:
                flipped |= p
    alive: Sequence[int]
    if dead:
        alive = [g for g in old_other_groups if not g & removed_other]
        regs, pieces = _merge(regs, dead, w, v)
        other &= ~removed_other
        for p in pieces:
            flipped |= p
    else:
        alive = old_other_groups
    ex = _expand(flipped, w, v) | merged if flipped else merged
    was = an.smothered[me]
    own_dead, removed_own = _dead_groups(own_groups, ex, was, regs, other, alive, w, v)
    other_smothered = 0
    if own_dead:
        own_groups = [g for g in own_groups if not g & removed_own]
        regs, pieces = _merge(regs, own_dead, w, v)
        own &= ~removed_own
        around = 0
        for p in pieces:
            around |= p
        ex = _expand(around, w, v)
        memo: dict[int, int] = {}
        for g in alive:
            if g & ex and _smothered(g, regs, own, own_groups, memo, w, v):
                other_smothered |= g
    return Placed(own, other, removed_other, removed_own, tuple(own_groups), tuple(alive),
                  tuple(regs), other_smothered)


def placeable(board: Hexagon, an: Analysis, own: int, other: int, me: int) -> tuple[int, int]:
    """Sites where the mover (colour index `me`) may place, split as (surely legal, to simulate).

    Excluded: occupied sites and the opponent's territory. Surely legal: a site beside a
    mover stone (the stone joins a group, so the removal is never that stone alone), and
    a site whose empty neighbours form one arc (so the region minus the site is the new
    stone's only breath) when that breath touches 0 or 2+ enemy groups: the new stone
    lives unless enemy stones go first, and then the removal is not that stone alone.
    The rest needs :func:`place`.
    """
    w = board.width
    v = w + 1
    nmask = board.neighbour_mask
    sure = unsure = 0
    near_own = _expand(own, w, v)
    near_other = _expand(other, w, v)
    other_groups = an.groups[1 - me]
    for r in an.regions:
        ex = _expand(r, w, v)
        if ex & other and not ex & own:
            continue                                  # enemy territory
        sure |= r & near_own
        rest = r & ~near_own
        if not rest:
            continue
        if _count(r, other, other_groups, w, v) == 1:
            unsure |= rest
            continue
        while rest:
            low = rest & -rest
            rest ^= low
            ring = nmask[low.bit_length() - 1] & r
            if ring and (not ring & (ring - 1) or _flood(ring & -ring, ring, w, v) == ring) \
                    and (not low & near_other or _count(r ^ low, other, other_groups, w, v) != 1):
                sure |= low
            else:
                unsure |= low
    return sure, unsure


def place_pair(board: Hexagon, own: int, other: int, a: int, b: int) -> tuple[int, int]:
    """Two stones of the mover on empty sites a, b, then both removal steps, from scratch.

    Returns the mover's and the opponent's stones after the turn.
    """
    own |= 1 << a | 1 << b
    empty = board.mask & ~(own | other)
    dead = R.smothered_stones(board, other, own, empty)
    other &= ~dead
    empty |= dead
    own &= ~R.smothered_stones(board, own, other, empty)
    return own, other
