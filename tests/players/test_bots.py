"""The built-in bots on Spelde: legality, seeded determinism, greedy's choices."""
from __future__ import annotations

import dataclasses
import random
from itertools import islice

import pytest

from hexarena import players
from hexarena.engine import registry
from hexarena.engine.game import GameState
from hexarena.players import Budget, greedy_bot, random_bot
from hexarena.players.greedy import ENUMERATION_CAP, candidates


#: n=3, Black to move: of its six placements only d3 leaves White without a legal placement.
ONE_WIN = "spelde 3 b w../..b./.b.../b.../.ww variant=nopie ply=6"
HUGE = "spelde 4 b wwww/wwwww/wwwwww/www.www/wwwwww/wwwww/wwww variant=nopie"


def start(size: int = 5, balance: str = "nopie", flips: str = "literal") -> GameState:
    info = registry.get("spelde")
    return info.new_game(info.variant(size, [balance, f"flips={flips}"]), 0)


def play_out(bot, state: GameState, seed: int) -> list[str]:
    rng = random.Random(seed)
    tokens = []
    while state.outcome() is None:
        action = bot(state, rng, Budget())
        assert state.is_legal(action), (state.position(), action)
        tokens.append(state.format(action))
        state = state.play(action)
    assert len(tokens) <= state.board.site_count + 1
    return tokens


def test_registry_of_bots() -> None:
    assert players.get("random") is random_bot
    assert players.get("greedy") is greedy_bot
    with pytest.raises(ValueError, match="random, greedy"):
        players.get("alphazero")


@pytest.mark.parametrize("bot", [random_bot, greedy_bot], ids=["random", "greedy"])
@pytest.mark.parametrize("size,balance,flips", [(5, "nopie", "literal"), (5, "pie", "literal"),
                                                (3, "pie", "dense"), (3, "pie", "standard")])
def test_bots_play_legal_games_to_the_end(bot, size: int, balance: str, flips: str) -> None:
    for seed in range(3):
        play_out(bot, start(size, balance, flips), seed)


@pytest.mark.parametrize("bot", [random_bot, greedy_bot], ids=["random", "greedy"])
def test_bots_are_deterministic_given_the_seed(bot) -> None:
    assert play_out(bot, start(), 7) == play_out(bot, start(), 7)
    games = {tuple(play_out(bot, start(), seed)) for seed in range(6)}
    assert len(games) > 1, "the seed must matter"


@pytest.mark.parametrize("bot", [random_bot, greedy_bot], ids=["random", "greedy"])
def test_bots_refuse_a_finished_game(bot) -> None:
    over = registry.from_position("spelde 2 b bb/bbw/ww variant=nopie")
    with pytest.raises(ValueError):
        bot(over, random.Random(0), Budget())


def test_greedy_takes_the_winning_action() -> None:
    state = registry.from_position(ONE_WIN)
    actions = list(state.legal_actions())
    winners = [a for a in actions if (o := state.play(a).outcome()) is not None and o.winner is state.to_move]
    assert [state.format(a) for a in winners] == ["d3"] and len(actions) == 6
    for seed in range(10):
        assert state.format(greedy_bot(state, random.Random(seed), Budget())) == "d3"


def test_greedy_takes_a_win_whenever_one_exists() -> None:
    """Among all its candidates; beyond ENUMERATION_CAP actions it samples one per site and may miss."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = start(3)
        while state.outcome() is None:
            actions = list(islice(state.legal_actions(), ENUMERATION_CAP + 1))
            if len(actions) > ENUMERATION_CAP:
                state = state.play(state.random_action(rng))
                continue
            wins = {a for a in actions if (o := state.play(a).outcome()) is not None and o.winner is state.to_move}
            if wins:
                assert greedy_bot(state, random.Random(seed), Budget()) in wins
                checked += 1
            state = state.play(state.random_action(rng))
    assert checked >= 10


def _opponent_cells(state: GameState, action) -> int:
    return state.play(action).legal_cells().bit_count()


@pytest.mark.slow
def test_greedy_leaves_the_opponent_fewest_placements() -> None:
    checked = 0
    for seed in range(5):
        rng = random.Random(seed)
        state = start(5)
        while state.outcome() is None:
            actions = list(islice(state.legal_actions(), ENUMERATION_CAP + 1))
            if len(actions) <= ENUMERATION_CAP and all(state.play(a).outcome() is None for a in actions):
                fewest = min(_opponent_cells(state, a) for a in actions)
                choice = greedy_bot(state, random.Random(seed), Budget())
                assert _opponent_cells(state, choice) == fewest
                checked += 1
            state = state.play(state.random_action(rng))
    assert checked >= 20


def test_greedy_breaks_ties_with_the_rng() -> None:
    state = start(5)       # a first stone on any of the 37 inner sites leaves White 61 - 7 = 54 placements
    choices = {greedy_bot(state, random.Random(seed), Budget()) for seed in range(30)}
    assert len(choices) > 1
    assert all(_opponent_cells(state, a) == 54 for a in choices)


def test_greedy_prefers_more_opponent_moves_when_no_move_wins(monkeypatch) -> None:
    state = start(5)
    rng = random.Random(3)
    for _ in range(6):
        state = state.play(state.random_action(rng))
    cls = type(state)
    monkeypatch.setattr(cls, "info", dataclasses.replace(cls.info, no_move_wins=True))
    actions = list(state.legal_actions())
    assert all(state.play(a).outcome() is None for a in actions)
    most = max(_opponent_cells(state, a) for a in actions)
    choice = greedy_bot(state, random.Random(0), Budget())
    assert _opponent_cells(state, choice) == most


def test_greedy_samples_one_action_per_site_when_actions_are_countless() -> None:
    state = registry.from_position(HUGE)
    cands = candidates(state, random.Random(0))
    assert len(cands) == 1 and state.format(cands[0]).startswith("d4/")
    choice = greedy_bot(state, random.Random(0), Budget())
    assert state.is_legal(choice)


def test_greedy_candidates_are_every_action_when_few() -> None:
    state = start(3)
    assert candidates(state, random.Random(0)) == list(state.legal_actions())


def test_greedy_proposes_an_ending_only_when_the_agreed_score_wins():
    from hexarena.engine.actions import Accept, Propose
    from tests.support.boards import state
    losing = state("anda-prison", 3, "B a1 a2 b1 b2 / W e5 c1", "b", last="w")
    assert Propose() in set(losing.legal_actions())
    assert losing.play(Propose()).play(Accept()).outcome().winner.value == "w"
    for seed in range(5):
        assert greedy_bot(losing, random.Random(seed)) != Propose()
    winning = state("anda-prison", 3, "B a1 a2 b1 b2 / W e5 c1", "b", prison="0,9")
    for seed in range(5):
        choice = greedy_bot(winning, random.Random(seed))
        child = winning.play(choice)
        assert choice == Propose() or (child.outcome() is not None and child.outcome().winner.value == "b")
