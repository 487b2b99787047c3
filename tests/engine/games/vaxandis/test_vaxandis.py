"""Vaxandis rules: docs/rules/vaxandis.md test positions (V-T*), cases of our own, pie, notation."""
from __future__ import annotations

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Move, Place, Resign, Swap
from hexarena.engine.core import Colour, Termination
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition, UnknownVariant
from hexarena.engine.games.vaxandis.state import RULES

from tests.support.vaxandis import board, names, naive_moves, naive_places, stacks_of


def moves_from(state, site: str) -> set[str]:
    return {t for t in names(state, state.legal_actions()) if t.startswith(site + "-")}


def all_moves(state) -> set[str]:
    return {state.format(a) for a in state.legal_actions() if isinstance(a, Move)}


def play(state, *tokens: str):
    for t in tokens:
        state = state.play(state.parse(t))
    return state


# -- docs/rules/vaxandis.md ------------------------------------------------------------------------
def test_v_t2_exact_move_list_and_growth():
    state = board("B1 e5 e8 / W1 a1")
    assert all_moves(state) == {"e8-e6", "e8-e4", "e8-e3", "e8-e2", "e8-e1", "e5-e7", "e5-e9"}
    after = play(state, "e5-e7")
    assert stacks_of(after) == {"e7": "b2", "e8": "b2", "a1": "w1"}
    assert after.to_move is Colour.WHITE and after.ply == 1


def test_v_t3_jump_limits_and_blocking():
    state = board("B2 e5 / W2 e6 / B1 e9 / W3 c3 / W1 a1")
    assert moves_from(state, "e5") == {"e5-e8"}
    with pytest.raises(IllegalMove, match="c3 blocks"):
        play(state, "e5-b2")                     # W3 c3 is higher than the mover
    with pytest.raises(IllegalMove, match="touches no friendly group"):
        play(state, "e5-e7")                     # jumping the (equal) enemy e6 touches nothing
    after = play(state, "e5-e8")                 # jumps W2 e6, lands next to B1 e9
    assert stacks_of(after)["e8"] == "b3" and stacks_of(after)["e9"] == "b2"


def test_v_t4_frozen_by_a_higher_enemy_only():
    frozen = board("B1 e5 g5 / W2 e6")
    assert moves_from(frozen, "e5") == set()
    with pytest.raises(IllegalMove, match="frozen"):
        play(frozen, "e5-f5")
    free = board("B2 e5 / B1 g5 / W2 e6")
    assert "e5-f5" in moves_from(free, "e5")


def test_v_t4_freeze_group_option_freezes_the_whole_group():
    spec = "B1 e4 e5 / W2 e6 / W1 a1"
    assert "e4-f5" in moves_from(board(spec), "e4")               # e4 itself touches no higher enemy
    grouped = board(spec, freeze="group")
    assert moves_from(grouped, "e4") == set() and moves_from(grouped, "e5") == set()
    with pytest.raises(IllegalMove, match="frozen"):
        play(grouped, "e4-f5")


def test_v_t5_whole_touched_group_grows():
    after = play(board("B1 c5 d5 g5 / W1 a1"), "g5-e5")
    assert stacks_of(after) == {"c5": "b2", "d5": "b2", "e5": "b2", "a1": "w1"}


def test_v_t6_placement_spacing():
    for mover in "bw":
        state = board("B1 e5", mover)
        for site in ("e6", "d4"):
            with pytest.raises(IllegalMove, match="next to a stack"):
                state.play(state.parse(site))
        cells = set(state.board.names(state.legal_cells()))
        assert {"e7", "c3"} <= cells and not {"e6", "d4", "e5"} & cells
        assert len(cells) == 61 - 7
    with pytest.raises(IllegalMove, match="occupied"):
        play(board("B1 e5"), "e5")


# -- cases of our own ----------------------------------------------------------------------
def test_jump_over_several_stacks_on_one_line():
    state = board("B3 a5 / W1 b5 / B2 c5 / W3 d5 / W4 h5 / W1 a1")
    assert moves_from(state, "a5") == {"a5-e5", "a5-f5", "a5-g5"}     # h5 (W4) blocks
    after = play(state, "a5-g5")
    s = stacks_of(after)
    assert s["g5"] == "b4" and s["c5"] == "b3"                       # the jumped friend's group grew
    assert (s["b5"], s["d5"], s["h5"]) == ("w1", "w3", "w4") and "a5" not in s
    landing = board("B3 a5 / W1 b5 / B2 c5 / W3 d5 / W4 h5 / W1 a1", touch="landing")
    assert moves_from(landing, "a5") == {"a5-e5", "a5-f5", "a5-g5"}  # a jump counts under landing too


