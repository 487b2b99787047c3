"""Anda-prison's board mechanics: a placement, its one removal step and both checks, kept incremental.

A :class:`Analysis` holds what the rules need beyond the two bitboards: the
groups of each colour, the regions, and for each region how many black and
how many white groups touch it (0, 1 or 2 meaning "two or more"). The words
and the from-scratch analysis are :mod:`..anda_regions`' (shared with Anda);
this module only carries their results from a position to the next.

A colour-c group is smothered iff every region it touches is touched by
exactly one enemy group (docs/rules/anda-prison.md), so with the counts at hand the
"breathing" empty sites of c are the regions whose enemy count is not 1, and
the smothered stones of c are those not connected to a stone touching them:
one flood per colour evaluates every group of the board at once.

Placing on site s splits s's region into parts (fresh counts) and merges s
with the mover's groups around it; only the regions touching two or more of
the merged groups change their mover count. Removing groups joins their
sites and the regions around them into new regions (fresh counts); every
other region keeps its counts.

:func:`resolve` raises IllegalMove (with the reason) for a placement the two
checks forbid; the caller (``state.py``) checks emptiness, adjacency,
phases and the annihilation ban. Colour indices: 0 black, 1 white.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import anda_regions as R
from ...errors import IllegalMove
from ...geometry import Hexagon
from ...geometry import expand_unclipped as _expand
from ...geometry import flood_unclipped as _flood


@dataclass(frozen=True, slots=True)
class Analysis:
    """Stones, groups (per colour), regions and per-region touching counts of one board."""

    stones: tuple[int, int]
    groups: tuple[tuple[int, ...], tuple[int, ...]]
    regions: tuple[int, ...]
    touch: tuple[tuple[int, ...], tuple[int, ...]]   # [colour][region index]: groups touching, capped at 2

    def breathing(self, colour: int) -> int:
        """The empty sites where a group of `colour` breathes: regions not touched by exactly one enemy group."""
        enemy = self.touch[1 - colour]
        good = 0
        for r, k in zip(self.regions, enemy):
            if k != 1:
                good |= r
        return good

    def territory(self, colour: int) -> int:
        """The number of empty sites in regions touching `colour` and no stone of the other colour."""
        own, other = self.touch[colour], self.touch[1 - colour]
        return sum(r.bit_count() for r, a, b in zip(self.regions, own, other) if a and not b)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A legal placement's board: the analysis after the removal and the stones sent to the prison."""

    analysis: Analysis
    jailed: tuple[int, int]          # stones removed per colour (black, white)


def analyse(board: Hexagon, black: int, white: int) -> Analysis:
    """The analysis of a position, from scratch (anda_regions)."""
    empty = board.mask & ~(black | white)
    regs = tuple(R.regions(board, empty))
    return Analysis(
        (black, white),
        (tuple(R.groups(board, black)), tuple(R.groups(board, white))),
        regs,
        (tuple(R.touching_groups(board, r, black, cap=2) for r in regs),
         tuple(R.touching_groups(board, r, white, cap=2) for r in regs)),
    )


def _count(region: int, stones: int, groups: tuple[int, ...] | list[int], w: int, v: int) -> int:
    """0, 1 or 2 (two or more): the groups of `stones` touching `region`."""
    near = _expand(region, w, v) & stones
    if not near:
        return 0
    for g in groups:
        if g & near:
            return 1 if not near & ~g else 2
    raise AssertionError("a stone outside every group")


def _split(rest: int, ring: int, w: int, v: int) -> list[int]:
    """The parts of a region after one of its sites is taken (`ring`: that site's empty neighbours)."""
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


def put(board: Hexagon, lay: Analysis, s: int, me: int) -> Analysis:
    """The analysis after a stone of colour `me` goes on empty site s, before any removal."""
    w = board.width
    v = w + 1
    bit = 1 << s
    nb = board.neighbour_mask[s]
    merged, n_merged, own = R.join(bit, nb, lay.groups[me])
    stones = [lay.stones[0], lay.stones[1]]
    stones[me] |= bit
    groups = [lay.groups[0], lay.groups[1]]
    groups[me] = tuple(own)
    regs = list(lay.regions)
    counts = [list(lay.touch[0]), list(lay.touch[1])]
    for i, r in enumerate(regs):
        if r & bit:
            break
    else:
        raise ValueError(f"site {board.name(s)} is not empty")
    rest = regs.pop(i) & ~bit
    del counts[0][i], counts[1][i]
    if n_merged >= 2:                 # regions touching two merged groups now touch one
        ex = _expand(merged, w, v)
        mine = counts[me]
        for j, r in enumerate(regs):
            if r & ex and mine[j] == 2:
                mine[j] = _count(r, stones[me], own, w, v)
    for p in _split(rest, nb & rest, w, v):
        regs.append(p)
        counts[0].append(_count(p, stones[0], groups[0], w, v))
        counts[1].append(_count(p, stones[1], groups[1], w, v))
    return Analysis((stones[0], stones[1]), (groups[0], groups[1]), tuple(regs), (tuple(counts[0]), tuple(counts[1])))


def _names(board: Hexagon, placed: tuple[int, ...]) -> str:
    return ",".join(board.names(sum(1 << s for s in placed)))


def _group_of(lay: Analysis, me: int, s: int) -> int:
    for g in lay.groups[me]:
        if g >> s & 1:
            return g
    raise ValueError("no stone there")


def resolve(board: Hexagon, lay: Analysis, me: int, placed: tuple[int, ...]) -> Resolved:
    """Check and resolve a turn whose stones (sites `placed`, colour `me`) are already in `lay` (see :func:`put`).

    Raises IllegalMove when a placed stone's group is smothered right after
    placing, or again at the end of the turn after the one removal step.
    """
    w = board.width
    v = w + 1
    breath = (lay.breathing(0), lay.breathing(1))
    mine = [_group_of(lay, me, s) for s in placed]
    for g in mine:
        if not _expand(g, w, v) & breath[me]:
            raise IllegalMove(f"{_names(board, placed)}: the placed group would be smothered")
    dead = [0, 0]
    for c in (0, 1):
        laid = lay.stones[c]
        if laid:
            dead[c] = laid & ~_flood(_expand(breath[c], w, v) & laid, laid, w, v)
    if not dead[0] and not dead[1]:
        return Resolved(lay, (0, 0))
    gone = dead[0] | dead[1]
    stones = (lay.stones[0] & ~dead[0], lay.stones[1] & ~dead[1])
    groups = (tuple(g for g in lay.groups[0] if not g & gone), tuple(g for g in lay.groups[1] if not g & gone))
    ex = _expand(gone, w, v)
    joined = gone
    regs, c0, c1 = [], [], []
    for r, a, b in zip(lay.regions, lay.touch[0], lay.touch[1]):
        if r & ex:
            joined |= r
        else:
            regs.append(r)
            c0.append(a)
            c1.append(b)
    while joined:
        piece = _flood(joined & -joined, joined, w, v)
        joined &= ~piece
        regs.append(piece)
        c0.append(_count(piece, stones[0], groups[0], w, v))
        c1.append(_count(piece, stones[1], groups[1], w, v))
    after = Analysis(stones, groups, tuple(regs), (tuple(c0), tuple(c1)))
    good = after.breathing(me)
    for g in mine:
        if not _expand(g, w, v) & good:
            raise IllegalMove(f"{_names(board, placed)}: the placed group would be smothered at the end of the turn")
    return Resolved(after, (dead[0].bit_count(), dead[1].bit_count()))
