import random

import pytest

from hexarena.engine.errors import IllegalMove, InvalidNotation
from hexarena.engine.geometry import (DIRECTIONS, MAX_SIZE, MIN_SIZE, expand_unclipped, flood_unclipped, grid_bits,
                                      hexagon, iter_bits, split_rays)


@pytest.mark.parametrize("n", range(MIN_SIZE, MAX_SIZE + 1))
def test_site_count_and_notation_round_trip(n):
    board = hexagon(n)
    assert board.site_count == 3 * n * (n - 1) + 1
    names = [board.name(b) for b in board.sites]
    assert len(set(names)) == len(names)
    for b, name in zip(board.sites, names):
        assert board.parse(name) == b
        assert board.parse(name.upper()) == b
    assert names == sorted(names, key=lambda s: (s[0], int(s[1:])))


@pytest.mark.parametrize("n", range(MIN_SIZE, MAX_SIZE + 1))
def test_neighbours_are_symmetric_and_match_the_bitboard_expand(n):
    board = hexagon(n)
    for b in board.sites:
        for x in board.neighbours[b]:
            assert b in board.neighbours[x]
        assert board.adjacent(1 << b) == board.neighbour_mask[b]
    interior = [b for b in board.sites if not board.perimeter >> b & 1]
    assert all(len(board.neighbours[b]) == 6 for b in interior)
    assert len(interior) == (3 * (n - 1) * (n - 2) + 1 if n > 1 else 0)


@pytest.mark.parametrize("n", range(MIN_SIZE, MAX_SIZE + 1))
def test_grid_bits_is_one_past_the_highest_site(n):
    board = hexagon(n)
    assert grid_bits(n) == board.mask.bit_length() == max(board.sites) + 1


def test_rules_md_diagram_n5():
    board = hexagon(5)
    assert board.names(board.neighbour_mask[board.parse("e5")]) == ["d4", "d5", "e4", "e6", "f5", "f6"]
    assert [board.name(k) for k in board.corners] == ["i5", "i9", "e9", "a5", "a1", "e1"]
    assert [board.names(s) for s in board.sides] == [
        ["i6", "i7", "i8"], ["f9", "g9", "h9"], ["b6", "c7", "d8"],
        ["a2", "a3", "a4"], ["b1", "c1", "d1"], ["f2", "g3", "h4"]]
    rows = {r: [board.name(b) for b in board.sites if board.coords(b)[1] == r - 1] for r in (1, 5, 9)}
    assert rows[1] == ["a1", "b1", "c1", "d1", "e1"]
    assert rows[5] == ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5"]
    assert rows[9] == ["e9", "f9", "g9", "h9", "i9"]


def test_corners_n9():
    board = hexagon(9)
    assert [board.name(k) for k in board.corners] == ["q9", "q17", "i17", "a9", "a1", "i1"]


def test_rays_follow_directions_to_the_edge():
    board = hexagon(5)
    e5 = board.parse("e5")
    assert [board.name(b) for b in board.rays[e5][DIRECTIONS.index((0, 1))]] == ["e6", "e7", "e8", "e9"]
    assert [board.name(b) for b in board.rays[e5][DIRECTIONS.index((-1, -1))]] == ["d4", "c3", "b2", "a1"]
    a1 = board.parse("a1")
    assert board.rays[a1][DIRECTIONS.index((-1, 0))] == ()


def test_features_and_adjacency():
    board = hexagon(5)
    assert board.feature(board.parse("i5")) == 0
    assert board.feature(board.parse("i7")) == 1
    assert board.feature(board.parse("e5")) is None
    assert board.features_adjacent(0, 1) and board.features_adjacent(0, 2) and board.features_adjacent(11, 1)
    assert not board.features_adjacent(0, 3) and not board.features_adjacent(0, 6)
    assert board.perimeter.bit_count() == 6 * 4


def test_flood_and_components():
    board = hexagon(5)
    bb = sum(1 << board.parse(x) for x in ("a1", "b2", "c3", "e5", "e6"))
    comps = board.components(bb)
    assert sorted(board.names(c) for c in comps) == [["a1", "b2", "c3"], ["e5", "e6"]]
    assert not board.is_connected(bb)
    assert board.is_connected(comps[0])
    assert sorted(iter_bits(bb)) == sorted(board.parse(x) for x in ("a1", "b2", "c3", "e5", "e6"))


@pytest.mark.parametrize("text", ["", "5", "e", "ee5", "e05", "e5x", "é5", "e-1"])
def test_bad_site_names_are_syntax_errors(text):
    with pytest.raises(InvalidNotation):
        hexagon(5).parse(text)


@pytest.mark.parametrize("text", ["a6", "j5", "e10", "z1", "i1"])
def test_off_board_sites_are_illegal(text):
    with pytest.raises(IllegalMove):
        hexagon(5).parse(text)


@pytest.mark.parametrize("n", [1, 14, 0])
def test_sizes_outside_the_range_are_refused(n):
    with pytest.raises(ValueError):
        hexagon(n)


def test_nth_bit_agrees_with_iter_bits():
    import random

    from hexarena.engine.geometry import nth_bit
    rng = random.Random(5)
    for _ in range(2000):
        bb = rng.getrandbits(rng.choice((3, 40, 200, 650)))
        bits = list(iter_bits(bb))
        for k in {0, len(bits) // 2, len(bits) - 1, min(7, len(bits) - 1), min(8, len(bits) - 1)}:
            if 0 <= k < len(bits):
                assert nth_bit(bb, k) == bits[k]


@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_unclipped_expand_and_flood_agree_with_the_board(n):
    board = hexagon(n)
    w, v = board.width, board.width + 1
    rng = random.Random(n)
    for _ in range(50):
        bb = sum(1 << s for s in board.sites if rng.random() < 0.3)
        assert expand_unclipped(bb, w, v) & board.mask == board.expand(bb)
        seed = bb & -bb
        assert flood_unclipped(seed, bb, w, v) == board.flood(seed, bb)


@pytest.mark.parametrize("n", [2, 4, 7])
def test_split_rays_are_the_rays_by_direction_sign(n):
    board = hexagon(n)
    up, down = split_rays(n)
    for s in board.sites:
        rays = [sum(1 << x for x in ray) for ray in board.rays[s] if ray]
        assert sorted(up[s] + down[s]) == sorted(rays)
        assert all(min(iter_bits(r)) > s for r in up[s]) and all(max(iter_bits(r)) < s for r in down[s])