def test_move_touching_two_groups_grows_each_once():
    state = board("B1 e2 c3 d4 g3 / B2 f6 / W1 a1")
    after = play(state, "e2-e5")                 # path e3 e4 e5: d4 (group c3 d4) and f6
    assert stacks_of(after) == {"c3": "b2", "d4": "b2", "f6": "b3", "e5": "b2", "g3": "b1", "a1": "w1"}
    short = play(state, "e2-e4")                 # path e3 e4: group c3 d4 only
    assert stacks_of(short) == {"c3": "b2", "d4": "b2", "f6": "b2", "e4": "b2", "g3": "b1", "a1": "w1"}


def test_merging_groups_cause_nothing_more():
    after = play(board("B1 e3 d5 f5 / W1 a1"), "e3-e5")
    assert stacks_of(after) == {"d5": "b2", "e5": "b2", "f5": "b2", "a1": "w1"}


def test_mover_leaves_its_group_and_touches_it_again():
    state = board("B1 e5 e6 / W1 a1")
    assert stacks_of(play(state, "e5-d5")) == {"d5": "b2", "e6": "b2", "a1": "w1"}
    assert stacks_of(play(state, "e5-c5")) == {"c5": "b2", "e6": "b2", "a1": "w1"}  # d5 on the path
    landing = board("B1 e5 e6 / W1 a1", touch="landing")
    assert "e5-d5" in moves_from(landing, "e5") and "e5-c5" not in moves_from(landing, "e5")
    with pytest.raises(IllegalMove, match="touches no friendly group"):
        play(landing, "e5-c5")


def test_group_is_recomputed_without_the_mover():
    after = play(board("B1 d5 e5 f5 / W1 a1"), "e5-e7")       # e6 touches d5; f5 is no longer linked
    assert stacks_of(after) == {"d5": "b2", "e7": "b2", "f5": "b1", "a1": "w1"}


def test_leaving_a_site_is_not_a_touch():
    state = board("B1 e8 / B1 e5 / W1 a1")
    with pytest.raises(IllegalMove, match="touches no friendly group"):
        play(state, "e8-e7")                     # e7 is next to e8, the mover's own start


def test_stalemated_player_loses():
    alone = board("B1 b2 / W1 a1", size=2)      # no placement left, no friend to touch
    out = alone.outcome()
    assert out is not None and out.winner is Colour.WHITE and out.termination is Termination.NO_MOVES
    assert list(alone.legal_actions()) == [] and alone.legal_cells() == 0 and out.result() == "W+"
    with pytest.raises(ValueError):
        alone.random_action(__import__("random").Random(0))
    boxed = board("B1 b2 / W1 a1 c3", "w", size=2)   # a1 can jump b2 and c3 but finds no landing
    assert boxed.outcome().winner is Colour.BLACK
    with pytest.raises(IllegalMove):
        play(boxed, "b3")


def test_no_move_loss_is_not_a_win():
    assert RULES.no_move_wins is False and RULES.uses_komi is False


# -- pie and phases ----------------------------------------------------------------------------
def test_pie_swap_keeps_white_to_move():
    v = RULES.variant(5)
    start = RULES.new_game(v, 0)
    assert start.phase == "open" and start.to_move is Colour.BLACK
    assert len(list(start.legal_actions())) == 61 and Swap() not in set(start.legal_actions())
    pie = play(start, "e5")
    assert pie.phase == "swap" and pie.to_move is Colour.WHITE
    acts = list(pie.legal_actions())
    assert Swap() in acts and len(acts) == 1 + 54
    assert pie.legal_cells().bit_count() == 54
    swapped = play(pie, "swap")
    assert (swapped.phase, swapped.to_move, swapped.ply) == ("play", Colour.WHITE, 2)
    assert stacks_of(swapped) == {"e5": "b1"}
    assert Swap() not in set(swapped.legal_actions())
    with pytest.raises(IllegalMove, match="swap"):
        swapped.play(Swap())
    answered = play(pie, "a1")
    assert (answered.phase, answered.to_move) == ("play", Colour.BLACK)


def test_nopie_has_no_swap():
    start = RULES.new_game(RULES.variant(5, ["nopie"]), 0)
    assert start.phase == "play"
    with pytest.raises(IllegalMove):
        play(start, "e5", "swap")


def test_swap_phase_position_round_trip():
    text = "vaxandis 5 w ...../....../......./......../....b1..../......../......./....../..... phase=swap ply=1"
    state = registry.from_position(text)
    assert state.position() == text and Swap() in set(state.legal_actions())


