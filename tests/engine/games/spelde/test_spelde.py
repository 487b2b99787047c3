"""Spelde, docs/rules/spelde.md: the tests it lists (S-T1..S-T5) and our own from the text."""
import random

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Place, Split, Swap
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition
from hexarena.engine.games.spelde.flips import bad_stones, flip_sets, splits
from hexarena.engine.games.spelde.state import RULES as PYTHON_RULES
from tests.support.differential import load
from tests.support.boards import state
from tests.support.playthrough import playthrough

RULES = registry.get("spelde")


def sp(spec, to_move="b", n=5, **keys):
    return state("spelde", n, spec, to_move, **keys)


def legal(s, token):
    return s.is_legal(s.parse(token))


def cells(s):
    return s.board.names(s.legal_cells())


# -- the test positions of docs/rules/spelde.md ----------------------------------------------------

def test_s_t1_flip_need_not_touch_the_placed_stone():
    s = sp("B a1 / W c5 d5 e5")
    assert legal(s, "d4/d5")
    assert legal(s, "f5/d5")
    std = sp("B a1 / W c5 d5 e5", flips="standard")
    assert legal(std, "d4/d5")            # d5 touches d4 and splits at once
    assert not legal(std, "f5/d5")        # d5 does not touch f5


def test_s_t2_ring_split_by_two_separate_stones():
    s = sp("W d4 d5 e4 e6 f5 f6")
    assert legal(s, "e5/d5,f5")
    assert not legal(sp("W d4 d5 e4 e6 f5 f6", flips="standard"), "e5/d5,f5")
    assert not legal(sp("W d4 d5 e4 e6 f5 f6", flips="dense"), "e5/d5,f5")


@pytest.mark.parametrize("white, site", [("e5", "e6"), ("h7 h8", "g7"), ("a4 a5 b5", "b6")])
def test_s_t3_singleton_pair_triangle_block(white, site):
    s = sp(f"W {white}")
    board = s.board
    assert not s.legal_cells() >> board.parse(site) & 1
    assert not s.is_legal(Place(board.parse(site)))
    group = sum(1 << board.parse(x) for x in white.split())
    assert bad_stones(board, group) == group
    assert not any(True for _ in flip_sets(board, "literal", group, board.parse(site)))


def test_s_t4_every_adjacent_group_must_split():
    s = sp("W c5 d5 e5 g6 g7")
    assert "f6" not in cells(s)
    for token in ("f6/d5", "f6/d5,g6", "f6/g6"):
        assert not legal(s, token)
    assert "d4" in cells(s)


def test_s_t5_line_of_five_has_exactly_16_flip_sets():
    s = sp("W a5 b5 c5 d5 e5")
    for ok in ("f5/c5", "f5/b5,c5,d5", "f5/b5,d5"):
        assert legal(s, ok), ok
    for bad in ("f5/e5", "f5/a5,b5,c5,d5,e5", "f5/a5,e5"):
        assert not legal(s, bad), bad
    f5 = s.board.parse("f5")
    at_f5 = [a for a in s.legal_actions() if a.cell == f5]
    assert len(at_f5) == 16
    assert all(isinstance(a, Split) for a in at_f5)


# -- our own, from the text -----------------------------------------------------------

def test_placement_without_enemy_neighbours_is_plain_and_cannot_flip():
    s = sp("B a1 / W e5")
    assert legal(s, "a5")
    assert not legal(s, "a5/e5")          # nothing adjacent to flip
    s2 = sp("W c5 d5 e5")
    assert not legal(s2, "d4")            # an adjacent group must be split
    assert not legal(s2, "d4/a1")


def test_flips_change_colour_and_merge_with_the_mover():
    s = sp("W a5 b5 c5 d5 e5")
    after = s.play(s.parse("f5/b5,d5"))
    assert set(after.board.names(after.black)) == {"b5", "d5", "f5"}
    assert set(after.board.names(after.white)) == {"a5", "c5", "e5"}
    assert after.to_move is Colour.WHITE and after.ply == s.ply + 1


