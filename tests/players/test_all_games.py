"""Both bots on every playable game (default options), through the generic interface only."""
from __future__ import annotations

import random

import pytest

from hexarena.engine import registry
from hexarena.players import BOTS, Budget

CONFIGS = [(g, b) for g in registry.playable() for b in registry.get(g).balances]


#: Pairs whose games take seconds (greedy lists every Anda-prison placement at each ply).
SLOW = {("anda-prison", "pie", "greedy"), ("anda-prison", "nopie", "greedy")}


@pytest.mark.parametrize("game,balance,name", [
    pytest.param(g, b, n, marks=pytest.mark.slow) if (g, b, n) in SLOW else (g, b, n)
    for g, b in CONFIGS for n in BOTS if n != "mcts"])      # mcts: test_mcts.py, small budgets
def test_bot_plays_legal_actions(name: str, game: str, balance: str) -> None:
    info = registry.get(game)
    bot = BOTS[name]
    rng = random.Random(1)
    state = info.new_game(info.variant(4, [balance]), 0)
    for _ in range(80):
        if state.outcome() is not None:
            with pytest.raises(ValueError):
                bot(state, rng, Budget())
            break
        action = bot(state, rng, Budget())
        assert state.is_legal(action), (state.position(), action)
        state = state.play(action)


@pytest.mark.parametrize("game,balance", CONFIGS)
def test_greedy_takes_a_win_in_one(game: str, balance: str) -> None:
    """Wherever an action ends the game in the mover's favour, greedy plays one (few-action turns only)."""
    info = registry.get(game)
    rng = random.Random(2)
    state = info.new_game(info.variant(3, [balance]), 0)
    for _ in range(200):
        if state.outcome() is not None:
            break
        actions = list(state.legal_actions())
        if len(actions) <= 300:
            wins = {a for a in actions if (o := state.play(a).outcome()) is not None and o.winner is state.to_move}
            if wins:
                assert BOTS["greedy"](state, random.Random(0), Budget()) in wins
        state = state.play(state.random_action(rng))