# -- variants, position strings, notation ---------------------------------------------------------
def test_variants_and_ply_cap():
    v = RULES.variant(None, ["touch=landing", "NOPIE", "freeze=group"])
    assert (v.size, v.balance, v.option("freeze"), v.option("touch")) == (5, "nopie", "group", "landing")
    assert RULES.describe(RULES.variant(5, ["touch=landing"])) == "vaxandis pie touch=landing"
    assert RULES.describe(RULES.variant(5)) == "vaxandis pie"
    with pytest.raises(UnknownVariant):
        RULES.variant(5, ["freeze=all"])
    with pytest.raises(UnknownVariant):
        RULES.variant(5, ["flips=dense"])
    assert [RULES.ply_cap(n) for n in (4, 5, 6)] == [300, 500, 800]
    assert [RULES.ply_cap(n) for n in (2, 3, 7, 13)] == [100, 200, 1100, 3800]
    assert (RULES.sgf_number, RULES.default_size, RULES.sizes) == (1004, 5, (4, 5, 6))


def test_position_string_exact_and_round_trip():
    state = board("B2 b2 / W1 a1", "w", size=2, ply="7")
    assert state.position() == "vaxandis 2 w w1./.b2./.. variant=nopie ply=7"
    loose = registry.from_position("VAXANDIS 2 W W./.B2./.. variant=nopie ply=7")
    assert loose == state and hash(loose) == hash(state)
    opts = board("B3 e5", freeze="group", touch="landing")
    text = opts.position()
    assert text.endswith("variant=nopie freeze=group touch=landing")
    assert registry.from_position(text) == opts
    assert RULES.new_game(RULES.variant(4), 0).position() == \
        "vaxandis 4 b ..../...../....../......./....../...../.... phase=open"


@pytest.mark.parametrize("text, reason", [
    ("vaxandis 2 b ../.../.. komi=3", "no key 'komi'"),
    ("vaxandis 2 b ../.../.. prison=1,0", "no key 'prison'"),
    ("vaxandis 2 b ../.../.. phase=setup", "phases are"),
    ("vaxandis 2 b ../.../.. ply=x", "ply=x"),
    ("vaxandis 2 b ../.../.. freeze=all", "freeze=all"),
    ("vaxandis 2 b b0./.../..", "height 0"),
])
def test_invalid_positions(text, reason):
    with pytest.raises(InvalidPosition, match=reason):
        registry.from_position(text)


@pytest.mark.parametrize("text", ["vaxandis 2 b ../.../.. variant=nopie phase=open",
                                  "vaxandis 2 b b1./.../.. phase=open",
                                  "vaxandis 2 w b1./..b1/.. phase=swap",
                                  "vaxandis 2 w b2./.../.. phase=swap"])
def test_well_formed_positions_are_taken_as_written(text):
    s = registry.from_position(text)
    assert registry.from_position(s.position()) == s
    assert (s.outcome() is None) == any(True for _ in s.legal_actions())
    if "phase=swap" in text:                  # the pie decision stays open, placements or not
        assert Swap() in set(s.legal_actions()) and s.outcome() is None


def test_tokens_syntax_versus_illegal():
    state = board("B1 e5 e8 / W1 a1")
    assert state.parse("E8-E6") == Move(state.board.parse("e8"), state.board.parse("e6"))
    assert state.parse("e7") == Place(state.board.parse("e7")) and state.parse("swap") == Swap()
    for token in ("e5/d5", "e5:e6", "pass", "komi=2", "e5,e6", "e5-", "keep"):
        with pytest.raises(InvalidNotation):
            state.parse(token)
    for token in ("z9-e5", "e5-e5", "j1"):
        with pytest.raises(IllegalMove):
            state.parse(token)
    for token, reason in (("e5-f7", "not on a line"), ("a1-a2", "no stack of the side to move"),
                          ("e8-e5", "occupied"), ("e8-e7", "touches no")):
        with pytest.raises(IllegalMove, match=reason):
            play(state, token)
    with pytest.raises(IllegalMove):
        state.play(Resign())
    with pytest.raises(IllegalMove, match="off the board"):
        state.play(Place(-1))


def test_oracle_agrees_with_v_t2():
    """The oracle itself reproduces RULES.md V-T2 (so comparing against it means something)."""
    state = board("B1 e5 e8 / W1 a1")
    got = {f"{state.board.name(s)}-{state.board.name(d)}" for s, d in naive_moves(state)}
    assert got == {"e8-e6", "e8-e4", "e8-e3", "e8-e2", "e8-e1", "e5-e7", "e5-e9"}
    assert len(naive_places(board("B1 e5"))) == 61 - 7
