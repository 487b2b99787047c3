"""Anda (docs/rules/anda.md): the A-T positions, positions of our own from the text, turn structure."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Keep, Komi, Pair, Pass, Place, Swap
from hexarena.engine.games.anda.state import RULES, AndaState, opening_pairs
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition, UnknownVariant
from tests.support import boards


def state(spec: str, n: int = 5, to_move: str = "b", **keys: str) -> AndaState:
    """A position from `"B b2 d2 / W f7 h6"`; both first turns done unless `first=` says otherwise."""
    return boards.state("anda", n, spec, to_move, **{"first": "-", **keys})


def names(s: AndaState, bb: int) -> str:
    return " ".join(s.board.names(bb))


def act(s: AndaState, token: str) -> AndaState:
    return s.play(s.parse(token))


# -- A-T1: the first turn (n=9) ------------------------------------------------------------

@pytest.mark.parametrize("pair,features,cells", [
    ("a1,q17", True, True), ("a1,a9", False, True), ("a3,c1", False, True),
    ("a3,q12", True, True), ("a1,b10", True, True), ("a1,b1", False, False),
])
def test_a_t1_first_turn_pairs(pair, features, cells):
    for opening, legal in (("features", features), ("cells", cells)):
        s = RULES.new_game(RULES.variant(9, ["nopie", f"opening={opening}"]), 0)
        action = s.parse(pair)
        assert s.is_legal(action) == legal, (pair, opening)
        assert (action in set(s.legal_actions())) == legal


def test_a_t1_pair_must_be_perimeter_empty_and_placement_is_refused():
    s = RULES.new_game(RULES.variant(9, ["nopie"]), 0)
    with pytest.raises(IllegalMove, match="perimeter"):
        act(s, "a1,e5")
    with pytest.raises(IllegalMove, match="two stones"):
        act(s, "a1")
    assert s.legal_cells() == 0
    s = act(s, "a1,q17")
    with pytest.raises(IllegalMove, match="occupied"):
        act(s, "a1,q9")


# -- A-T2 ----------------------------------------------------------------------------------

def test_a_t2_white_first_turn_and_no_pass_on_it():
    s = RULES.new_game(RULES.variant(5, ["nopie"]), 3)
    s = act(s, "a1,i9")
    assert s.to_move is Colour.WHITE and s.first == {Colour.WHITE}
    assert Pass() not in set(s.legal_actions())
    with pytest.raises(IllegalMove):
        s.play(Pass())
    s = act(s, "e1,e9")
    assert s.outcome() is None and not s.first
    assert s.position().endswith("komi=3 ply=2")
    s = act(s, "e5")
    assert Pass() in set(s.legal_actions())


# -- A-T3 .. A-T7 (n=5) --------------------------------------------------------------------

def test_a_t3_capture_of_two_groups_wins():
    s = act(state("B b2 d2 / W f7 h6"), "c2")
    assert names(s, s.black) == "b2 c2 d2" and s.white == 0
    assert s.outcome().winner is Colour.BLACK
    assert s.outcome().termination is Termination.ELIMINATED
    assert list(s.legal_actions()) == []
    assert s.outcome().result() == "B+"
    assert s.legal_cells() == 0
    with pytest.raises(ValueError):
        s.random_action(random.Random(0))
    with pytest.raises(IllegalMove, match="over"):
        act(s, "e5")


def test_a_t4_enemy_removal_first_then_friendly_reevaluation():
    s = act(state("B b2 d2 / W f7 h6 a4 b5 b6"), "c2")
    assert s.black == 0                      # f7, h6 gone, then b2 c2 d2 smothered by a4 b5 b6
    assert names(s, s.white) == "a4 b5 b6"
    assert s.outcome().winner is Colour.WHITE


def test_a_t5_no_placement_in_enemy_territory():
    s = state("B b2 d2 / W f7 h6 a4 b5 b6")
    with pytest.raises(IllegalMove, match="a5 is white territory"):
        act(s, "a5")
    assert not s.legal_cells() >> s.board.parse("a5") & 1


def test_a_t6_single_stone_suicide_and_suicide_of_more():
    s = state("B a2 b1 b2 / W h8 h9 i8")
    with pytest.raises(IllegalMove, match="e5 would remove only"):
        act(s, "e5")
    assert names(s, act(s, "c3").black) == "a2 b1 b2 c3"
    after = act(s, "a1")                     # fills its own territory: the four stones go
    assert after.black == 0 and after.outcome().winner is Colour.WHITE
    with pytest.raises(IllegalMove, match="i9 is white territory"):
        act(s, "i9")
    cells = s.legal_cells()
    for name, legal in (("e5", False), ("c3", True), ("a1", True), ("i9", False)):
        assert bool(cells >> s.board.parse(name) & 1) == legal


def test_a_t7_touching_two_enemy_groups():
    # e5 alone against a1 and i9: not smothered, so White's placement elsewhere removes nothing
    s = act(state("B e5 / W a1", to_move="w"), "i9")
    assert names(s, s.black) == "e5"
    # against a1 b1 (one group) it is smothered: White's b1 removes it
    s = act(state("B e5 / W a1", to_move="w"), "b1")
    assert s.black == 0 and s.outcome().winner is Colour.WHITE


# -- positions of our own -----------------------------------------------------------------

def test_capture_of_several_groups_at_once():
    # three white singletons each breathing only the big region that touches the black group;
    # Black joins its two groups and every white stone is smothered at once
    s = state("B c3 e3 / W e9 i5 a5")
    after = act(s, "d3")
    assert after.white == 0 and names(after, after.black) == "c3 d3 e3"


def test_group_alive_by_touching_two_enemy_groups_until_they_merge():
    s = state("B e5 / W a1 c1", to_move="w")
    keep = act(s, "i9")                      # the breath touches three white groups
    assert names(keep, keep.black) == "e5"
    merged = act(s, "b1")                    # a1 b1 c1: one group, the breath touches only it
    assert merged.black == 0


def test_territory_disappears_when_filled_by_its_owner():
    s = state("B a2 b1 b2 / W h8 h9 i8 a4 b5 b6")  # two living white groups (eyes i9, a5)
    a1 = 1 << s.board.parse("a1")
    white_view = act(s, "c3")                # White to move: a1 is black territory
    assert white_view.enemy_territory() & a1
    filled = act(s, "a1")                    # legal, the group lives on the big breath
    assert names(filled, filled.black) == "a1 a2 b1 b2"
    assert filled.enemy_territory() == 0     # White to move: no black territory is left


def test_friendly_group_saved_by_the_enemy_removal():
    # b2 joins a2 b1; right after placing, the group's only breath touches one white group
    # (h8 h9 i8, alive by its territory i9), but a1 (no breath) goes first and its site
    # becomes a breath of the black group with no white stone beside it
    s = state("B a2 b1 / W a1 h8 h9 i8")
    after = act(s, "b2")
    assert names(after, after.white) == "h8 h9 i8"
    assert names(after, after.black) == "a2 b1 b2"


def test_komi_runs_out():
    s = state("B a2 b1 b2 / W h8 h9 i8", to_move="w", variant="nopie", komi="2")
    s = s.play(Pass())
    assert s.komi == 1 and s.black == state("B a2 b1 b2 / W h8 h9 i8").black
    assert s.to_move is Colour.BLACK
    s = act(act(s, "c3"), "pass")
    assert s.komi == 0 and "komi" not in s.position()
    s = act(s, "d4")
    assert Pass() not in set(s.legal_actions())
    with pytest.raises(IllegalMove, match="no komi left"):
        s.play(Pass())
    with pytest.raises(IllegalMove, match="only White"):
        act(s, "g7").play(Pass())


def test_black_never_passes():
    s = state("B e5 / W a1", variant="nopie", komi="4")
    with pytest.raises(IllegalMove, match="only White"):
        s.play(Pass())


# -- the komi pie and the variants -------------------------------------------------------

def test_komi_pie_sequence():
    v = RULES.variant(5, [])
    s = RULES.new_game(v, 7)                 # the komi setting does not count under the pie
    assert s.phase == "offer" and s.komi == 0
    assert list(s.legal_actions()) == [Komi(k) for k in range(62)]
    assert s.legal_cells() == 0
    with pytest.raises(IllegalMove, match="outside 0..61"):
        s.play(Komi(62))
    with pytest.raises(IllegalMove):
        act(s, "a1,i9")
    s = act(s, "komi=5")
    assert s.phase == "answer" and s.to_move is Colour.WHITE and s.komi == 5
    assert list(s.legal_actions()) == [Swap(), Keep()]
    assert s.position().endswith("phase=answer komi=5 first=bw ply=1")
    swapped, kept = s.play(Swap()), s.play(Keep())
    assert swapped == kept and swapped.to_move is Colour.BLACK and swapped.komi == 5
    assert swapped.first == {Colour.BLACK, Colour.WHITE} and swapped.phase == "play"
    with pytest.raises(IllegalMove):
        swapped.play(Swap())


def test_variants_and_tokens():
    assert RULES.variant(None, ["nopie", "opening=cells"]).options == (("opening", "cells"),)
    assert RULES.describe(RULES.variant(7, ["opening=cells", "nopie"])) == "anda nopie opening=cells"
    assert RULES.variant().size == 9 and RULES.variant().balance == "pie"
    with pytest.raises(UnknownVariant):
        RULES.variant(9, ["corners"])
    with pytest.raises(UnknownVariant):
        RULES.variant(9, ["opening=edges"])
    s = RULES.new_game(RULES.variant(5, ["nopie"]), 2)
    assert s.komi == 2 and s.phase == "play"
    for token in ("e8-e6", "e5:e6", "release", "d4/d5"):
        with pytest.raises(InvalidNotation):
            s.parse(token)
    with pytest.raises(IllegalMove):
        s.parse("z9")
    with pytest.raises(IllegalMove):
        s.parse("a1,a1")
    assert s.parse("I9,A1") == Pair(s.board.parse("a1"), s.board.parse("i9"))
    assert s.format(Pair(s.board.parse("a1"), s.board.parse("i9"))) == "a1,i9"
    assert RULES.ply_cap(9) == 2170 and RULES.sgf_number == 1001 and RULES.uses_komi


def test_opening_pairs_are_canonical():
    pairs = opening_pairs(9, "features")
    assert len(set(pairs)) == len(pairs)
    b = RULES.variant(9).board
    for a, c in pairs:
        assert b.sorted_sites((a, c)) == [a, c]
    assert set(opening_pairs(9, "features")) < set(opening_pairs(9, "cells"))


# -- position strings ----------------------------------------------------------------------

def test_position_round_trip_and_keys():
    s = state("B b2 d2 / W f7 h6", to_move="w", variant="nopie", komi="3", ply="9")
    text = s.position()
    assert text.split()[4:] == ["variant=nopie", "komi=3", "ply=9"]
    assert registry.from_position(text) == s
    start = RULES.new_game(RULES.variant(9, ["opening=cells"]), 0)
    assert start.position().endswith("opening=cells phase=offer first=bw")
    assert registry.from_position(start.position()) == start


@pytest.mark.parametrize("suffix,reason", [
    ("prison=1,0", "no key 'prison'"),
    ("phase=setup", "phase=setup: anda phases are offer, answer, play"),
    ("first=x", "first=x"),
    ("komi=x", "komi=x"),
    ("komi=62", "komi=62: expected 0..61"),
])
def test_positions_that_are_not_well_formed(suffix, reason):
    text = "anda 5 b ...../....../......./......../....b..../......../......./....../....w " + suffix
    with pytest.raises(InvalidPosition, match=reason):
        registry.from_position(text)


@pytest.mark.parametrize("suffix", ["first=b", "phase=offer first=bw", "variant=nopie phase=answer", "komi=61"])
def test_well_formed_positions_are_taken_as_written(suffix):
    text = "anda 5 b ...../....../......./......../....b..../......../......./....../....w " + suffix
    s = registry.from_position(text)
    assert registry.from_position(s.position()) == s
    assert (s.outcome() is None) == any(True for _ in s.legal_actions())


def test_unreachable_positions_answer_by_the_rules():
    empty = "/".join("." * k for k in (5, 6, 7, 8, 9, 8, 7, 6, 5))
    # no stones after both first turns: Black has none, so White has won
    assert registry.from_position(f"anda 5 b {empty}").outcome() == Outcome(Colour.WHITE, Termination.ELIMINATED)
    with pytest.raises(InvalidPosition, match="no height"):
        registry.from_position("anda 5 b ...../....../......./......../....b2..../......../......./....../....w")
    # White owes its first turn, Black is to move: Black places single stones; then White its pair
    s = registry.from_position("anda 5 b ...../....../......./......../....b..../......../......./....../..... first=w")
    assert s.outcome() is None and all(isinstance(a, Place) for a in s.legal_actions())
    assert all(isinstance(a, Pair) for a in s.play(next(s.legal_actions())).legal_actions())
    # Black walled in by White, no empty site beside it and no pass: no legal action, Black has lost
    walled = state("B a1 / W a2 b1 b2")
    assert walled.outcome() == Outcome(Colour.WHITE, Termination.NO_MOVES) and list(walled.legal_actions()) == []
    assert state("B a1 / W a2 b1 b2", variant="nopie", to_move="w", komi="1").komi == 1


def test_play_does_not_mutate_and_equal_states_hash_equal():
    s = state("B b2 d2 / W f7 h6 a4 b5 b6")
    before = s.position()
    act(s, "c2")
    assert s.position() == before
    again = state("B b2 d2 / W f7 h6 a4 b5 b6")
    assert again == s and hash(again) == hash(s)
    with pytest.raises(IllegalMove, match="occupied"):
        act(s, "b2")
