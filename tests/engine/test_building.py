"""engine.building: actions built from clicks, per game, on small positions; and every legal
action of seeded random games is reachable by clicking its sites in token order."""
from __future__ import annotations

import re

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Grow, Komi, Move, Pair, PieStones, Place, Resign, Split, Swap
from hexarena.engine.building import EXACT_FLIPS, Builder, Refused
from tests.support.boards import state
from tests.support.positions import new, walk


def sites(s, text):
    return [s.board.parse(x) for x in text.split()]


def names(s, bits):
    return set(s.board.names(bits))


def clicked(s, text):
    """The step after clicking the sites of `text` one by one (each click must be accepted)."""
    b = Builder(s)
    clicks: tuple[int, ...] = ()
    step = b.step(clicks)
    for site in sites(s, text):
        step = b.click(clicks, site)
        clicks = step.clicks
    return step


def refusal(s, before, site):
    b = Builder(s)
    with pytest.raises(Refused) as err:
        b.click(tuple(sites(s, before)), s.board.parse(site))
    return str(err.value)


# -- Anda ----------------------------------------------------------------------------------------

def test_anda_komi_offer_then_answer_are_buttons():
    s = new("anda", 3)
    b = Builder(s)
    assert b.komi == list(range(s.board.site_count + 1))
    assert b.words == ["resign"] and b.step(()).targets == 0
    assert b.word("komi=2") == Komi(2)
    after = s.play(Komi(2))
    assert Builder(after).words == ["swap", "keep", "resign"]
    with pytest.raises(Refused, match="komi"):
        Builder(after).word("komi=1")


def test_anda_first_turn_pair_by_two_clicks_in_either_order():
    s = state("anda", 5, "", phase="play", first="bw")
    step = clicked(s, "a1")
    assert step.action is None and step.roles == ("pair",) and step.more
    assert "i9" in names(s, step.targets) and "b1" not in names(s, step.targets)
    assert clicked(s, "a1 i9").action == Pair(*sites(s, "a1 i9"))
    assert clicked(s, "i9 a1").action == Pair(*sites(s, "a1 i9"))
    assert "e5" not in names(s, Builder(s).step(()).targets)
    assert refusal(s, "", "e5") == "e5 is not on the perimeter" or "e5" in refusal(s, "", "e5")
    assert "adjacent" in refusal(s, "a1", "b1")


def test_anda_single_placement_and_pass():
    s = state("anda", 5, "B b2 d2 / W f7 h6", "w", komi="2")
    b = Builder(s)
    assert "pass" in b.words
    assert b.word("pass").__class__.__name__ == "Pass"
    step = clicked(s, "e5")
    assert step.action == Place(s.board.parse("e5")) and not step.more and step.roles == ("place",)
    assert refusal(s, "", "b2") == "b2 is occupied"


def test_taking_back_a_click():
    s = state("anda", 5, "", phase="play", first="bw")
    b = Builder(s)
    a1 = s.board.parse("a1")
    step = b.click((a1,), a1)
    assert step.clicks == () and step.targets == b.first


# -- Anda-prison -------------------------------------------------------------------------------------

def test_anda_prison_words_release_propose_accept_decline():
    s = state("anda-prison", 5, "B b2 c2 d2", "w", prison="1,0")
    assert {"release", "propose"} <= set(Builder(s).words)
    proposed = s.play(s.parse("propose"))
    assert set(Builder(proposed).words) == {"accept", "decline", "resign"}
    assert Builder(proposed).step(()).targets == 0


def test_anda_prison_first_pair_must_not_touch():
    s = new("anda-prison", 5)
    step = clicked(s, "e5")
    assert "e6" not in names(s, step.targets) and "e7" in names(s, step.targets)
    assert clicked(s, "e5 e7").action == Pair(*sites(s, "e5 e7"))
    assert refusal(s, "e5", "e6")
    after = s.play(s.parse("e5,e7"))
    assert "swap" in Builder(after).words


def test_anda_prison_komi_offer():
    s = state("anda-prison", 3, "B a1 c1 / W a3 e3", "b", phase="komi")
    b = Builder(s)
    assert b.komi and b.word(f"komi={b.komi[-1]}") == Komi(b.komi[-1])


# -- Spelde ------------------------------------------------------------------------------------------

def test_spelde_placement_and_swap():
    s = new("spelde", 4)
    step = clicked(s, "d4")
    assert step.action == Place(s.board.parse("d4")) and not step.more
    after = s.play(Place(s.board.parse("d4")))
    assert Builder(after).words == ["swap", "resign"]
    assert Builder(after).word("swap") == Swap()


