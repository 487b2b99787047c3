"""MCTS's parts: evaluators, an injected selection rule, tree reuse, reproducibility; heuristic strength."""
from __future__ import annotations

import gc
import math
import random

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Place, Propose, Swap, holder_after
from hexarena.engine.geometry import iter_bits
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.players import Budget, MctsBot, greedy_bot, heuristic_bot
from hexarena.players.evaluators import CutoffPlayout, PolicyPlayout, RandomPlayout, StaticEvaluation, squash
from hexarena.players.base import Player
from hexarena.players.mcts import WIDENING, _Search
from hexarena.players.tree import Node
from hexarena.players.games import (candidates_for, evaluation_for, evaluator_for, knowledge_for, marbanta,
                                     selection_for)
from hexarena.players.selection import UCT, Rave
from hexarena.players.serve import make_engine
from tests.support import boards
from tests.support.marbanta import board as marbanta_board
from tests.support.positions import new, walk


# -- evaluators ---------------------------------------------------------------------------
def test_a_random_playout_scores_the_end_of_the_game() -> None:
    state = new("spelde", 4, "nopie")
    trace = []
    value = RandomPlayout()(state, random.Random(1), trace)
    assert value in (0.0, 1.0)                       # Spelde has no draws
    end = state
    for mover, action in trace:
        assert mover is end.to_move
        end = end.play(action)
    assert end.outcome() is not None
    assert value == (1.0 if end.outcome().winner is Colour.BLACK else 0.0)


def test_a_cutoff_playout_stops_at_its_depth_and_squashes_the_evaluation() -> None:
    state = walk(new("vaxandis", 4, "nopie"), 12, 3)
    evaluate, scale = evaluation_for("vaxandis")
    assert StaticEvaluation(evaluate, scale)(state, random.Random(0)) == squash(evaluate(state), scale)
    trace = []
    value = CutoffPlayout(evaluate, depth=5, scale=scale)(state, random.Random(0), trace)
    assert len(trace) == 5 and 0.0 < value < 1.0
    assert squash(0.0, 1.0) == 0.5 and squash(1e9, 1.0) == 1.0


def test_a_policy_playout_asks_its_policy_for_every_move() -> None:
    asked = []

    def first_action(state, rng):
        asked.append(state.ply)
        return next(iter(state.legal_actions()))
    state = new("spelde", 3, "nopie")
    PolicyPlayout(first_action)(state, random.Random(0))
    assert asked and asked == list(range(asked[0], asked[0] + len(asked)))


@pytest.mark.parametrize("game", registry.playable())
def test_every_game_has_an_evaluation_and_an_evaluator(game: str) -> None:
    assert isinstance(selection_for(new(game, 4)), (UCT, Rave))
    state = walk(new(game, registry.get(game).sizes[0]), 30, 1)
    if state.outcome() is None:
        assert math.isfinite(evaluation_for(game)[0](state))
        assert 0.0 <= evaluator_for(state)(state, random.Random(2)) <= 1.0


def test_an_evaluator_is_made_for_its_board_size() -> None:
    """Anda plays 40 random plies before its evaluation from n=9 on, 10 at n=7
    (docs/players.md, "n=9 against greedy"); each size keeps its own evaluator."""
    small, large = evaluator_for(new("anda", 7)), evaluator_for(new("anda", 9))
    assert isinstance(small, CutoffPlayout) and isinstance(large, CutoffPlayout)
    assert (small.depth, large.depth) == (10, 40)
    largest = evaluator_for(new("anda", 11))
    assert isinstance(largest, CutoffPlayout) and largest.depth == 40
    assert evaluator_for(new("anda", 9)) is large


# -- the selection rule -----------------------------------------------------------------
def test_the_selection_rule_is_injected() -> None:
    calls = []

    class Counting(UCT):
        def __call__(self, parent, child):
            calls.append((parent.visits, child.visits))
            return super().__call__(parent, child)
    bot = MctsBot(iterations=60, seconds=None, selection=Counting())
    state = new("spelde", 4, "nopie")
    assert state.is_legal(bot(state, random.Random(0)))
    assert calls and all(child >= 1 for _, child in calls)


