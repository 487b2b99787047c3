"""Marbanta rules from docs/rules/marbanta.md (M-T*), cases of our own, pie, positions, notation."""
from __future__ import annotations

import importlib
import random

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Grow, Keep, PieStones, Place, Resign, Swap
from hexarena.engine.core import Colour, Outcome, Termination

B = Colour.BLACK
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition, UnknownVariant
from hexarena.engine.games.marbanta.state import RULES, MarbantaState
from tests.support.marbanta import board


def names(state: MarbantaState, bb: int) -> set[str]:
    return set(state.board.names(bb))


def tokens(state: MarbantaState) -> set[str]:
    return {state.format(a) for a in state.legal_actions()}


# -- docs/rules/marbanta.md ------------------------------------------------------------------------

def test_m_t1_fifteen_roots_each_seeing_one_group():
    s = board("B e5 / W c3")
    want = set("a5 b5 c5 e1 e2 e3 e7 e8 e9 g5 g7 h5 h8 i5 i9".split())
    assert names(s, s.legal_cells()) == want
    assert tokens(s) == want                      # every root has N=1: single placements


def test_m_t2_two_groups_four_sets_and_blind_roots():
    s = board("B c3 g7 / W e1")
    assert {t for t in tokens(s) if t.startswith("e5")} == {"e5:d5", "e5:e4", "e5:e6", "e5:f5"}
    cells = names(s, s.legal_cells())
    assert "e5" in cells and "c5" in cells and "e9" not in cells
    assert "c5" in tokens(s)                       # N=1: a plain placement
    with pytest.raises(IllegalMove, match="e9 sees no black group"):
        s.play(s.parse("e9"))
    with pytest.raises(IllegalMove, match="sees 2 black groups"):
        s.play(s.parse("e5"))
    with pytest.raises(IllegalMove, match="touches a black stone"):
        s.play(s.parse("e5:d4"))                   # d4 is next to c3
    after = s.play(s.parse("e5:e6"))
    assert names(after, after.black) == {"c3", "g7", "e5", "e6"} and after.to_move is Colour.WHITE


def test_m_t4_one_group_seen_from_two_rays_counts_once():
    s = board("B c3 d3 e3 / W a1")
    assert "e5" in tokens(s)                       # sees e3 (column) and c3 (diagonal): N=1
    with pytest.raises(IllegalMove, match="sees 1 black group"):
        s.play(s.parse("e5:e6"))


def test_m_t6_root_without_room_is_illegal():
    s = board("B a3 c1 e5 / W b2")
    assert "a1" not in names(s, s.legal_cells())
    assert not any(t.startswith("a1") for t in tokens(s))
    with pytest.raises(IllegalMove):
        s.play(s.parse("a1:a2"))                   # a2 touches a3
    with pytest.raises(IllegalMove):
        s.play(s.parse("a1:b1"))                   # b1 touches c1


# -- cases of our own -----------------------------------------------------------

def test_two_groups_on_one_ray_count_twice():
    s = board("B a5 c5 / W i9")                    # e5 sees c5, and a5 behind it (friends do not block)
    assert {t for t in tokens(s) if t.startswith("e5")} == {
        "e5:d4", "e5:e4", "e5:e6", "e5:f5", "e5:f6"}
    assert "e5" not in tokens(s) and "g5" not in tokens(s)
    assert any(t.startswith("g5:") for t in tokens(s))
    assert {t for t in tokens(s) if t.startswith("c7")} == {"c7:d7", "c7:d8"}   # c7-c5 and c7-b6-a5



def test_enemy_stone_blocks_sight_friend_does_not():
    s = board("B a5 / W c5")                       # c5 blocks a5 from e5 and everything east
    assert "e5" not in names(s, s.legal_cells())
    s2 = board("B a5 / W c4")
    assert "e5" in tokens(s2)


def test_enemy_contact_is_allowed():
    s = board("B a1 / W e4 f5 d5")
    assert "e5" in tokens(s)                       # e5 touches three white stones, sees a1
    s = board("B a1 i5 / W e6 f6")               # e5 sees a1 and i5; d5 touches e6
    assert {"e5:d5", "e5:f5"} <= tokens(s)