def test_spelde_flips_offered_exactly_on_a_line():
    s = state("spelde", 5, "W a5 b5 c5 d5 e5")
    step = clicked(s, "f5")
    assert step.action is None and step.more and step.exact and step.roles == ("place",)
    assert names(s, step.targets) == {"a5", "b5", "c5", "d5", "e5"}
    two = clicked(s, "f5 c5")
    assert two.action == Split(s.board.parse("f5"), 1 << s.board.parse("c5")) and two.more
    assert two.roles == ("place", "flip")
    edge = clicked(s, "f5 e5")
    assert edge.action is None and edge.more        # e5 with c5 splits; e5 alone does not
    assert edge.hint.startswith("not an action yet (") and edge.hint.endswith("click more stones to flip (in green)")
    assert "not a stone of an enemy group" in refusal(s, "f5", "a1")


def test_spelde_an_unsplittable_neighbour_refuses_the_site():
    s = state("spelde", 5, "W e5")
    assert "e6" not in names(s, Builder(s).step(()).targets)
    assert refusal(s, "", "e6")


def test_spelde_large_groups_are_judged_when_picked():
    s = state("spelde", 7, "W " + " ".join(f"{c}7" for c in "abcdefghijklm"))
    step = clicked(s, "g6")
    assert not step.exact and step.targets.bit_count() == 13 and step.action is None
    assert step.hint == "click the stones to flip (in green)"
    # a set that is no action yet says so as a step on the way, with the rules' reason
    assert re.fullmatch(r"not an action yet \(.*does not split.*\): click more stones to flip \(in green\)",
                        clicked(s, "g6 a7").hint)
    one = clicked(s, "g6 g7")
    assert one.exact and one.action == Split(s.board.parse("g6"), 1 << s.board.parse("g7"))


# -- Vaxandis ------------------------------------------------------------------------------------------

def test_vaxandis_moves_and_placements():
    s = state("vaxandis", 5, "B e5 e8 / W a1")
    first = names(s, Builder(s).step(()).targets)
    assert {"e5", "e8", "c3"} <= first and "e6" not in first
    step = clicked(s, "e8")
    assert step.roles == ("from",) and step.action is None
    assert names(s, step.targets) == {"e6", "e4", "e3", "e2", "e1"}
    done = clicked(s, "e8 e6")
    assert done.action == Move(*sites(s, "e8 e6")) and done.roles == ("from", "to")
    assert clicked(s, "c3").action == Place(s.board.parse("c3"))
    assert refusal(s, "", "e6").startswith("e6 is next to a stack")


def test_vaxandis_frozen_stack_says_so():
    s = state("vaxandis", 5, "B e5 / W e6:2 a1")
    assert "frozen" in refusal(s, "", "e5")


# -- Marbanta ----------------------------------------------------------------------------------------------

def test_marbanta_pie_black_then_white_then_keep():
    s = new("marbanta", 3)
    step = clicked(s, "c3")
    assert step.roles == ("black",) and "white" in step.hint
    done = clicked(s, "c3 a1")
    assert done.action == PieStones(*sites(s, "c3 a1")) and done.roles == ("black", "white")
    assert set(Builder(s.play(done.action)).words) == {"swap", "keep", "resign"}


def test_marbanta_root_and_branches():
    s = state("marbanta", 5, "B c3 g7 / W e1")
    step = clicked(s, "e5")
    assert step.roles == ("root",) and step.action is None and "1 more branched stone" in step.hint
    branch = next(iter(names(s, step.targets)))
    done = clicked(s, f"e5 {branch}")
    assert isinstance(done.action, Grow) and done.roles == ("root", "branch")
    assert clicked(s, "c5").action == Place(s.board.parse("c5"))
    assert refusal(s, "", "e9") == "e9 sees no black group"


# -- every game: each legal action is reachable, each built action is legal ---------------------------------

@pytest.mark.parametrize("game", registry.playable())
@pytest.mark.parametrize("plies", [0, 1, 2, 3, 6, 12])
def test_every_legal_action_is_reachable_by_clicks(game, plies):
    s = walk(new(game, 3), plies, seed=plies + 7)
    b = Builder(s)
    actions = list(s.legal_actions())
    for action in actions[::1 + len(actions) // 200]:         # at most about 200 of them
        token = s.format(action)
        if token in b.words or isinstance(action, Komi):
            assert b.word(token) == action
            continue
        clicks: tuple[int, ...] = ()
        for name in token.replace("/", ",").replace("-", ",").replace(":", ",").split(","):
            step = b.click(clicks, s.board.parse(name))
            clicks = step.clicks
        assert step.action == action, token
    if s.outcome() is None:
        assert b.word("resign") == Resign() and "resign" in b.words
    else:
        assert b.words == [] and b.step(()).targets == 0
        with pytest.raises(Refused, match="over"):
            b.word("resign")


def test_exact_flips_limit_is_small_enough_to_list():
    assert 2 ** EXACT_FLIPS <= 5000