def test_rave_gathers_amaf_statistics_and_plays_legally() -> None:
    bot = MctsBot(iterations=200, seconds=None, selection=Rave())
    state = walk(new("marbanta", 5, "nopie"), 3, 1)
    result = bot.search(state, random.Random(0))
    assert state.is_legal(result.action)
    children = result.tree.root.children
    assert any(c.amaf_visits > c.visits for c in children)
    plain = MctsBot(iterations=200, seconds=None, selection=UCT()).search(state, random.Random(0))
    assert all(c.amaf_visits == 0 for c in plain.tree.root.children)


# -- the tree between moves -------------------------------------------------------------
def python_bot(iterations: int) -> MctsBot:
    """MCTS in Python (players/mcts.py) whatever the core has (Spelde's compiled search,
    players/compiled_search.py, keeps its tree in the core): Spelde's own widening, given
    rather than left to the game, makes the same search but never the core's."""
    return MctsBot(iterations=iterations, seconds=None, narrow=knowledge_for("spelde").narrow)


def test_tree_reuse_keeps_the_subtree_of_the_actions_played() -> None:
    bot = python_bot(400)
    state = walk(new("spelde", 4, "nopie"), 8, 2)
    first = bot.search(state, random.Random(0))
    mine = next(c for c in first.tree.root.children if c.action == first.action)
    reply = max(mine.children, key=lambda c: c.visits)
    assert reply.visits > 1
    now = state.play(first.action).play(reply.action)
    before = (reply.visits, reply.wins, len(reply.children))
    assert first.tree.advance(now) is reply
    second = bot.search(now, random.Random(1), Budget(), first.tree)
    assert second.tree.root is reply
    assert reply.visits == before[0] + second.iterations      # the old statistics are kept
    assert len(reply.children) >= before[2]
    assert now.is_legal(second.action)
    # a state the old tree never reached starts afresh
    other = walk(new("spelde", 4, "nopie"), 8, 3)
    assert first.tree.advance(other) is None
    fresh = bot.search(other, random.Random(1), Budget(), first.tree)
    assert fresh.tree.root.visits == fresh.iterations


def test_a_player_hands_its_bot_the_tree_of_the_last_search() -> None:
    """players.base.Player (the served engine's and the in-process benches' reuse): the
    next search starts from the subtree of the actions played; forget starts afresh."""
    player = Player(python_bot(300))
    state = walk(new("spelde", 4, "nopie"), 8, 2)
    mine = player(state, random.Random(0))
    first = player.tree
    node = next(c for c in first.root.children if c.action == mine)
    reply = max(node.children, key=lambda c: c.visits)
    now = state.play(mine).play(reply.action)
    before = reply.visits
    assert now.is_legal(player(now, random.Random(1)))
    assert player.tree.root is reply and reply.visits == before + 300
    player.forget()
    player(now, random.Random(1))
    fresh = Player(python_bot(300))         # a search from nothing (it may end early: a proof)
    fresh(now, random.Random(1))
    assert player.tree.root is not reply and player.tree.root.visits == fresh.tree.root.visits <= 300
    # a bot without a search is called as it is
    assert Player(greedy_bot)(now, random.Random(2)) == greedy_bot(now, random.Random(2), Budget())


def test_mcts_n_is_reproducible_with_a_seed_across_a_served_game() -> None:
    lines = ["1 game marbanta nopie", "2 boardsize 5", "3 time_settings 600 0 0",
             "4 genmove b", "5 genmove b", "6 genmove w", "7 genmove b"]

    def session(seed: int) -> list[str]:
        engine = make_engine("mcts:40", seed)
        return [engine.handle(line + "\n") for line in lines]
    answers = session(7)
    assert answers == session(7)
    assert all(a.startswith("=") for a in answers), answers


