"""Colour words and the one rule of colour exchange (engine.actions.holder_after)."""
from hexarena.engine.actions import Keep, Pass, Place, Swap, holder_after, holders_after
from hexarena.engine.core import Colour

B, W = Colour.BLACK, Colour.WHITE


def test_colour_words_are_the_protocols():
    assert (B.word, W.word) == ("black", "white")
    assert Colour.parse(B.word) is B and Colour.parse(W.word.upper()) is W


def test_after_swap_the_mover_holds_the_other_colour():
    assert holder_after(W, Swap()) is B and holder_after(B, Swap()) is W
    for action in (Keep(), Pass(), Place(3)):
        assert holder_after(W, action) is W and holder_after(B, action) is B


def test_holders_exchange_on_swap_only():
    seats = {B: "first", W: "second"}
    assert holders_after(seats, Swap()) == {B: "second", W: "first"}
    assert holders_after(seats, Keep()) == seats
    assert holders_after(holders_after(seats, Swap()), Swap()) == seats
