"""lab.mcts_duel: its A and B name MCTS settings or built-in players; a duel plays."""
import pytest

from lab import mcts_duel
from hexarena.engine import registry
from hexarena.players import MctsBot, greedy_bot
from hexarena.players.evaluators import CutoffPlayout


def start(game: str, size: int):
    info = registry.get(game)
    return info.new_game(info.variant(size), 0)


def test_budgets_modes_and_players_are_named() -> None:
    timed = mcts_duel.bot("0.5s+narrow", start("anda", 9))
    assert isinstance(timed, MctsBot) and timed.seconds == 0.5 and timed.narrow is True
    assert timed.evaluator is None                      # the game's own, chosen when searching
    counted = mcts_duel.bot("4000", start("anda", 9))
    assert isinstance(counted, MctsBot) and counted.iterations == 4000 and counted.seconds is None
    deep = mcts_duel.bot("1s+wide+plies=40", start("anda", 9))
    assert isinstance(deep, MctsBot) and deep.narrow is False
    assert isinstance(deep.evaluator, CutoffPlayout) and deep.evaluator.depth == 40
    assert mcts_duel.bot("greedy", start("anda", 9)) is greedy_bot
    assert isinstance(mcts_duel.bot("mcts:1s", start("anda", 9)), MctsBot)


@pytest.mark.parametrize("spec, game, words", [
    ("1x", "anda", "a budget is seconds"),
    ("0s", "anda", "a budget is seconds"),
    ("foo", "anda", "unknown built-in player 'foo'"),
    ("4000+deep", "anda", "narrow, wide or plies=N"),
    ("4000+plies=x", "anda", "narrow, wide or plies=N"),
    ("1s+plies=40", "marbanta", "not cut-off playouts"),
])
def test_a_bad_spec_says_what_is_wrong(spec: str, game: str, words: str) -> None:
    with pytest.raises(SystemExit, match=words):
        mcts_duel.bot(spec, start(game, 7))


@pytest.mark.slow
def test_a_duel_against_a_built_in_player_plays_both_seats(capsys: pytest.CaptureFixture[str]) -> None:
    mcts_duel.main(["anda", "7", "random", "greedy", "--pairs", "1", "--prefix", "komi=0 keep"])
    out = capsys.readouterr().out
    assert "pair 0 game 1" in out and "pair 0 game 2" in out
    assert "A (random) against B (greedy)" in out
