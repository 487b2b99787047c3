"""Anda-prison setup: the dual pie then komi pie, `corners`, `nopie`; positions, variants, tokens."""
from __future__ import annotations

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Keep, Komi, Pair, Pass, Place, Propose, Release, Swap
from hexarena.engine.core import Colour
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition, UnknownVariant
from tests.support.anda_prison import pair, place, sites, state

B, W = Colour.BLACK, Colour.WHITE
INFO = registry.get("anda-prison")


def new(balance: str = "pie", n: int = 5, komi: int = 0):
    return INFO.new_game(INFO.variant(n, [balance]), komi)


def roundtrip(s) -> None:
    again = registry.from_position(s.position())
    assert again == s and again.position() == s.position()


def test_game_info():
    assert INFO.sgf_number == 1002 and INFO.sizes == (7, 9, 11) and INFO.default_size == 9
    assert INFO.balances == ("pie", "nopie", "corners") and INFO.options == ()
    assert INFO.ply_cap(9) == 2170 and INFO.ply_cap(5) == 610
    assert INFO.uses_komi and not INFO.no_move_wins
    assert INFO.variant(None, ["corners"]).balance == "corners"
    with pytest.raises(UnknownVariant):
        INFO.variant(9, ["opening=cells"])
    with pytest.raises(UnknownVariant):
        INFO.variant(9, ["dual"])


def test_dual_pie_white_pairs():
    s = new()
    assert (s.phase, s.to_move, s.first) == ("pair", B, frozenset({B, W}))
    assert s.legal_cells() == 0 and Swap() not in set(s.legal_actions())
    s = s.play(pair(s, "a1", "e5"))
    assert (s.phase, s.to_move, s.last) == ("pair-swap", W, B)
    acts = set(s.legal_actions())
    assert Swap() in acts and pair(s, "c3", "i9") in acts and Propose() not in acts
    assert pair(s, "a1", "c3") not in acts                       # a1 is occupied
    s = s.play(pair(s, "c3", "i9"))
    assert (s.phase, s.to_move, s.first, s.last) == ("swap", B, frozenset(), W)
    assert set(s.legal_actions()) == {Swap(), Keep()}
    s = s.play(Keep())
    assert (s.phase, s.to_move) == ("komi", B)
    assert set(s.legal_actions()) == {Komi(k) for k in range(62)}   # 0 <= K <= 61 sites
    with pytest.raises(IllegalMove):
        s.play(Komi(62))
    s = s.play(Komi(4))
    assert (s.phase, s.to_move, s.prison_black, s.komi) == ("komi-swap", W, 4, 4)
    assert set(s.legal_actions()) == {Swap(), Keep()}
    s = s.play(Swap())
    assert (s.phase, s.to_move, s.ply) == ("play", B, 5)
    assert s.black == sites(s, "a1", "e5") and s.white == sites(s, "c3", "i9")
    assert Propose() in set(s.legal_actions()) and s.legal_cells()
    roundtrip(s)


def test_dual_pie_white_swaps():
    s = new()
    s = s.play(pair(s, "a1", "e5"))
    s = s.play(Swap())
    assert (s.phase, s.to_move, s.first, s.last) == ("pair", W, frozenset({W}), B)
    assert Swap() not in set(s.legal_actions())
    roundtrip(s)
    s = s.play(pair(s, "c3", "i9"))
    assert (s.phase, s.to_move) == ("swap", B)
    s = s.play(Swap())
    assert (s.phase, s.to_move) == ("komi", B)
    s = s.play(Komi(0)).play(Keep())
    assert (s.phase, s.to_move, s.prison_black, s.ply) == ("play", B, 0, 6)


def test_pie_phases_refuse_other_actions():
    s = new()
    e5 = s.board.parse("e5")
    for action in (Place(e5), Swap(), Keep(), Komi(1), Release(), Propose()):
        with pytest.raises(IllegalMove):
            s.play(action)
    s = s.play(pair(s, "a1", "e5")).play(pair(s, "c3", "i9"))
    with pytest.raises(IllegalMove):
        s.play(Komi(1))                                      # the dual-pie decision comes first
    with pytest.raises(IllegalMove):
        s.play(pair(s, "b4", "h4"))


def test_corners_balance():
    s = new("corners", komi=2)
    assert (s.phase, s.to_move, s.prison_black, s.komi) == ("corners", B, 2, 2)
    board = s.board
    k = board.corners
    acts = set(s.legal_actions())
    expected = {Pair(*board.sorted_sites((k[i], k[j]))) for i in range(6) for j in range(i + 2, 6)
                if (i, j) != (0, 5)}
    assert acts == expected and len(acts) == 9
    with pytest.raises(IllegalMove, match="corner"):
        s.play(pair(s, "a1", "c1"))                           # c1 is no corner
    with pytest.raises(IllegalMove, match="adjacent"):
        s.play(pair(s, "a1", "a5"))                           # K4 and K3 share a side
    s = s.play(pair(s, "a1", "i9"))                           # K4 and K1
    assert (s.phase, s.to_move) == ("corners", W)
    assert set(s.legal_actions()) == {pair(s, "e9", "i5"), pair(s, "a5", "i5"),    # K0 K2, K0 K3
                                      pair(s, "e1", "e9"), pair(s, "a5", "e1")}    # K2 K5, K3 K5
    roundtrip(s)
    s = s.play(pair(s, "a5", "i5"))
    assert (s.phase, s.to_move, s.first, s.ply) == ("play", B, frozenset(), 2)
    roundtrip(s)