def test_two_adjacent_groups_each_need_a_flip_set():
    s = sp("W c4 d4 e4 f4 f6 g7 h8 i9")       # f5 touches e4/f4 (one line) and f6 (another)
    board = s.board
    assert len(load(PYTHON_RULES, s.position())._adjacent_groups(board.parse("f5"))) == 2
    assert not legal(s, "f5/d4")             # only one of the two groups split
    assert not legal(s, "f5/g7")
    assert legal(s, "f5/d4,g7")
    assert not legal(s, "f5/d4,g7,a1")       # a1 is empty, in no adjacent group


def test_occupied_and_off_board():
    s = sp("B e5")
    with pytest.raises(IllegalMove, match="occupied"):
        s.play(s.parse("e5"))
    with pytest.raises(IllegalMove):
        s.parse("z9")
    with pytest.raises(InvalidNotation):
        s.parse("e8-e6")
    with pytest.raises(InvalidNotation):
        s.parse("komi=3")


@pytest.mark.parametrize("flips", [1 << 200, -1, 1 << 9])
def test_a_split_built_by_hand_naming_sites_off_the_board_is_illegal(flips):
    s = sp("B e5 / W e6 e7")
    assert not s.board.is_site(9)       # the padding of the first row at n=5
    with pytest.raises(IllegalMove, match="off the board"):
        s.play(Split(s.board.parse("e8"), 1 << s.board.parse("e7") | flips))


def test_player_without_placement_loses():
    s = state("spelde", 2, "W a1 / B c3", to_move="b")
    assert all(not legal(s, x) for x in ("a2", "b1", "b2"))   # next to the white singleton a1
    assert s.outcome() is None                                # b3 and c2 are still open for Black
    full = state("spelde", 2, "W b2", to_move="b")            # the centre touches every site
    assert full.legal_cells() == 0 and list(full.legal_actions()) == []
    out = full.outcome()
    assert out.winner is Colour.WHITE and out.termination is Termination.NO_MOVES
    with pytest.raises(IllegalMove):
        full.play(full.parse("a1"))
    with pytest.raises(ValueError):
        full.random_action(random.Random(0))


def test_pie_swap_then_white_moves_again():
    s = RULES.new_game(RULES.variant(5), 0)
    assert s.phase == "open" and Swap() not in set(s.legal_actions())
    s = s.play(s.parse("e5"))
    assert s.phase == "swap" and s.to_move is Colour.WHITE
    assert Swap() in set(s.legal_actions())
    swapped = s.play(Swap())
    assert swapped.to_move is Colour.WHITE and swapped.phase == "play"
    assert swapped.black == s.black and swapped.white == s.white
    with pytest.raises(IllegalMove):
        swapped.play(Swap())
    kept = s.play(s.parse("a1"))
    assert kept.phase == "play" and Swap() not in set(kept.legal_actions())


def test_nopie_has_no_swap():
    s = RULES.new_game(RULES.variant(5, ["nopie"]), 0)
    s = s.play(s.parse("e5"))
    assert Swap() not in set(s.legal_actions())
    with pytest.raises(IllegalMove):
        s.play(Swap())


def test_variants_and_options():
    v = RULES.variant(7, ["flips=dense", "nopie"])
    assert v.balance == "nopie" and v.option("flips") == "dense"
    assert RULES.describe(v) == "spelde nopie flips=dense"
    assert RULES.describe(RULES.variant()) == "spelde pie"
    for bad in (["corners"], ["flips=wide"], ["opening=cells"], ["pie", "nopie"]):
        with pytest.raises(ValueError):
            RULES.variant(5, bad)


def test_dense_requires_a_path_of_consecutive_stones():
    s = sp("W a5 b5 c5 d5 e5", flips="dense")
    assert legal(s, "f5/b5,c5,d5") and legal(s, "f5/c5")
    assert not legal(s, "f5/b5,d5")          # splits, but is not a path