def test_the_served_search_pauses_the_collector_and_freezes_its_tree() -> None:
    """The serving loop's searches run without the cyclic collector (its pauses overran
    byo-yomi periods) and leave it as they found it, with what survived frozen."""
    engine = make_engine("mcts:200", 3)
    assert engine.handle("1 game spelde nopie\n").startswith("=")
    frozen = gc.get_freeze_count()
    try:
        assert engine.handle("2 genmove b\n").startswith("=") and gc.isenabled()
        assert gc.get_freeze_count() > frozen                 # the kept tree among them
        gc.disable()
        assert engine.handle("3 genmove w\n").startswith("=") and not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_the_move_budget_ends_a_search_that_has_iterations_to_spare() -> None:
    bot = MctsBot(iterations=10**9, seconds=None)
    state = new("anda", 5, "nopie")
    result = bot.search(state, random.Random(0), Budget(move_seconds=0.05))
    assert result.iterations < 10**9 and state.is_legal(result.action)


def test_a_pie_decision_is_legal_and_comes_from_the_search() -> None:
    state = new("spelde", 4)
    state = state.play(state.random_action(random.Random(3)))      # Black's first stone; White may swap
    result = python_bot(300).search(state, random.Random(0))
    assert state.is_legal(result.action)
    assert any(isinstance(c.action, Swap) for c in result.tree.root.children)


# -- the heuristic player ------------------------------------------------------------------
def duel(game: str, size: int, a, b, games: int) -> float:
    """a's score against b over `games` seeded games, seats alternating (a swap exchanges them)."""
    info = registry.get(game)
    variant = info.variant(size)
    score = 0.0
    for g in range(games):
        state = info.new_game(variant, 0)
        bots = [a, b] if g % 2 == 0 else [b, a]
        holder = {state.to_move: 0, state.to_move.other: 1}
        rngs = [random.Random(g * 2 + i) for i in range(2)]
        cap = info.ply_cap(size)
        while state.outcome() is None and state.ply < cap:
            i = holder[state.to_move]
            action = bots[i](state, rngs[i], Budget())
            if isinstance(action, Swap):
                holder = {c: 1 - j for c, j in holder.items()}
            state = state.play(action)
        winner = (state.outcome() or state.adjudicate()).winner
        score += 0.5 if winner is None else float(bots[holder[winner]] is a)
    return score


@pytest.mark.parametrize("game,size", [("spelde", 6), pytest.param("vaxandis", 4, marks=pytest.mark.slow),
                                       pytest.param("marbanta", 7, marks=pytest.mark.slow)])
def test_heuristic_beats_greedy(game: str, size: int) -> None:
    assert duel(game, size, heuristic_bot, greedy_bot, 8) >= 6


def test_marbantas_evaluation_counts_stones_and_free_sites() -> None:
    # n=5 (61 sites): e5 has 6 neighbours, the corner a1 3, so Black has 61-2-6 = 53 free
    # sites and White 61-2-3 = 56: Black, with less room left, is ahead.
    assert marbanta.evaluate(marbanta_board("B e5 / W a1")) == pytest.approx(-marbanta.FREE * (53 - 56))
    # a second Black stone beside e5: one stone more; 58 empty sites, 8 of them next to Black
    # (50 free) and 3 next to White (55 free)
    assert marbanta.evaluate(marbanta_board("B e5 e6 / W a1")) == pytest.approx(1 - marbanta.FREE * (50 - 55))


# -- candidates (a cheap superset of the legal actions) -------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_anda_prison_candidates_cover_every_legal_action(seed: int) -> None:
    rng = random.Random(seed)
    state = new("anda-prison", 7)
    while not (state.ply >= 40 + 10 * seed and state.normal):     # a random walk that proposes nothing
        action = state.random_action(rng)
        if not isinstance(action, Propose):
            state = state.play(action)
    listed = candidates_for(state)
    assert listed is not None
    assert state.outcome() is None
    cands = listed(state, random.Random(seed))
    assert cands is not None
    legal = set(state.legal_actions())
    assert legal <= set(cands) and len(set(cands)) == len(cands)
    assert all(not state.is_legal(a) for a in set(cands) - legal)


@pytest.mark.parametrize("seed", range(4))
def test_andas_candidates_are_its_legal_actions(seed: int) -> None:
    rng = random.Random(seed)
    state, seen = new("anda", 7), 0
    while state.outcome() is None and state.ply < 200:
        cands = candidates_for(state)(state, random.Random(state.ply))
        if cands is None:
            assert state.legal_cells() == 0                     # pies and first turns
        else:
            assert len(set(cands)) == len(cands) and set(cands) == set(state.legal_actions())
            seen += 1
        state = state.play(state.random_action(rng))
    assert seen >= 20


