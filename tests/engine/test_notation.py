import pytest

from hexarena.engine.actions import (Accept, Grow, Komi, Move, Pair, Pass, PieStones, Place, Release, Resign,
                            Split, Swap)
from hexarena.engine.errors import IllegalMove, InvalidNotation
from hexarena.engine.geometry import hexagon
from hexarena.engine.notation import format_action, parse_action, read_action

B = hexagon(5)
ALL = frozenset({Place, Pair, Split, Move, Grow, Komi, Swap, Pass, Release, Accept})


def c(name):
    return B.parse(name)


@pytest.mark.parametrize("token, action", [
    ("e5", Place(c("e5"))),
    ("a1,i9", Pair(c("a1"), c("i9"))),
    ("d4/d5,f5", Split(c("d4"), 1 << c("d5") | 1 << c("f5"))),
    ("e8-e6", Move(c("e8"), c("e6"))),
    ("e5:e6,f6", Grow(c("e5"), (c("e6"), c("f6")))),
    ("komi=7", Komi(7)),
    ("swap", Swap()), ("pass", Pass()), ("release", Release()), ("accept", Accept()),
    ("resign", Resign()),
])
def test_canonical_tokens_round_trip(token, action):
    assert parse_action(token, B, ALL) == action
    assert parse_action(token.upper(), B, ALL) == action
    assert format_action(action, B) == token


def test_set_like_parts_are_canonicalised():
    assert parse_action("i9,a1", B, ALL) == Pair(c("a1"), c("i9"))
    assert parse_action("d4/f5,d5", B, ALL) == Split(c("d4"), 1 << c("d5") | 1 << c("f5"))
    assert parse_action("e5:f6,e6", B, ALL) == Grow(c("e5"), (c("e6"), c("f6")))
    assert format_action(Pair(c("i9"), c("a1")), B) == "a1,i9"


@pytest.mark.parametrize("token", ["E5", " i9,a1", "d4/f5,d5", "e5:f6,e6", "Swap", "resign", "komi=07"])
def test_read_action_is_the_decoded_action_and_its_canonical_token(token):
    action = parse_action(token, B, ALL)
    assert read_action(token, B, ALL) == (action, format_action(action, B))
    assert read_action(token, B, ALL) == (action, format_action(action, B))       # kept


@pytest.mark.parametrize("token, error", [("e5/", InvalidNotation), ("z9", IllegalMove), ("e5,e5", IllegalMove)])
def test_read_action_raises_what_parse_action_raises(token, error):
    with pytest.raises(error):
        read_action(token, B, ALL)


def test_pie_stones_keep_their_order():
    forms = frozenset({PieStones})
    assert parse_action("e5,c3", B, forms) == PieStones(c("e5"), c("c3"))
    assert format_action(PieStones(c("e5"), c("c3")), B) == "e5,c3"


@pytest.mark.parametrize("token", ["e8-e6", "komi=3", "pass", "e5:e6"])
def test_forms_of_other_games_are_syntax_errors(token):
    with pytest.raises(InvalidNotation):
        parse_action(token, B, frozenset({Place, Split, Swap}))


@pytest.mark.parametrize("token", ["", "e5,", "e5/", "e5:", "e5--e6", "komi=-1", "komi=x", "frob", "e5 e6"])
def test_malformed_tokens_are_syntax_errors(token):
    with pytest.raises(InvalidNotation):
        parse_action(token, B, ALL)


@pytest.mark.parametrize("token", ["j9", "e5/e5", "e5,e5", "e5:e6,e6", "a1-a1", "e5/z1"])
def test_off_board_or_repeated_sites_are_illegal(token):
    with pytest.raises(IllegalMove):
        parse_action(token, B, ALL)


def test_resign_is_always_a_form():
    assert parse_action("resign", B, frozenset({Place})) == Resign()