def test_nopie_keeps_two_stone_first_turns_and_komi_by_command():
    s = new("nopie", komi=3)
    assert (s.phase, s.to_move, s.first, s.prison_black) == ("play", B, frozenset({B, W}), 3)
    assert s.legal_cells() == 0
    with pytest.raises(IllegalMove):
        s.play(Place(s.board.parse("e5")))
    with pytest.raises(IllegalMove):
        s.play(Propose())
    s = s.play(pair(s, "b2", "h8"))
    assert (s.to_move, s.first) == (W, frozenset({W}))
    assert Release() not in set(s.legal_actions())              # the first turn is a pair
    roundtrip(s)
    s = s.play(pair(s, "c7", "g3"))
    assert (s.to_move, s.first, s.last) == (B, frozenset(), W)
    assert "komi=3" in s.position() and "prison=3,0" in s.position()
    assert Release() not in set(s.legal_actions()) and Release() in set(s.play(Place(s.board.parse("e5"))).legal_actions())


def test_pie_ignores_the_komi_setting():
    assert new("pie", komi=5).prison_black == 0


def test_position_string_keys():
    s = state("B b2 d2 / W f7 h6", prison="1,0")
    t = s.play(Place(s.board.parse("c2")))
    text = t.position()
    assert text.startswith("anda-prison 5 w ")
    assert text.endswith("prison=1,2 annihilated=b last=b ply=1")
    roundtrip(t)
    assert new().position() == "anda-prison 5 b " + "/".join(
        "." * (5 + min(r, 8 - r)) for r in range(9)) + " phase=pair first=bw"


@pytest.mark.parametrize("keys, reason", [
    ({"phase": "bogus"}, "phase=bogus: anda-prison phases are pair, pair-swap, swap"),
    ({"last": "bw"}, "last=bw: expected b, w or -"),
    ({"prison": "1"}, "prison"),
    ({"prison": "a,1"}, "prison"),
    ({"first": "bb"}, "first"),
    ({"komi": "x"}, "komi"),
    ({"komi": "62"}, "komi=62: expected 0..61"),
    ({"ply": "-1"}, "ply"),
])
def test_positions_that_are_not_well_formed(keys, reason):
    with pytest.raises(InvalidPosition, match=reason):
        state("B e5 c3 / W e7 a1", **keys)


@pytest.mark.parametrize("keys", [
    {"phase": "pair", "first": "-"},
    {"phase": "pair-swap", "first": "w"},
    {"variant": "nopie", "phase": "swap"},
    {"annihilated": "bw"},
    {"first": "b"},
    {"phase": "pair", "first": "bw", "komi": "3"},
    {"variant": "corners", "phase": "pair", "first": "bw"},
    {"variant": "corners", "phase": "corners"},
])
def test_well_formed_positions_are_taken_as_written(keys):
    s = state("B e5 c3 / W e7 a1", **keys)
    assert registry.from_position(s.position()) == s
    for key, value in keys.items():
        assert f"{key}={value}" in s.position() or value == registry.get("anda-prison").position_defaults()[key]
    assert (s.outcome() is None) == any(True for _ in s.legal_actions())


def test_keys_of_other_games_are_refused():
    with pytest.raises(InvalidPosition, match="anda-prison has no key 'opening'"):
        registry.from_position("anda-prison 2 b ../.../.. opening=cells")


def test_heights_are_refused():
    with pytest.raises(InvalidPosition, match="height"):
        registry.from_position("anda-prison 2 b b2./.../..")


def test_position_last_is_taken_as_written():
    s = state("B e5 c3 / W e7 a1", to_move="w")
    assert s.last is None and "last=" not in s.position()
    assert state("B e5 c3 / W e7 a1", to_move="w", last="b").last is B
    assert state("B e5 c3 / W e7 a1", to_move="w", last="w").last is W
    assert place(state("B e5 c3 / W e7 a1", to_move="w"), "i9").last is W


def test_tokens():
    s = state("B e5 c3 / W e7 a1")
    assert s.parse("E5") == Place(s.board.parse("e5"))
    assert s.parse("e7,a1") == pair(s, "a1", "e7")
    assert s.parse("release") == Release() and s.parse("komi=3") == Komi(3)
    for bad in ("pass", "e8-e6", "e5/d5", "e5:e6", "hello"):
        with pytest.raises(InvalidNotation):
            s.parse(bad)
    for bad in ("z9", "e5,e5", "a9"):
        with pytest.raises(IllegalMove):
            s.parse(bad)
    with pytest.raises(IllegalMove):
        s.play(Pass())
    assert s.format(pair(s, "e7", "a1")) == "a1,e7"
