"""The MCTS player: legality on every game, determinism, one-ply tactics, strength, serving."""
from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from hexarena import players
from hexarena.engine import registry
from hexarena.engine.actions import Action, Swap, holder_after, holders_after
from hexarena.engine.game import GameInfo, GameState
from hexarena.players import Budget, MctsBot, random_bot
from hexarena.players import mcts
from hexarena.players.choice import settled
from hexarena.players.evaluators import RandomPlayout
from hexarena.players.mcts import DEFAULT_SECONDS, ENUMERATION_CAP
from hexarena.players.selection import UCT
from hexarena.players.tree import Node

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [(g, b) for g in registry.playable() for b in registry.get(g).balances]

#: n=3, Black to move: of its six placements only d3 leaves White without a legal placement.
ONE_WIN = "spelde 3 b w../..b./.b.../b.../.ww variant=nopie ply=6"


def spelde(size: int, balance: str = "nopie") -> GameState:
    info = registry.get("spelde")
    return info.new_game(info.variant(size, [balance]), 0)


def wins_now(state: GameState, actions: list[Action]) -> set[Action]:
    """The actions that end the game at once in the mover's favour (after a swap it holds the other colour)."""
    out = set()
    for a in actions:
        outcome = state.play(a).outcome()
        holder = holder_after(state.to_move, a)
        if outcome is not None and outcome.winner is holder:
            out.add(a)
    return out


# -- the registry ------------------------------------------------------------------------
def test_names_select_the_budget() -> None:
    assert players.get("mcts") == MctsBot(iterations=None, seconds=DEFAULT_SECONDS)
    assert players.get("mcts:400") == MctsBot(iterations=400, seconds=None)
    assert players.get("mcts:0.25s") == MctsBot(seconds=0.25)
    for bad in ("mcts:0s", "mcts:xs", "mcts:-1s", "mcts:\u0663s", "mcts:infs", "mcts:nans", "mcts:1e2s"):
        with pytest.raises(ValueError, match="seconds"):
            players.get(bad)
    for bad in ("mcts:0", "mcts:", "mcts:-3", "mcts:1e3", "mcts:99999999999", "mcts:\u00b2", "mcts:\u0663",
                "mcts:" + "9" * 5000):
        with pytest.raises(ValueError, match="whole number"):
            players.get(bad)
    with pytest.raises(ValueError, match="takes no budget"):
        players.get("random:5")
    with pytest.raises(ValueError, match="mcts:N"):
        players.get("alphazero")


def test_a_bot_needs_some_budget() -> None:
    with pytest.raises(ValueError):
        MctsBot(iterations=None, seconds=None)
    with pytest.raises(ValueError):
        MctsBot(iterations=0)


def test_the_clock_share_caps_the_time_but_not_the_count() -> None:
    bot = MctsBot(iterations=400, seconds=2.0)
    assert bot.move_seconds(Budget()) == 2.0
    assert bot.move_seconds(Budget(100.0, 0.5)) == 0.5
    assert MctsBot(iterations=3, seconds=None).move_seconds(Budget()) is None


def test_config_accepts_a_budgeted_player() -> None:
    from hexarena.referee.tournament import config as C
    cfg = C.from_dict({"engines": {"a": {"player": "mcts:400"}, "b": {"player": "random"}},
                       "games": [{"game": registry.playable()[0]}]})
    assert "mcts:400" in cfg.engine("a").cmd
    with pytest.raises(C.ConfigError, match="player name"):
        C.from_dict({"engines": {"a": {"player": "mcts:x"}, "b": {"player": "random"}},
                     "games": [{"game": registry.playable()[0]}]})


# -- legality and determinism ------------------------------------------------------------
@pytest.mark.parametrize("bot", [MctsBot(iterations=6, seconds=None), MctsBot(seconds=0.02)], ids=["iter", "time"])
@pytest.mark.parametrize("game,balance", CONFIGS)
def test_plays_legal_actions_on_every_game(bot: MctsBot, game: str, balance: str) -> None:
    info = registry.get(game)
    rng = random.Random(1)
    state = info.new_game(info.variant(3, [balance]), 0)
    for _ in range(30):
        if state.outcome() is not None:
            with pytest.raises(ValueError, match="over"):
                bot(state, rng, Budget())
            break
        action = bot(state, rng, Budget())
        assert state.is_legal(action), (state.position(), action)
        state = state.play(action)


