"""Groups, regions, breaths, territory and smothering on bitboards (Anda and Anda-prison).

docs/rules/anda.md and docs/rules/anda-prison.md share these words:

* a **group** is a maximal connected set of same-colour stones;
* a **region** is a maximal connected set of empty sites;
* a **breath** of a group is a region with a site adjacent to the group
  (Anda-prison: "the region of a liberty" -- the same sets);
* a region is **territory** of colour c iff it touches at least one stone and
  every stone it touches is c;
* a group is **smothered** iff it has no breath, or each of its breaths touches
  exactly one group of the other colour (friendly groups are ignored).

Every function is pure and takes the board (:class:`engine.geometry.Hexagon`)
first and bitboards after (Python ints, one bit per site). Arguments are the
caller's responsibility and are not checked (this is the hot path):

* ``stones``, ``enemy`` and ``empty`` are subsets of ``board.mask``, pairwise
  disjoint. ``empty`` need not be the complement of the stones: every function
  treats exactly the sites of ``empty`` as empty.
* ``group`` is one whole group (connected and maximal among its colour's stones);
  ``region`` is one whole region of ``empty``.

"Touches" always means "has a site adjacent to". Lists are in no particular
order. This API is stable: later additions do not change these contracts.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..geometry import Hexagon


def groups(board: Hexagon, stones: int) -> list[int]:
    """The groups of one colour's stones, each a bitboard (empty list for no stones)."""
    return board.components(stones)


def regions(board: Hexagon, empty: int) -> list[int]:
    """The regions of the empty sites, each a bitboard."""
    return board.components(empty)


def group_at(board: Hexagon, stones: int, bit: int) -> int:
    """The group of `stones` holding site `bit` (0 when that site is not in `stones`)."""
    return board.flood(1 << bit, stones)


def liberties(board: Hexagon, group: int, empty: int) -> int:
    """The empty sites adjacent to `group`."""
    return board.adjacent(group) & empty


def breath_sites(board: Hexagon, group: int, empty: int) -> int:
    """The union of the breaths of `group` (0 when it has none)."""
    return board.flood(board.adjacent(group) & empty, empty)


def breaths(board: Hexagon, group: int, empty: int) -> list[int]:
    """The breaths of `group`: the regions of `empty` it touches, each a bitboard."""
    return board.components(breath_sites(board, group, empty))


def touching_groups(board: Hexagon, region: int, stones: int, cap: int = 0) -> int:
    """How many groups of `stones` touch `region`; counting stops at `cap` when cap > 0.

    So ``touching_groups(b, r, enemy, cap=2)`` is 0, 1 or 2 meaning "two or more".
    """
    near = board.adjacent(region) & stones
    count = 0
    while near:
        near &= ~board.flood(near & -near, stones)
        count += 1
        if count == cap:
            break
    return count


def is_territory(board: Hexagon, region: int, own: int, other: int) -> bool:
    """True iff `region` touches a stone of `own` and no stone of `other`."""
    near = board.adjacent(region)
    return bool(near & own) and not near & other


def territory(board: Hexagon, own: int, other: int, empty: int) -> int:
    """The union of the regions of `empty` that are territory of `own` (against `other`).

    Sites of `empty` that touch `own` but not `other`, grown within `empty`,
    minus every region that also touches `other`: one flood each way, no loop
    over regions.
    """
    touched_own = board.flood(board.adjacent(own) & empty, empty)
    touched_other = board.flood(board.adjacent(other) & empty, empty)
    return touched_own & ~touched_other


def smothered(board: Hexagon, group: int, enemy: int, empty: int) -> bool:
    """True iff `group` is smothered: no breath, or every breath touches exactly one `enemy` group.

    `enemy` is the other colour's stones; the group's own colour is ignored.
    """
    rest = breath_sites(board, group, empty)
    while rest:
        region = board.flood(rest & -rest, rest)
        if touching_groups(board, region, enemy, cap=2) != 1:
            return False
        rest &= ~region
    return True


def breathing_regions(board: Hexagon, enemy: int, empty: int) -> int:
    """The union of the regions of `empty` that do NOT touch exactly one `enemy` group.

    A group of the other colour than `enemy` is smothered iff it touches none of
    these sites. Each enemy group is labelled once and each region is filled once.
    """
    enemy_groups = board.components(enemy)
    good = 0
    rest = empty
    while rest:
        region = board.flood(rest & -rest, rest)
        rest &= ~region
        near = board.adjacent(region) & enemy
        count = 0
        if near:
            for g in enemy_groups:
                if g & near:
                    count += 1
                    if count == 2:
                        break
        if count != 1:
            good |= region
    return good


def smothered_stones(board: Hexagon, stones: int, enemy: int, empty: int) -> int:
    """The union of every smothered group of `stones` (one colour) against `enemy` (the other).

    Equal to the union of the groups g of `stones` with ``smothered(board, g, enemy, empty)``,
    computed with one labelling of the enemy groups, one fill per region and one
    fill over `stones`.
    """
    if not stones:
        return 0
    good = breathing_regions(board, enemy, empty)
    alive = board.flood(board.adjacent(good) & stones, stones)
    return stones & ~alive


def smothered_groups(board: Hexagon, stones: int, enemy: int, empty: int) -> list[int]:
    """The smothered groups of `stones` against `enemy`, each a bitboard."""
    return board.components(smothered_stones(board, stones, enemy, empty))


def absorb(piece: int, mask: int, parts: Sequence[int]) -> tuple[int, int, list[int]]:
    """`piece` joined with every part that meets `mask`: (the union, how many parts it took,
    the parts left untouched, in their order)."""
    taken, rest = 0, []
    for part in parts:
        if part & mask:
            piece |= part
            taken += 1
        else:
            rest.append(part)
    return piece, taken, rest


def join(bit: int, nb: int, groups: Sequence[int]) -> tuple[int, int, list[int]]:
    """A stone `bit` placed among `groups` of its colour (`nb`: its neighbour mask): the group it
    forms with those it touches, how many it joined, and the groups after it (untouched, then it)."""
    merged, joined, after = absorb(bit, nb, groups)
    after.append(merged)
    return merged, joined, after


#: A colour's groups as (stones, safe breaths) each, in component order (lowest site first).
Groups = list[tuple[int, int]]


def summary(board: Hexagon, black: int, white: int) -> tuple[int, int, Groups, Groups]:
    """The board as the players' evaluations read it (players/games/anda.py, anda_prison.py):
    (Black's territory, White's territory, Black's groups, White's groups). Territory counts the
    empty sites of the regions touching stones of one colour only; a group's *safe breaths* are
    the breaths touching no enemy group or two or more (a group with none is smothered)."""
    regs = [(r, board.adjacent(r)) for r in board.components(board.mask & ~(black | white))]
    tb = tw = 0
    for region, around in regs:
        b, w = around & black, around & white
        if b and not w:
            tb += region.bit_count()
        elif w and not b:
            tw += region.bit_count()
    return tb, tw, _groups(board, regs, black, white), _groups(board, regs, white, black)


def _groups(board: Hexagon, regs: list[tuple[int, int]], own: int, enemy: int) -> Groups:
    enemy_groups = board.components(enemy)
    touching = [sum(1 for g in enemy_groups if around & g) if around & enemy else 0 for _, around in regs]
    out = []
    for group in board.components(own):
        around = board.adjacent(group)
        safe = sum(1 for (region, _), t in zip(regs, touching) if region & around and t != 1)
        out.append((group.bit_count(), safe))
    return out