def test_player_unable_to_move_wins():
    # Black's only stone sits in a corner walled by white: every free site is blind.
    s = board("B a1 / W a2 b2 b1", to_move="b")
    assert s.legal_cells() == 0 and list(s.legal_actions()) == []
    out = s.outcome()
    assert out is not None and out.winner is Colour.BLACK and out.termination is Termination.NO_MOVES
    assert out.result() == "B+"
    with pytest.raises(ValueError):
        s.random_action(random.Random(1))
    assert RULES.no_move_wins


def test_the_mover_wins_not_the_last_player():
    s = board("B a1 / W a2 b2 b1", to_move="w")   # White still has moves
    assert s.outcome() is None
    assert all(isinstance(a, (Place, Grow)) for a in s.legal_actions())


def test_new_group_must_be_connected_and_exact_size():
    s = board("B c3 g7 / W e1")
    with pytest.raises(IllegalMove, match="not connected"):
        s.play(Grow(s.board.parse("e5"), (s.board.parse("e7"),)))
    with pytest.raises(IllegalMove, match="needs 2 stones, not 3"):
        s.play(s.parse("e5:e6,e7"))
    with pytest.raises(IllegalMove, match="occupied"):
        s.play(s.parse("g7"))
    with pytest.raises(IllegalMove, match="at least one branched"):
        s.play(Grow(s.board.parse("e5"), ()))


# -- the pie --------------------------------------------------------------------------

def test_pie_swap_keep_and_black_plays_after():
    s = RULES.new_game(RULES.variant(5), 0)
    assert s.phase == "pie" and s.to_move is Colour.BLACK and s.legal_cells() == 0
    assert s.outcome() is None
    with pytest.raises(IllegalMove, match="pie comes first"):
        s.play(s.parse("e5"))
    p = s.play(s.parse("e5,c3"))
    assert p == s.play(PieStones(s.board.parse("e5"), s.board.parse("c3")))
    assert names(p, p.black) == {"e5"} and names(p, p.white) == {"c3"}
    assert p.phase == "swap" and p.to_move is Colour.WHITE and p.legal_cells() == 0
    assert list(p.legal_actions()) == [Swap(), Keep()]
    with pytest.raises(IllegalMove, match="swap or keep"):
        p.play(p.parse("e7"))
    swapped, kept = p.play(Swap()), p.play(Keep())
    for q in (swapped, kept):
        assert q.phase == "play" and q.to_move is Colour.BLACK and q.ply == 2
        assert q.black == p.black and q.white == p.white       # the board is untouched
        assert names(q, q.legal_cells()) == set("a5 b5 c5 e1 e2 e3 e7 e8 e9 g5 g7 h5 h8 i5 i9".split())
    with pytest.raises(IllegalMove, match="no pie decision"):
        kept.play(Swap())
    with pytest.raises(IllegalMove, match="already on the board"):
        kept.play(kept.parse("a1,a2"))


def test_pie_order_matters_and_all_ordered_pairs_listed():
    s = RULES.new_game(RULES.variant(2), 0)     # 7 sites
    acts = list(s.legal_actions())
    assert len(acts) == 7 * 6 == len(set(acts))
    a = s.play(s.parse("a1,b2"))
    b = s.play(s.parse("b2,a1"))
    assert a.black == b.white and a.white == b.black
    with pytest.raises(IllegalMove):
        s.parse("a1,a1")


def test_nopie_black_places_pie_stones_then_plays():
    s = RULES.new_game(RULES.variant(5, ["nopie"]), 0)
    assert s.phase == "pie"
    p = s.play(s.parse("e5,c3"))
    assert p.phase == "play" and p.to_move is Colour.BLACK     # two Black actions in a row
    assert Swap() not in set(p.legal_actions())
    with pytest.raises(IllegalMove):
        p.play(Swap())
    q = p.play(p.parse("e8"))
    assert q.to_move is Colour.WHITE and q.ply == 2


def test_resign_is_never_played():
    s = board("B e5 / W c3")
    with pytest.raises(IllegalMove):
        s.play(Resign())
    assert s.parse("resign") == Resign()


# -- notation -------------------------------------------------------------------------