@pytest.mark.parametrize("game", registry.playable())
def test_same_seed_same_move(game: str) -> None:
    info = registry.get(game)
    bot = MctsBot(iterations=30, seconds=None)
    walk = random.Random(5)
    state = info.new_game(info.variant(3), 0)
    seen = set()
    for _ in range(6):
        if state.outcome() is not None:
            break
        first = bot(state, random.Random(11), Budget())
        assert bot(state, random.Random(11), Budget()) == first
        seen.add(first)
        state = state.play(state.random_action(walk))
    assert seen


def test_the_seed_matters() -> None:
    bot = MctsBot(iterations=20, seconds=None)
    state = spelde(5)
    assert len({bot(state, random.Random(seed), Budget()) for seed in range(8)}) > 1


# -- one-ply tactics ---------------------------------------------------------------------
def test_takes_the_only_winning_placement() -> None:
    state = registry.from_position(ONE_WIN)
    for seed in range(5):
        assert state.format(MctsBot(iterations=1, seconds=None)(state, random.Random(seed), Budget())) == "d3"


#: Where a mover can win with its own action: not Marbanta, where the player unable to move
#: wins and after any turn (pie stones aside) the opponent is the one to move.
WIN_CONFIGS = [(g, b) for g, b in CONFIGS if g != "marbanta"]
#: Where an action can lose for its own mover: Anda (its own stones removed), Anda-prison (an
#: accepted ending that scores against the acceptor), Marbanta (leaving the opponent without a
#: move). In Spelde and Vaxandis a side loses only when it cannot act on its own turn.
SELF_LOSS_CONFIGS = [(g, b) for g, b in CONFIGS if g not in ("spelde", "vaxandis")]


@pytest.mark.parametrize("game,balance", WIN_CONFIGS)
def test_takes_a_win_in_one_on_every_game(game: str, balance: str) -> None:
    """Wherever an action wins at once, MCTS plays one, even on the smallest budget (listed turns)."""
    info = registry.get(game)
    bot = MctsBot(iterations=1, seconds=None)
    checked = 0
    for seed in range(2, 8):                  # random walks until some turn offers a win in one
        for state in walked(info, balance, seed):
            actions = replies(state)
            if actions:
                wins = wins_now(state, actions)
                if wins:
                    assert bot(state, random.Random(0), Budget()) in wins, state.position()
                    checked += 1
        if checked:
            break
    assert checked, "the walks met no win in one"


def walked(info: GameInfo, balance: str, seed: int) -> Iterator[GameState]:
    """The states of one seeded random walk on side 3 until the game ends (at most 200 turns)."""
    walk = random.Random(seed)
    state = info.new_game(info.variant(3, [balance]), 0)
    for _ in range(200):
        if state.outcome() is not None:
            return
        yield state
        state = state.play(state.random_action(walk))


def replies(state: GameState) -> list[Action]:
    """Every legal action, or [] when there are too many to list (no win in one is looked for)."""
    actions = list(islice(state.legal_actions(), ENUMERATION_CAP + 1))
    return actions if len(actions) <= ENUMERATION_CAP else []


def losing_spots(size: int, seeds: range, limit: int) -> list[tuple[GameState, set[Action]]]:
    """Spelde states with no win in one where some placements let the opponent win at once,
    every turn involved having at most 40 actions: each with its safe placements (by brute force)."""
    found = []
    for seed in seeds:
        walk = random.Random(seed)
        state = spelde(size)
        while state.outcome() is None and len(found) < limit:
            actions = list(islice(state.legal_actions(), 41))
            if len(actions) <= 40 and not wins_now(state, actions):
                answers = {a: list(islice(state.play(a).legal_actions(), 41)) for a in actions}
                if all(len(r) <= 40 for r in answers.values()):
                    safe = {a for a, r in answers.items() if not wins_now(state.play(a), r)}
                    if safe and len(safe) < len(actions):
                        found.append((state, safe))
            state = state.play(state.random_action(walk))
    return found


@pytest.mark.slow
def test_avoids_a_move_that_lets_the_opponent_win_at_once() -> None:
    spots = losing_spots(4, range(20), 6)
    assert len(spots) >= 4
    bot = MctsBot(iterations=400, seconds=None)
    for state, safe in spots:
        assert bot(state, random.Random(3), Budget()) in safe, state.position()


