"""`hexarena play`'s sentences to the person: a swap and the end of the game, by who moved."""
from __future__ import annotations

import pytest

from hexarena.engine.core import Colour
from hexarena.results.record.game import Ending, GameRecord
from hexarena.web.play_words import end_words, swap_news


def ended(termination: str, winner: str | None, result: str, reason: str = "", plies: int = 9) -> GameRecord:
    return GameRecord(id="spelde-5/play-1", game="spelde", size=5, variant="", first="person", second="mcts",
                      black="person", white="mcts", winner=winner, result=result, termination=Ending(termination),
                      plies=plies, reason=reason)


def test_a_swap_says_who_swapped_and_the_colour_the_person_plays_now():
    assert swap_news(False, "mcts", Colour.WHITE) == "mcts swapped: you now play White"
    assert swap_news(True, "mcts", Colour.BLACK) == "You swapped: you now play Black"


@pytest.mark.parametrize("record, you_to_move, said", [
    (ended("no-moves", "mcts", "W+"), True, "You have no legal move: mcts wins (W+)"),
    (ended("no-moves", "person", "B+"), False, "mcts has no legal move: you win (B+)"),
    (ended("goal", "person", "B+"), False, "You reached the game's goal: you win (B+)"),
    (ended("goal", "mcts", "W+"), True, "mcts reached the game's goal: mcts wins (W+)"),
    (ended("goal", None, "0"), True, "The game ended at its goal: a draw (0)"),
    (ended("resign", "mcts", "W+R"), True, "You resigned: mcts wins (W+R)"),
    (ended("resign", "person", "B+R"), True, "mcts resigned: you win (B+R)"),
    (ended("time", "mcts", "W+T"), True, "You ran out of time: mcts wins (W+T)"),
    (ended("ply-cap", None, "0", plies=300), True, "The game reached its cap of 300 actions: a draw (0)"),
    (ended("illegal", "person", "B+F", reason="e9 is off the board"), False, "mcts: e9 is off the board: you win (B+F)"),
])
def test_the_end_is_said_to_the_person(record, you_to_move, said):
    assert end_words(record, "person", "mcts", you_to_move) == said