def test_tokens_parse_and_format():
    s = board("B c3 g7 / W e1")
    a = s.parse("E5:F5,E4")
    assert a == Grow(s.board.parse("e5"), (s.board.parse("e4"), s.board.parse("f5")))
    assert s.format(a) == "e5:e4,f5"
    assert s.format(s.parse("c5")) == "c5"
    assert s.parse("e5,c3") == PieStones(s.board.parse("e5"), s.board.parse("c3"))
    for bad in ("e8-e6", "d4/d5", "komi=3", "pass", "e5:", "xx"):
        with pytest.raises(InvalidNotation):
            s.parse(bad)
    for off in ("z9", "e5:z1", "e5:e6,e6", "e5:e5"):
        with pytest.raises(IllegalMove):
            s.parse(off)


# -- positions and variants -------------------------------------------------------------

def test_position_round_trip_and_defaults():
    s = board("B c3 g7 / W e1", to_move="w", ply="7")
    text = s.position()
    assert text == "marbanta 5 w ....w/....../..b..../......../........./......../....b../....../..... ply=7"
    assert registry.from_position(text) == s
    p = RULES.new_game(RULES.variant(5, ["nopie"]), 0).play(PieStones(0, 1))
    assert p.position().endswith("variant=nopie ply=1")
    q = RULES.new_game(RULES.variant(5), 0).play(PieStones(0, 1))
    assert q.position().endswith("phase=swap ply=1")
    assert registry.from_position(q.position()) == q
    assert RULES.new_game(RULES.variant(5), 0).position().endswith(" phase=pie")


@pytest.mark.parametrize("suffix, reason", [
    (" komi=3", "no key 'komi'"),
    (" first=b", "no key 'first'"),
    (" phase=opening", "phase=opening: marbanta phases are pie, swap, play"),
    (" ply=x", "ply=x"),
])
def test_positions_that_are_not_well_formed(suffix, reason):
    text = board("B c3 g7 / W e1").position()
    with pytest.raises(InvalidPosition, match=reason):
        registry.from_position(text + suffix)


def test_unreachable_positions_are_taken_as_written():
    base = "marbanta 2 {m} {b} {k}"
    empty = "../.../.."
    # an empty board in phase play: Black cannot place, so Black wins
    bare = registry.from_position(base.format(m="b", b=empty, k=""))
    assert list(bare.legal_actions()) == [] and bare.outcome() == Outcome(B, Termination.NO_MOVES)
    # only black stones: Black sees its own stones, its turn goes on
    only_black = registry.from_position(base.format(m="b", b="b./.../..", k=""))
    assert only_black.outcome() is None and only_black.legal_cells()
    # White to place the pie stones on a board that already holds some
    pie = registry.from_position(base.format(m="w", b="b./.../..", k="phase=pie"))
    assert pie.phase == "pie" and all(0 not in (a.black, a.white) for a in pie.legal_actions())  # a1 (bit 0) is taken
    swap = registry.from_position(base.format(m="b", b="bw/.../..", k="phase=swap"))
    assert set(swap.legal_actions()) == {Swap(), Keep()}
    nopie = registry.from_position(base.format(m="w", b="bw/.../..", k="variant=nopie phase=swap"))
    assert nopie.phase == "swap" and nopie.variant.balance == "nopie"
    with pytest.raises(InvalidPosition, match="no height"):
        registry.from_position(base.format(m="b", b="b2w/.../..", k=""))


def test_variants_and_info():
    assert RULES.variant().size == 9 and RULES.variant().balance == "pie"
    assert RULES.variant(7, ["NOPIE"]).balance == "nopie"
    assert RULES.describe(RULES.variant(7, ["nopie"])) == "marbanta nopie"
    for bad in (["corners"], ["pie", "nopie"], ["opening=cells"]):
        with pytest.raises(UnknownVariant):
            RULES.variant(9, bad)
    package = importlib.import_module("hexarena.engine.games.marbanta")   # its RULES: the core's when active
    assert registry.get("marbanta") is package.RULES and "marbanta" in registry.playable()
    assert package.RULES.id == RULES.id and package.RULES.keys == RULES.keys
    assert RULES.sgf_number == 1005 and RULES.sizes == (7, 9, 11) and not RULES.uses_komi
    assert RULES.ply_cap(9) == 2 * 217 + 4


def test_groups_cache_matches_components_after_play():
    s = board("B c3 g7 / W e1").play(board("B c3 g7 / W e1").parse("e5:e6"))
    again = registry.from_position(s.position())
    for b in range(len(s.owner)):
        assert s.owner[b] == again.owner[b]