@pytest.mark.parametrize("game,balance", SELF_LOSS_CONFIGS)
def test_never_plays_a_move_that_loses_by_itself(game: str, balance: str) -> None:
    """An action after which the rules declare the mover lost (Marbanta: leaving the opponent
    without a move) is never chosen while another action does not lose at once."""
    info = registry.get(game)
    bot = MctsBot(iterations=1, seconds=None)
    checked = 0
    for seed in range(4, 12):                 # random walks until some turn offers a self-losing action
        for state in walked(info, balance, seed):
            actions = replies(state)
            losing = set()
            for a in actions:
                outcome = state.play(a).outcome()
                holder = holder_after(state.to_move, a)
                if outcome is not None and outcome.winner is not None and outcome.winner is not holder:
                    losing.add(a)
            if losing and len(losing) < len(actions):
                assert bot(state, random.Random(0), Budget()) not in losing, state.position()
                checked += 1
        if checked:
            break
    assert checked, "the walks met no self-losing action"


# -- strength ----------------------------------------------------------------------------
def play_match(info, variant, bots, seed: int) -> int | None:
    """Index of the winning bot (bots[0] starts as Black; swaps exchange colours), None for a draw."""
    state = info.new_game(variant, 0)
    holder = {state.to_move: 0, state.to_move.other: 1}
    rngs = [random.Random(seed * 2 + i) for i in range(2)]
    while state.outcome() is None:
        i = holder[state.to_move]
        action = bots[i](state, rngs[i], Budget())
        holder = holders_after(holder, action)
        state = state.play(action)
    winner = state.outcome().winner
    return None if winner is None else holder[winner]


@pytest.mark.parametrize("size,balance,iterations", [(4, "nopie", 100), (4, "pie", 100)])
def test_beats_random_on_spelde(size: int, balance: str, iterations: int) -> None:
    info = registry.get("spelde")
    variant = info.variant(size, [balance])
    mcts = MctsBot(iterations=iterations, seconds=None)
    won = 0
    for game in range(10):
        seat = game % 2
        bots = [mcts, random_bot] if seat == 0 else [random_bot, mcts]
        won += play_match(info, variant, bots, game) == seat
    assert won >= 8


# -- serving -----------------------------------------------------------------------------
def test_python_m_players_serves_mcts() -> None:
    session = "1 game spelde nopie\n2 boardsize 4\n3 genmove b\n4 name\n5 quit\n"
    out = subprocess.run([sys.executable, "-m", "hexarena.players", "mcts:50", "--seed", "3"], input=session,
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    answers = out.stdout[:-2].split("\n\n")
    assert answers[:2] == ["=1 ", "=2 "]
    state = spelde(4)
    move = answers[2].removeprefix("=3 ")
    assert state.is_legal(state.parse(move)), answers
    assert "mcts" in answers[3]


#: White to move with one legal action (a release), far from the end of the game.
ONE_ACTION = ("anda-prison 7 w ..b..../......../.b.b...../....b...../....b....../............/............./"
              "............/......b..../........../........./......../....... phase=declined komi=62 "
              "prison=59,2 annihilated=b last=b ply=14")


def test_a_timed_search_with_one_action_left_stops_at_once():
    """A 60 s search of a root with one action stops at the first check (iterations counted, not time)."""
    state = registry.from_position(ONE_ACTION)
    assert len(list(state.legal_actions())) == 1 and state.play(next(state.legal_actions())).outcome() is None
    result = MctsBot(seconds=60.0).search(state, random.Random(0))
    assert result.iterations == mcts.SETTLED_CHECK
    assert state.is_legal(result.action)


def _root(visits: list[int], swap: bool = False) -> mcts._Search:
    state = spelde(5, "pie") if swap else spelde(5)
    if swap:
        state = state.play(state.random_action(random.Random(0)))
        assert any(isinstance(a, Swap) for a in state.legal_actions())
    search = mcts._Search(Node(state, None, None), random.Random(0), RandomPlayout(), UCT())
    search._open_root()
    kids = search.root.children
    for child, n in zip(kids, visits + [0] * len(kids)):
        child.visits = n
    return search


def test_a_timed_search_stops_when_no_other_child_can_overtake_the_leader():
    search = _root([100, 40, 10])
    assert settled(search.root, 59.0)                 # 100 - 40 = 60 > 59 more iterations
    assert not settled(search.root, 60.0)             # 60 more could make it a tie
    assert not settled(_root([100, 40], swap=True).root, 1.0)    # the pie is chosen by value


def test_an_iteration_bounded_search_runs_every_iteration():
    state = registry.from_position(ONE_ACTION)
    assert MctsBot(iterations=300, seconds=None).search(state, random.Random(0)).iterations == 300
