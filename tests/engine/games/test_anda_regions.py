"""engine/games/anda_regions.py against the definitions of docs/rules/anda.md and anda-prison.md, by a naive oracle."""
from __future__ import annotations

import random

import pytest

from hexarena.engine.games import anda_regions as R
from hexarena.engine.geometry import hexagon, iter_bits


def bb(board, names: str) -> int:
    out = 0
    for name in names.split():
        out |= 1 << board.parse(name)
    return out


# -- a naive oracle: sets of sites and breadth-first search --------------------------------

def comps(board, sites: set[int]) -> list[frozenset[int]]:
    seen: set[int] = set()
    out = []
    for s in sites:
        if s in seen:
            continue
        comp, todo = {s}, [s]
        while todo:
            x = todo.pop()
            for y in board.neighbours[x]:
                if y in sites and y not in comp:
                    comp.add(y)
                    todo.append(y)
        seen |= comp
        out.append(frozenset(comp))
    return out


def touches(board, a: frozenset[int], b: frozenset[int]) -> bool:
    return any(y in b for x in a for y in board.neighbours[x])


def oracle_smothered(board, group, enemy_groups, regs) -> bool:
    breaths = [r for r in regs if touches(board, group, r)]
    return all(sum(touches(board, r, g) for g in enemy_groups) == 1 for r in breaths)


def to_set(x: int) -> set[int]:
    return set(iter_bits(x))


def to_bb(s) -> int:
    return sum(1 << x for x in s)


def random_board(board, rng, density):
    black = white = 0
    for s in board.sites:
        u = rng.random()
        if u < density:
            black |= 1 << s
        elif u < 2 * density:
            white |= 1 << s
    return black, white


# -- tests ---------------------------------------------------------------------------------

def test_a_t7_touching_two_enemy_groups_keeps_alive():
    b = hexagon(5)
    e5, empty_of = bb(b, "e5"), (lambda *s: b.mask & ~sum(s))
    white = bb(b, "a1 i9")
    assert not R.smothered(b, e5, white, empty_of(e5, white))
    white = bb(b, "a1 b1")
    assert R.smothered(b, e5, white, empty_of(e5, white))
    assert R.smothered_stones(b, e5, white, empty_of(e5, white)) == e5


def test_no_breath_is_smothered_and_friendly_groups_are_ignored():
    b = hexagon(5)
    black = bb(b, "a1")
    white = bb(b, "a2 b1 b2")
    empty = b.mask & ~(black | white)
    assert R.breaths(b, black, empty) == []
    assert R.smothered(b, black, white, empty)
    # e5 alone, two white groups far away, plus another black group: the black group does not count
    black = bb(b, "e5 a5")
    white = bb(b, "i9 a1")
    empty = b.mask & ~(black | white)
    assert not R.smothered(b, bb(b, "e5"), white, empty)
    assert R.smothered_stones(b, black, white, empty) == 0


def test_territory_and_breaths():
    b = hexagon(5)
    black = bb(b, "b2 c2 d2 a2 b1")      # encloses a1? a1 neighbours: a2 b1 b2
    white = bb(b, "e5")
    empty = b.mask & ~(black | white)
    a1 = bb(b, "a1")
    assert R.is_territory(b, a1, black, white)
    assert not R.is_territory(b, a1, white, black)
    terr = R.territory(b, black, white, empty)
    assert terr & a1 and not terr & ~a1 & empty & b.expand(white)
    assert sorted(R.breaths(b, black, empty)) == sorted(R.regions(b, empty))
    assert R.liberties(b, bb(b, "e5"), empty) == b.neighbour_mask[b.parse("e5")]
    assert R.group_at(b, black, b.parse("c2")) == black
    assert R.group_at(b, black, b.parse("e5")) == 0
    assert R.touching_groups(b, a1, black) == 1
    assert R.touching_groups(b, empty & ~a1, black | white) == 2
    assert R.touching_groups(b, empty & ~a1, black | white, cap=1) == 1


def test_region_without_stones_is_nobodys_territory():
    b = hexagon(4)
    assert R.territory(b, 0, 0, b.mask) == 0
    assert not R.is_territory(b, b.mask, 0, 0)


@pytest.mark.parametrize("n,density", [(3, 0.3), (5, 0.25), (5, 0.4), (7, 0.3), (9, 0.35)])
def test_against_oracle_on_random_boards(n, density):
    b = hexagon(n)
    rng = random.Random(n * 1000 + int(density * 100))
    for _ in range(25):
        black, white = random_board(b, rng, density)
        empty = b.mask & ~(black | white)
        regs = comps(b, to_set(empty))
        assert sorted(R.regions(b, empty)) == sorted(to_bb(r) for r in regs)
        for own, other in ((black, white), (white, black)):
            own_groups = comps(b, to_set(own))
            other_groups = comps(b, to_set(other))
            assert sorted(R.groups(b, own)) == sorted(to_bb(g) for g in own_groups)
            expected = 0
            for g in own_groups:
                gb = to_bb(g)
                want = oracle_smothered(b, g, other_groups, regs)
                assert R.smothered(b, gb, other, empty) == want
                assert sorted(R.breaths(b, gb, empty)) == sorted(
                    to_bb(r) for r in regs if touches(b, g, r))
                if want:
                    expected |= gb
            assert R.smothered_stones(b, own, other, empty) == expected
            assert sorted(R.smothered_groups(b, own, other, empty)) == sorted(R.groups(b, expected))
            terr = 0
            for r in regs:
                own_t = any(touches(b, r, frozenset([s])) for s in to_set(own))
                oth_t = any(touches(b, r, frozenset([s])) for s in to_set(other))
                is_t = own_t and not oth_t
                assert R.is_territory(b, to_bb(r), own, other) == is_t
                if is_t:
                    terr |= to_bb(r)
            assert R.territory(b, own, other, empty) == terr
