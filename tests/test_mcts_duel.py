"""bench.mcts_duel: its A and B name MCTS budgets or built-in players; a duel plays."""
import pytest

from bench import mcts_duel
from hexarena.players import MctsBot, greedy_bot


def test_budgets_and_players_are_named() -> None:
    timed = mcts_duel.bot("0.5s+narrow")
    assert isinstance(timed, MctsBot) and timed.seconds == 0.5 and timed.narrow is True
    counted = mcts_duel.bot("4000")
    assert isinstance(counted, MctsBot) and counted.iterations == 4000 and counted.seconds is None
    assert mcts_duel.bot("greedy") is greedy_bot
    assert isinstance(mcts_duel.bot("mcts:1s"), MctsBot)


@pytest.mark.parametrize("spec, words", [("1x", "a budget is seconds"), ("0s", "a budget is seconds"),
                                         ("foo", "unknown bot 'foo'"), ("4000+deep", "narrow or wide")])
def test_a_bad_spec_says_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(SystemExit, match=words):
        mcts_duel.bot(spec)


def test_a_duel_against_a_built_in_player_plays_both_seats(capsys: pytest.CaptureFixture[str]) -> None:
    mcts_duel.main(["anda", "7", "random", "greedy", "--pairs", "1", "--prefix", "komi=0 keep"])
    out = capsys.readouterr().out
    assert "pair 0 game 1" in out and "pair 0 game 2" in out
    assert "A (random) against B (greedy)" in out