def test_standard_keeps_the_group_connected_until_the_last_flip():
    s = sp("W a5 b5 c5 d5 e5", flips="standard")
    f5 = s.board.parse("f5")
    # e5 is the only stone touching f5 and removing it leaves a5..d5 connected;
    # e5,d5 leaves a5..c5: the line can never be split from its end.
    assert not s.legal_cells() >> f5 & 1
    t = sp("W c4 c5 c6 d5", flips="standard")  # a T whose stem d5 touches e5
    e5 = t.board.parse("e5")
    assert t.legal_cells() >> e5 & 1
    assert sorted(t.format(a) for a in t.legal_actions() if a.cell == e5) == ["e5/c5,d5"]


def test_position_round_trip_and_validation():
    s = RULES.new_game(RULES.variant(6, ["flips=standard"]), 0).play(Place(RULES.variant(6).board.parse("f6")))
    text = s.position()
    assert text.endswith("flips=standard phase=swap ply=1")
    assert registry.from_position(text) == s
    for bad, reason in (("spelde 2 b ../.../.. phase=later", "phase=later: spelde phases are open, swap, play"),
                        ("spelde 2 b b2./.../..", "no height"), ("spelde 2 b ../.../.. komi=3", "no key 'komi'"),
                        ("spelde 2 b ../.../.. ply=x", "ply=x")):
        with pytest.raises(InvalidPosition, match=reason):
            registry.from_position(bad)
    for unreachable in ("spelde 2 b ../.../.. phase=swap", "spelde 2 w ../.../.. phase=open",
                        "spelde 2 b ../.../.. variant=nopie phase=open"):
        t = registry.from_position(unreachable)          # taken as written
        assert registry.from_position(t.position()) == t


def test_swap_survives_a_board_without_placements():
    """The pie decision is not a placement (docs/rules/spelde.md). n=2, Black b2: White's only action is swap."""
    s = RULES.new_game(RULES.variant(2), 0).play(Place(RULES.variant(2).board.parse("b2")))
    assert s.legal_cells() == 0 and list(s.legal_actions()) == [Swap()] and s.outcome() is None
    assert s.random_action(random.Random(0)) == Swap()
    after = s.play(Swap())
    assert after.to_move is Colour.WHITE and list(after.legal_actions()) == []
    assert after.outcome() == Outcome(Colour.BLACK, Termination.NO_MOVES)


def test_splits_helper():
    s = sp("W a5 b5 c5")
    board = s.board
    g = sum(1 << board.parse(x) for x in ("a5", "b5", "c5"))
    assert splits(board, g, 1 << board.parse("b5"))
    assert not splits(board, g, 1 << board.parse("a5"))
    assert not splits(board, g, g)


# -- seeded random playthroughs ------------------------------------------------------------

@pytest.mark.parametrize("n, flips, seed, plies", [pytest.param(5, "literal", 1, 999, marks=pytest.mark.slow),
                                                    (6, "literal", 2, 999), (7, "literal", 3, 40),
                                                    pytest.param(5, "dense", 4, 999, marks=pytest.mark.slow),
                                                    pytest.param(5, "standard", 5, 999, marks=pytest.mark.slow),
                                                    pytest.param(6, "standard", 6, 999, marks=pytest.mark.slow)])
def test_random_playthrough_invariants(n, flips, seed, plies):
    def extra(s, parent):
        assert (s.legal_cells() == 0) == (s.outcome() is not None)
        assert s.black & s.white == 0
        if parent is not None:
            assert (s.black | s.white).bit_count() >= (parent.black | parent.white).bit_count()
    final = playthrough(RULES.new_game(RULES.variant(n, [f"flips={flips}"]), 0), seed, plies, extra=extra)
    assert final.outcome() is not None or final.ply == plies
    assert final.ply <= RULES.ply_cap(n)


def test_random_action_is_seeded():
    s = RULES.new_game(RULES.variant(6), 0)
    a = [s.random_action(random.Random(9)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
