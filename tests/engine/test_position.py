import pytest

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.errors import InvalidPosition
from hexarena.engine.geometry import hexagon
from hexarena.engine.position import Position, format_position, parse_colours, parse_position

EXAMPLE = "spelde 5 w ...../....../......./......../....b..../......../......./....../..... variant=nopie"


def test_protocol_example_parses_and_formats_back():
    pos = parse_position(EXAMPLE)
    assert pos.game == "spelde" and pos.size == 5 and pos.to_move is Colour.WHITE
    assert pos.stacks == {hexagon(5).parse("e5"): (Colour.BLACK, 1)}
    assert pos.keys == {"variant": "nopie"}
    assert format_position(pos, registry.get("spelde").position_defaults()) == EXAMPLE


def test_defaults_are_left_out_and_keys_keep_the_games_order():
    pos = Position("anda", 2, Colour.BLACK, {}, {"ply": "3", "komi": "0", "first": "bw", "variant": "pie"})
    assert format_position(pos, registry.get("anda").position_defaults()) == "anda 2 b ../.../.. first=bw ply=3"
    with pytest.raises(ValueError, match="no key 'first'"):
        format_position(pos, {"komi": "0"})


def test_each_game_declares_its_keys_in_the_protocol_order():
    order = ["variant", "opening", "flips", "freeze", "touch", "phase", "komi", "prison", "first",
             "annihilated", "last", "ply"]
    for gid in registry.playable():
        names = list(registry.get(gid).position_defaults())
        assert names == sorted(names, key=order.index), gid
        assert names[0] == "variant" and names[-1] == "ply" and "phase" in names


def test_heights():
    pos = parse_position("vaxandis 2 b b3./w../.. ")
    board = hexagon(2)
    assert pos.stacks[board.parse("a1")] == (Colour.BLACK, 3)
    assert format_position(pos, {}, heights=True) == "vaxandis 2 b b3./w1../.."
    assert format_position(pos, {"phase": "play"}, heights=True) == "vaxandis 2 b b3./w1../.."


@pytest.mark.parametrize("text, words", [
    ("spelde 5 w", "expected GAME"),
    ("spelde x w ../...", "size .x. is not a whole number"),
    ("spelde 14 b ..", "outside"),
    ("spelde 1 b ..", "outside"),
    ("spelde 2 x ../.../..", "b or w"),
    ("spelde 2 b ../...", "rows"),
    ("spelde 2 b ../..../..", "row 2 has 4 sites"),
    ("spelde 2 b ../.x./..", "unexpected character"),
    ("spelde 2 b ../.../.. =1", "KEY=VALUE"),
    ("spelde 2 b ../.../.. ply", "KEY=VALUE"),
    ("spelde 2 b ../.../.. ply=1 ply=2", "twice"),
    ("vaxandis 2 b b0./.../..", "height 0"),
])
def test_bad_position_strings_say_why(text, words):
    with pytest.raises(InvalidPosition, match=words):
        parse_position(text)


def test_unknown_keys_are_refused_by_the_game():
    with pytest.raises(InvalidPosition, match="spelde has no key 'frob'"):
        registry.from_position("spelde 2 b ../.../.. frob=1")


def test_colour_sets():
    assert parse_colours("bw", "first") == {Colour.BLACK, Colour.WHITE}
    assert parse_colours("-", "first") == frozenset()
    for bad in ("bb", "x", ""):
        with pytest.raises(InvalidPosition):
            parse_colours(bad, "first")
