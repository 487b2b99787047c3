"""Anda-prison placements, prison, release, the end and the agreed ending (docs/rules/anda-prison.md).

Positions are written as `"B b2 d2 / W f7 h6"` and go through the position
string (`registry.from_position`), so every test also exercises that path.
Unless a test says otherwise: n=5, both first turns done (phase=play).
"""
from __future__ import annotations

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Accept, Decline, Keep, Komi, Place, Propose, Release, Resign, Swap
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.engine.errors import IllegalMove
from tests.support.anda_prison import pair, place, sites, state

B, W = Colour.BLACK, Colour.WHITE


# -- RULES.md section 3 -------------------------------------------------------------------------

def test_b_t2_one_point_eye_cannot_be_filled_even_to_capture():
    s = state("B a3 b3 c3 c2 c1 e9 / W a2 b1 b2 i9 i5")
    with pytest.raises(IllegalMove, match="smothered"):
        place(s, "a1")
    assert not s.legal_cells() & sites(s, "a1")
    assert Place(s.board.parse("a1")) not in set(s.legal_actions())


def test_b_t3_end_of_turn_check():
    s = state("B a1 a2 b2 d2 e9 i9 / W a3 b3 c3 d1 d3 e2 e3 b1 i5")
    with pytest.raises(IllegalMove, match="end of the turn"):
        place(s, "c2")
    assert not s.legal_cells() & sites(s, "c2")


def test_b_t4_annihilation_is_legal_and_does_not_end_the_game():
    s = state("B b2 d2 / W f7 h6", prison="1,0")
    t = place(s, "c2")
    assert t.white == 0 and t.black == sites(s, "b2", "c2", "d2")
    assert (t.prison_black, t.prison_white) == (1, 2)
    assert t.annihilated == frozenset({B})
    assert t.outcome() is None                    # White can still release
    assert set(t.legal_actions()) == {Release(), Propose()}
    assert "annihilated=b" in t.position() and "prison=1,2" in t.position()


def test_b_t4_annihilation_banned_after_the_opponents_annihilation():
    s = state("B b2 d2 / W f7 h6", annihilated="w")
    with pytest.raises(IllegalMove, match="annihilat"):
        place(s, "c2")
    assert not s.legal_cells() & sites(s, "c2")
    assert s.legal_cells()                        # other placements stay legal
    # the own earlier annihilation bans nothing
    assert place(state("B b2 d2 / W f7 h6", annihilated="b"), "c2").white == 0


def test_b_t5_no_placement_and_no_prisoner_loses():
    s = state("B b2 c2 d2", to_move="w")
    assert s.legal_cells() == 0
    assert list(s.legal_actions()) == []
    assert s.outcome() == Outcome(B, Termination.NO_MOVES)
    with pytest.raises(IllegalMove):
        s.play(Release())
    with pytest.raises(IllegalMove):
        s.play(Propose())


def test_b_t5_release_is_the_only_board_action():
    s = state("B b2 c2 d2", to_move="w", prison="1,0")
    assert s.legal_cells() == 0
    assert set(s.legal_actions()) == {Release(), Propose()}
    assert s.outcome() is None
    t = s.play(Release())
    assert (t.prison_black, t.prison_white) == (0, 0)
    assert t.black == s.black and t.to_move is B and t.last is W


def test_b_t8_one_placement_sends_sixteen_stones_to_the_prison():
    white = "a4 b4 c4 d4 e4 f4 g4 h4 b6 c6 d6 e6 f6 g6 h6 i6"
    s = state(f"B a2 b1 b2 h9 h8 i8 / W {white}")
    assert s.legal_cells() & sites(s, "e5")
    t = place(s, "e5")
    assert t.prison_white == 16 and t.prison_black == 0
    assert t.white == 0
    assert t.black == sites(s, "a2", "b1", "b2", "h9", "h8", "i8", "e5")


def test_b_t9_first_turn_pair_must_not_be_adjacent():
    s = registry.get("anda-prison").new_game(registry.get("anda-prison").variant(5), 0)
    assert s.phase == "pair" and s.to_move is B
    with pytest.raises(IllegalMove, match="adjacent"):
        s.play(pair(s, "e5", "e6"))
    t = s.play(pair(s, "e5", "e7"))
    assert t.black == sites(s, "e5", "e7") and t.to_move is W
    assert pair(s, "e5", "e6") not in set(s.legal_actions())
    assert pair(s, "e5", "e7") in set(s.legal_actions())


# -- placements and the prison -----------------------------------------------------------------

def test_both_colours_go_to_the_prison_in_one_evaluation():
    # Black a1 (no liberty) and White e9 (no liberty) are smothered already but stay on the
    # board until a placement; Black's c5 sends both to the prison in the same evaluation.
    s = state("B a1 d8 e8 f9 / W a2 b1 b2 e9 i5")
    t = place(s, "c5")
    assert (t.prison_black, t.prison_white) == (1, 1)
    assert t.black == sites(s, "d8", "e8", "f9", "c5")
    assert t.white == sites(s, "a2", "b1", "b2", "i5")


