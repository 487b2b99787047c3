"""Anda's board mechanics: one placement with its two removal steps, kept incremental.

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
empty. Nothing here checks legality: engine.anda does.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import regions as R
from .geometry import Hexagon


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


def _expand(bb: int, w: int, v: int) -> int:
    """bb and its neighbours, NOT clipped to the board (callers intersect with board sets)."""
    return bb | bb << 1 | bb >> 1 | bb << w | bb >> w | bb << v | bb >> v


def _flood(seed: int, within: int, w: int, v: int) -> int:
    cur = seed
    while True:
        nxt = (cur | cur << 1 | cur >> 1 | cur << w | cur >> w | cur << v | cur >> v) & within
        if nxt == cur:
            return cur
        cur = nxt


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
        piece = g
        keep = []
        for r in remaining:
            if r & ex:
                piece |= r
            else:
                keep.append(r)
        remaining = keep
        joined = []
        for p in pieces:
            if p & ex:
                piece |= p
            else:
                joined.append(p)
        joined.append(piece)
        pieces = joined
    return remaining + pieces, pieces


def _split(rest: int, ring: int, w: int, v: int) -> list[int]:
    """The parts of a region after site s is taken: `rest` = region minus s, `ring` = empty neighbours of s."""
    if not ring:
        return []
    if not ring & (ring - 1) or _flood(ring & -ring, ring, w, v) == ring:
        return [rest]                 # the empty neighbours form one arc: still connected
    parts = []
    while ring:
        p = _flood(ring & -ring, rest, w, v)
        parts.append(p)
        ring &= ~p
    return parts


def region_of(an: Analysis, s: int) -> int:
    """The region holding empty site s."""
    for r in an.regions:
        if r >> s & 1:
            return r
    raise ValueError(f"site {s} is not empty")


def place(board: Hexagon, an: Analysis, own: int, other: int, me: int, s: int) -> Placed:
    """Put a stone of colour index `me` (0 black, 1 white) on empty site s and resolve both removals.

    `own` and `other` are the mover's and the opponent's stones, `an` the analysis of that board.
    """
    w = board.width
    v = w + 1
    bit = 1 << s
    nb = board.neighbour_mask[s]
    merged, n_merged, own_groups = bit, 0, []
    for g in an.groups[me]:
        if g & nb:
            merged |= g
            n_merged += 1
        else:
            own_groups.append(g)
    own_groups.append(merged)
    own |= bit
    regs = list(an.regions)
    for i, rs in enumerate(regs):
        if rs & bit:
            break
    else:
        raise ValueError(f"site {s} is not empty")
    rest = rs & ~bit
    del regs[i]
    regs += _split(rest, nb & rest, w, v)
    touched = rs
    if n_merged >= 2:                 # regions touching two merged groups now count one
        exm = _expand(merged, w, v)
        for r in regs:
            if r & exm:
                touched |= r
    # step 1: the opponent's smothered groups, all together
    ex = _expand(touched, w, v)
    was = an.smothered[1 - me]
    memo: dict[int, int] = {}
    dead, alive, removed_other = [], [], 0
    for g in an.groups[1 - me]:
        if (g & ex and _smothered(g, regs, own, own_groups, memo, w, v)) or (not g & ex and g & was):
            dead.append(g)
            removed_other |= g
        else:
            alive.append(g)
    pieces: list[int] = []
    if dead:
        regs, pieces = _merge(regs, dead, w, v)
        other &= ~removed_other
    # step 2: the mover's smothered groups, re-evaluated on the new board
    for p in pieces:
        touched |= p
    ex = _expand(touched, w, v)
    was = an.smothered[me]
    memo = {}
    own_dead, own_alive, removed_own = [], [], 0
    for g in own_groups:
        if (g & ex and _smothered(g, regs, other, alive, memo, w, v)) or (not g & ex and g & was):
            own_dead.append(g)
            removed_own |= g
        else:
            own_alive.append(g)
    other_smothered = 0
    if own_dead:
        regs, pieces = _merge(regs, own_dead, w, v)
        own &= ~removed_own
        around = 0
        for p in pieces:
            around |= p
        ex = _expand(around, w, v)
        memo = {}
        for g in alive:
            if g & ex and _smothered(g, regs, own, own_alive, memo, w, v):
                other_smothered |= g
    return Placed(own, other, removed_other, removed_own, tuple(own_alive), tuple(alive),
                  tuple(regs), other_smothered)


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