def test_andas_candidates_try_the_join_that_smothers_both_enemy_groups_first() -> None:
    """docs/rules/anda.md, A-T3: B b2 d2 / W f7 h6, Black c2 joins b2 and d2 and smothers both white
    stones (Black wins): MCTS tries it first."""
    state = boards.state("anda", 5, "B b2 d2 / W f7 h6", "b", first="-")
    order = candidates_for(state)(state, random.Random(0))
    assert state.format(order[-1]) == "c2"                      # MCTS pops from the end
    assert MctsBot(iterations=1, seconds=None).search(state, random.Random(0)).action == order[-1]


def test_mcts_on_candidates_plays_legally_and_reproducibly() -> None:
    state = walk(new("anda-prison", 7), 30, 2)
    assert state.outcome() is None and candidates_for(state) is not None
    bot = MctsBot(iterations=300, seconds=None, narrow=True)    # its own `narrow`: players/mcts.py's tree
    first = bot.search(state, random.Random(4))
    assert state.is_legal(first.action)
    assert bot.search(state, random.Random(4)).action == first.action
    # every child of the tree is a legal action of its parent (illegal candidates are dropped)
    stack = [first.tree.root]
    while stack:
        node = stack.pop()
        assert all(node.state.is_legal(c.action) for c in node.children)
        stack.extend(node.children)


def loses_at_once(state: GameState, action) -> bool:
    """Whether the opponent has a reply to `action` that wins at once."""
    child = state.play(action)
    if child.outcome() is not None:
        return False
    for reply in child.legal_actions():
        outcome = child.play(reply).outcome()
        if outcome is not None and outcome.winner is holder_after(child.to_move, reply):
            return True
    return False


def test_a_short_search_never_hands_anda_prisons_opponent_a_win_in_one() -> None:
    """Positions where some placements let the opponent win at once and some do not: a
    search far too short to look at every reply still plays a safe one (the refutation
    check expands the replies of its candidates, the candidate order finds the winners)."""
    # random walks into normal play (pie) where all but one placement lose at once
    spots = [walk(new("anda-prison", 5), plies, seed) for seed, plies in ((3, 9), (38, 19))]
    for state in spots:
        unsafe = [a for a in state.legal_actions() if loses_at_once(state, a)]
        assert 0 < len(unsafe) < sum(1 for _ in state.legal_actions())
    for state in spots:
        action = MctsBot(iterations=1, seconds=None).search(state, random.Random(1)).action
        assert not loses_at_once(state, action), state.position()


def test_anda_prison_candidates_try_joining_moves_first() -> None:
    state = registry.from_position("anda-prison 5 b ...../....../......./......../...b.b.../"
                                   "......../......./....../..... last=w")
    board = state.board
    stones = list(iter_bits(state.black))
    order = candidates_for(state)(state, random.Random(0))
    first = order[-1]                 # MCTS pops from the end
    assert isinstance(first, Place)
    assert all(board.neighbour_mask[first.cell] >> s & 1 for s in stones), state.format(first)


@pytest.mark.slow
def test_anda_prisons_komi_pie_is_not_swapped_into_a_lost_position() -> None:
    """From a tournament game MCTS lost in 7 plies: swapping here hands it Black to move,
    where every placement but one lets White leave it without a legal placement."""
    state = new("anda-prison", 7)
    for word in ("g13,i12", "a7,c9", "swap", "komi=0"):
        state = state.play(state.parse(word))
    after = state.play(state.parse("swap"))
    actions = list(after.legal_actions())
    assert sum(loses_at_once(after, a) for a in actions) == len(actions) - 1
    for seed in range(3):
        action = MctsBot(iterations=300, seconds=None).search(state, random.Random(seed)).action
        assert state.format(action) == "keep"