def test_own_smothered_groups_go_to_the_prison_too():
    s = state("B d8 e8 f9 a1 / W e9 i5 a5", to_move="w")
    t = place(s, "c3")
    assert t.white == sites(s, "i5", "a5", "c3")
    assert (t.prison_black, t.prison_white) == (0, 1)
    u = place(state("B d8 e8 f9 a1 / W e9 i5 a5"), "c3")
    assert u.white == sites(s, "i5", "a5") and u.prison_white == 1


def test_occupied_and_off_board():
    s = state("B e5 c3 / W e7 a1")
    with pytest.raises(IllegalMove, match="occupied"):
        place(s, "e7")
    with pytest.raises(IllegalMove):
        s.play(Place(10_000))


def test_release_with_an_empty_prison_is_illegal():
    s = state("B e5 c3 / W e7 a1", prison="3,0")     # only black stones: nothing for Black to release
    assert Release() not in set(s.legal_actions())
    with pytest.raises(IllegalMove, match="prison"):
        s.play(Release())
    t = state("B e5 c3 / W e7 a1", prison="3,0", to_move="w")
    assert Release() in set(t.legal_actions())
    assert t.play(Release()).prison_black == 2


def test_resign_and_setup_actions_are_not_played_in_play():
    s = state("B e5 c3 / W e7 a1")
    for action in (Resign(), Swap(), Keep(), Komi(2), Accept(), Decline(), pair(s, "a1", "c1")):
        with pytest.raises(IllegalMove):
            s.play(action)


# -- ending by agreement ----------------------------------------------------------------------

WALL = "B a2 b2 c2 d2 e2 f2 h8 / W e5 e7"   # Black's wall owns a1..e1: territory 5


def test_agreed_ending_is_scored():
    s = state(WALL, prison="1,2", last="w")
    p = s.play(Propose())
    assert p.phase == "proposed" and p.to_move is W
    assert set(p.legal_actions()) == {Accept(), Decline()} and p.legal_cells() == 0
    end = p.play(Accept())
    # Black 5 territory + 2 white prisoners; White 1 black prisoner + 1/2 (White placed last)
    assert end.outcome() == Outcome(B, Termination.AGREEMENT, 5.5)
    assert end.outcome().result() == "B+5.5"
    assert list(end.legal_actions()) == []
    with pytest.raises(IllegalMove):
        end.play(Place(s.board.parse("h9")))


def test_half_point_decides_equal_counts():
    s = state(WALL, prison="7,2", last="w")       # 5 + 2 against 7 + 1/2
    end = s.play(Propose()).play(Accept())
    assert end.outcome() == Outcome(W, Termination.AGREEMENT, 0.5)
    assert end.outcome().result() == "W+0.5"
    # the same board given without `last=`: nobody earned the half point, a draw
    tied = state(WALL, prison="7,2").play(Propose()).play(Accept())
    assert tied.outcome() == Outcome(None, Termination.AGREEMENT)


def test_decline_forces_a_board_action_before_proposing_again():
    s = state(WALL, prison="1,2")
    d = s.play(Propose()).play(Decline())
    assert d.phase == "declined" and d.to_move is B
    assert Propose() not in set(d.legal_actions())
    with pytest.raises(IllegalMove, match="propos"):
        d.play(Propose())
    assert Release() in set(d.legal_actions())
    after = place(d, "c5")
    assert after.phase == "play" and after.to_move is W and after.last is B
    assert Propose() in set(after.legal_actions())
    back = place(after, "g5")
    assert Propose() in set(back.legal_actions())
    again = d.play(Release())                     # a release also clears the ban
    assert again.prison_white == 1 and again.phase == "play"


def test_komi_stones_count_for_white():
    info = registry.get("anda-prison")
    s = info.new_game(info.variant(5), 0)
    s = s.play(pair(s, "a1", "i9"))
    s = s.play(pair(s, "a5", "i5"))
    s = s.play(Keep()).play(Komi(3))
    assert (s.prison_black, s.prison_white) == (3, 0) and s.komi == 3
    s = s.play(Keep())
    assert s.phase == "play" and s.to_move is B
    end = s.play(Propose()).play(Accept())
    assert end.outcome() == Outcome(W, Termination.AGREEMENT, 3.5)


def test_adjudication_scores_as_if_accepted_now():
    s = state(WALL, prison="1,2", to_move="w", last="b")    # Black placed last
    assert s.adjudicate() == Outcome(B, Termination.PLY_CAP, 6.5)
    assert s.adjudicate().result() == "B+6.5"
    assert s.outcome() is None
