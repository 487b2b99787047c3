"""Vaxandis stacks on bitboards: frozen stacks, move targets, and the effect of a move.

docs/rules/vaxandis.md. Pure functions; the state class is in ``state.py``. A
little over 300 lines on purpose: frozen stacks, targets and a move's effect
share one hot-path table (:class:`Tables`) and the same scans; apart they would
be three modules importing each other's internals.

A position's stacks are ``own`` and ``enemy`` (bitboards of the side to move
and of the other side) plus two views of the heights:

* ``levels``, the canonical height table: a tuple of ``(height, bitboard)``
  pairs, ascending by height, one pair per height present, no empty
  bitboard, covering both colours. The stacks of colour c and height h are
  the level's bitboard & c; a group is a connected component of such a set.
* ``heights``, the same information per site: a list indexed by bit, 0 where
  there is no stack (:func:`heights_of` derives it from levels).

Nothing here mutates its arguments.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from ...errors import IllegalMove
from ...geometry import Hexagon, hexagon, iter_bits, split_rays

Levels = tuple[tuple[int, int], ...]
_height = itemgetter(0)


@dataclass(frozen=True, eq=False)
class Tables:
    """Per-size lookups for the hot path (one per board side, see :func:`tables`).

    ``up[src]`` / ``down[src]``: bitboards of the rays from src along which
    the bit index grows / shrinks (rays leaving the board at once are left
    out); ``reach[src]``: all six rays together. ``line[(src, dst)]`` is
    ``(direction, steps)`` when dst lies on a straight line from src
    (direction indexes ``geo.rays[src]``).
    """

    geo: Hexagon
    up: tuple[tuple[int, ...], ...]
    down: tuple[tuple[int, ...], ...]
    reach: tuple[int, ...]
    line: dict[tuple[int, int], tuple[int, int]]


@lru_cache(maxsize=None)
def tables(n: int) -> Tables:
    geo = hexagon(n)
    up, down = split_rays(n)
    line: dict[tuple[int, int], tuple[int, int]] = {}
    for src in geo.sites:
        for d, ray in enumerate(geo.rays[src]):
            for k, p in enumerate(ray):
                line[(src, p)] = (d, k + 1)
    reach = tuple(sum(u) + sum(d) for u, d in zip(up, down))     # the rays are disjoint
    return Tables(geo, up, down, reach, line)


def heights_of(levels: Levels, n: int) -> list[int]:
    """The per-site height list of a height table (0 on empty sites)."""
    out = [0] * len(hexagon(n).rays)
    for h, bb in levels:
        for b in iter_bits(bb):
            out[b] = h
    return out


def frozen(own: int, enemy: int, levels: Levels, geo: Hexagon, group: bool) -> int:
    """The own stacks that may not move: next to a higher enemy stack (group=True: their whole groups)."""
    candidates = own & geo.expand(enemy)
    nmask = geo.neighbour_mask
    out = 0
    higher_enemy = 0
    for _h, bb in reversed(levels):
        mine = candidates & bb
        if mine and higher_enemy:
            found = 0
            while mine:
                low = mine & -mine
                mine ^= low
                if nmask[low.bit_length() - 1] & higher_enemy:
                    found |= low
            if found:
                out |= geo.flood(found, own & bb) if group else found
        higher_enemy |= bb & enemy
    return out


def targets(own: int, enemy: int, levels: Levels, tb: Tables, freeze_group: bool,
            touch_path: bool, first_only: bool = False) -> dict[int, int]:
    """Every legal move of `own`: source site -> bitboard of landing sites (sources without one left out).

    first_only: stop at the first source with a move (an existence test).

    A ray's reach ends before its first stack higher than the mover; landing
    sites are its empty sites from the first touch on (touch=path: a friendly
    stack jumped, or an empty site next to a friendly stack other than the
    mover), or (touch=landing) next to such a stack or beyond a jumped one.
    """
    geo = tb.geo
    nmask = geo.neighbour_mask
    mask = geo.mask
    w = geo.width
    empty = mask & ~(own | enemy)
    one = two = 0                               # sites next to >= 1 / >= 2 own stacks
    for x in (own << 1, own >> 1, own << w, own >> w, own << (w + 1), own >> (w + 1)):
        two |= one & x
        one |= x
    near1 = empty & one
    near2 = empty & two
    movers = own
    if freeze_group:
        movers &= ~frozen(own, enemy, levels, geo, True)
    up, down = tb.up, tb.down
    out: dict[int, int] = {}
    above = 0                                   # every stack higher than the current level
    enemy_above = 0
    for _h, level in reversed(levels):
        m = level & movers
        while m:
            low = m & -m
            m ^= low
            src = low.bit_length() - 1
            nm = nmask[src]
            if nm & enemy_above:
                continue                        # frozen
            friends = own ^ low
            # empty sites next to a friendly stack other than the mover:
            near = near1 & ~nm | near2 & nm
            legal = 0
            if touch_path:
                touch = friends | near
                for ray in up[src]:
                    blk = ray & above
                    seg = ray & ((blk & -blk) - 1)
                    t = seg & touch
                    if t:
                        legal |= seg & empty & ~((t & -t) - 1)
                for ray in down[src]:
                    seg = ray & ~((1 << (ray & above).bit_length()) - 1)
                    t = seg & touch
                    if t:
                        legal |= seg & empty & ((1 << t.bit_length()) - 1)
            else:
                for ray in up[src]:
                    blk = ray & above
                    seg = ray & ((blk & -blk) - 1)
                    legal |= seg & near
                    j = seg & friends
                    if j:
                        legal |= seg & empty & ~((j & -j) - 1)
                for ray in down[src]:
                    seg = ray & ~((1 << (ray & above).bit_length()) - 1)
                    legal |= seg & near
                    j = seg & friends
                    if j:
                        legal |= seg & empty & ((1 << j.bit_length()) - 1)
            if legal:
                out[src] = legal
                if first_only:
                    return out
        above |= level
        enemy_above |= level & enemy
    return out


def touched_by(own: int, enemy: int, levels: Levels, heights: list[int], tb: Tables, src: int, dst: int,
               freeze_group: bool, touch_path: bool) -> int:
    """The friendly stacks a move of the own stack on src to dst touches (> 0) when it is legal;
    -1 when src cannot move at all (no own stack, frozen), 0 when this move is illegal.

    src and dst must be sites of the board. :func:`why_illegal` names the reason.
    """
    sb = 1 << src
    if not own & sb:
        return -1
    geo = tb.geo
    h = heights[src]
    near = geo.adjacent(geo.flood(sb, own & _level(levels, h))) if freeze_group else geo.neighbour_mask[src]
    e = near & enemy
    while e:
        low = e & -e
        if heights[low.bit_length() - 1] > h:
            return -1
        e ^= low
    step = tb.line.get((src, dst))
    if step is None:
        return 0
    occ = own | enemy
    db = 1 << dst
    if occ & db:
        return 0
    friends = own ^ sb
    touched = 0
    path = db
    for p in geo.rays[src][step[0]][:step[1] - 1]:
        pb = 1 << p
        if occ & pb:
            if heights[p] > h:
                return 0
            touched |= friends & pb
        else:
            path |= pb
    return touched | (geo.expand(path) if touch_path else geo.neighbour_mask[dst]) & friends


def why_illegal(own: int, enemy: int, levels: Levels, heights: list[int], tb: Tables, src: int, dst: int,
                freeze_group: bool) -> str:
    """The reason :func:`touched_by` refused a move (the first rule it breaks)."""
    geo = tb.geo
    name = geo.name
    if not own >> src & 1:
        return f"{name(src)} holds no stack of the side to move"
    step = tb.line.get((src, dst))
    h = heights[src]
    group = geo.flood(1 << src, own & _level(levels, h)) if freeze_group else 1 << src
    for e in iter_bits(geo.adjacent(group) & enemy):
        if heights[e] > h:
            whose = "" if geo.neighbour_mask[src] >> e & 1 else "its group is "
            return f"{name(src)} is frozen ({whose}next to the higher enemy stack on {name(e)})"
    if step is None:
        return f"{name(dst)} is not on a line from {name(src)}"
    for p in geo.rays[src][step[0]][:step[1] - 1]:
        if heights[p] > h:
            return f"the higher stack on {name(p)} blocks {name(src)}-{name(dst)}"
    if (own | enemy) >> dst & 1:
        return f"{name(dst)} is occupied"
    return f"{name(src)}-{name(dst)} touches no friendly group"


def apply_move(own: int, enemy: int, levels: Levels, heights: list[int], tb: Tables, src: int,
               dst: int, freeze_group: bool, touch_path: bool) -> tuple[int, Levels, list[int]]:
    """(own bitboard, levels, heights) after moving the own stack on src to dst (sites of the board).

    Raises IllegalMove naming the reason: no own stack on src, src frozen, dst
    not on a line, a higher stack in the way, dst occupied, nothing touched.
    """
    touched = touched_by(own, enemy, levels, heights, tb, src, dst, freeze_group, touch_path)
    if touched <= 0:
        raise IllegalMove(why_illegal(own, enemy, levels, heights, tb, src, dst, freeze_group))
    return grow(own, levels, heights, tb.geo, src, dst, touched)


def grow(own: int, levels: Levels, heights: list[int], geo: Hexagon, src: int, dst: int,
         touched: int) -> tuple[int, Levels, list[int]]:
    """The effect of a legal move: every group (mover taken out) with a touched stack grows by 1 once,
    then the mover lands on dst with its height + 1."""
    nmask = geo.neighbour_mask
    sb = 1 << src
    friends = own ^ sb
    table = dict(levels)
    h = heights[src]
    grown = 0
    while touched:
        low = touched & -touched
        b = low.bit_length() - 1
        same = friends & table[heights[b]]
        g = geo.flood(low, same) if nmask[b] & same else low
        grown |= g
        touched &= ~g
    new_heights = heights.copy()
    table[h] ^= sb
    changed = {h}
    while grown:
        bit = grown & -grown
        grown ^= bit
        b = bit.bit_length() - 1
        hb = new_heights[b]
        new_heights[b] = hb + 1
        table[hb] ^= bit
        table[hb + 1] = table.get(hb + 1, 0) | bit
        changed.add(hb)
        changed.add(hb + 1)
    new_heights[src] = 0
    new_heights[dst] = h + 1
    db = 1 << dst
    table[h + 1] = table.get(h + 1, 0) | db
    changed.add(h + 1)
    return own ^ sb | db, _splice(levels, table, changed), new_heights


def _splice(levels: Levels, table: dict[int, int], changed: set[int]) -> Levels:
    """levels with the bitboards of the `changed` heights taken from table (0: the height is gone)."""
    out = list(levels)
    for hh in sorted(changed):
        i = bisect_left(out, hh, key=_height)
        present = i < len(out) and out[i][0] == hh
        bb = table.get(hh, 0)
        if bb:
            if present:
                out[i] = (hh, bb)
            else:
                out.insert(i, (hh, bb))
        elif present:
            del out[i]
    return tuple(out)


def _level(levels: Levels, h: int) -> int:
    for hh, bb in levels:
        if hh == h:
            return bb
    return 0