# -- narrow nodes: progressive widening of listed inner nodes, in the candidates' order --------
def below(root, depth: int = 0):
    """(node, depth) of every node of a tree."""
    stack = [(root, depth)]
    while stack:
        node, d = stack.pop()
        yield node, d
        stack.extend((c, d + 1) for c in node.children)


@pytest.mark.slow
def test_a_narrow_search_widens_inner_nodes_by_their_visits_and_opens_the_whole_root() -> None:
    state = walk(new("anda-prison", 7), 40, 3)
    assert state.outcome() is None and candidates_for(state) is not None
    wide = MctsBot(iterations=2000, seconds=None, narrow=False).search(state, random.Random(1)).tree.root
    narrow = MctsBot(iterations=2000, seconds=None, narrow=True).search(state, random.Random(1)).tree.root
    legal = sum(1 for _ in state.legal_actions())
    assert len(narrow.children) == len(wide.children) == legal          # the root: every action
    # below the root's children (whose replies the refutation check may all expand), a node
    # got a new child only while it had fewer than 1 + WIDENING * sqrt(visits)
    deep = [n for n, d in below(narrow) if d >= 2 and n.children]
    assert deep and all(len(n.children) < 2 + WIDENING * math.sqrt(n.visits - 1) for n in deep)
    # the wide search gives a node a new child at each visit until all are there
    assert any(len(n.children) == n.visits - 1 for n, d in below(wide) if d >= 2 and n.visits > 3)
    assert max(d for _, d in below(narrow)) > max(d for _, d in below(wide))


def joining_sites(state: GameState) -> int:
    board = state.board
    own = state.black if state.to_move is Colour.BLACK else state.white
    empty = board.mask & ~(state.black | state.white)
    seen = joining = 0
    for group in board.components(own):
        around = board.adjacent(group) & empty
        joining |= around & seen
        seen |= around
    return joining


def test_a_narrow_node_tries_the_candidates_most_promising_first() -> None:
    """Anda-prison's candidates put the joining placements first: the first child of every
    narrow node whose mover can join two groups is such a placement."""
    state = walk(new("anda-prison", 7), 40, 3)
    root = MctsBot(iterations=1500, seconds=None, narrow=True).search(state, random.Random(2)).tree.root
    checked = 0
    for node, depth in below(root):
        if depth >= 1 and node.children and node.state.normal and joining_sites(node.state):
            first = node.children[0].action
            assert isinstance(first, Place) and joining_sites(node.state) >> first.cell & 1
            checked += 1
    assert checked >= 10


def test_a_narrow_search_is_reproducible_and_still_sees_a_win_in_one() -> None:
    state = walk(new("anda-prison", 7), 30, 2)
    bot = MctsBot(iterations=300, seconds=None, narrow=True)
    assert bot.search(state, random.Random(4)).action == bot.search(state, random.Random(4)).action
    for state in (walk(new("anda-prison", 5), plies, seed) for seed, plies in ((3, 9), (38, 19))):
        action = MctsBot(iterations=1, seconds=None, narrow=True).search(state, random.Random(1)).action
        assert not loses_at_once(state, action), state.position()


def test_a_narrow_node_whose_children_all_lose_widens_at_once() -> None:
    """A narrow node gets a new child only as its visits allow, except when every child it
    has is a proven loss for its mover: then it looks for a way out at its next visit."""
    state = walk(new("anda-prison", 7), 30, 2)
    search = _Search(Node(state, None, None), random.Random(0), evaluator_for(state),
                     selection_for(state), candidates_for(state), narrow=True)
    root = search.root
    action = next(iter(state.legal_actions()))
    inner = Node(state.play(action), action, holder_after(state.to_move, action))
    root.children, root.untried, root.listed = [inner], [], True
    untried = search._look(inner)
    for _ in range(3):
        reply = search._expand(inner, untried)
        assert reply is not None and not reply.solved
    search._iterate()                                        # its replies are not proven: no new one
    assert len(inner.children) == 3 and inner.visits == 1 and not search._has_room(inner)
    for reply in inner.children:                             # now all lose for the mover
        reply.solved, reply.winner = True, reply.holder.other
    search._iterate()
    assert len(inner.children) == 4 and not inner.children[3].solved
