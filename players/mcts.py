"""The MCTS player: UCT with random playouts, generic over GameState.

Search. Each iteration walks down the tree by UCB1, expands one new child,
and scores it by a random playout (``state.random_action``) that ends when
the rules end the game or at the game's ply cap (``info.ply_cap``), where
``state.adjudicate()`` decides. A node's statistics are win rates from the
perspective of the player who made the move into it; a draw counts 1/2.
Perspectives are colours, never "the other side": the mover of an action
holds ``to_move`` afterwards, except after ``Swap``, which hands the mover the
other colour (the referee exchanges seats). ``to_move`` of each node is read
from its state, so a colour that moves twice in a row needs no special case.

Actions. A node whose legal actions number at most ``ENUMERATION_CAP`` lists
them (in an rng-shuffled order) and expands one per visit; a node with more
(Spelde's flip sets can be millions, Anda's first pairs thousands) grows by
progressive widening: at most ``1 + WIDENING * sqrt(visits)`` children, each a
new distinct ``random_action`` draw. Nothing enumerates millions.

Proofs. A child whose state is over (or at the ply cap) is solved on
expansion; a node with a child that wins for its mover is solved as that
win, and a fully listed node whose children are all solved takes the best of
them (MCTS-Solver, simplified). So an immediate win is always played (the
root lists or samples every candidate and checks each before searching), and
a move that lets the opponent win at once is avoided once the refutation is
expanded. Selection never prefers a proven loss while another child remains.

Budget. Bots never read the clock: the search is a pure function of the
state, the injected rng and the bot's parameters. It stops after
``iterations`` playouts and/or after ``plies`` simulated actions (tree
expansions plus playout moves), whichever comes first. The default ``mcts``
spends ``DEFAULT_PLIES`` plies, about 0.5-1 s a move at every game's default
size on a 2-core machine (bench/bench_mcts.py), since a playout's cost is
roughly its length; ``mcts:N`` runs exactly N iterations. With
``Budget.seconds`` known and below ``RESERVE_SECONDS`` both limits shrink in
proportion, so a bot low on time plays ever faster moves instead of losing
on time.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import islice

from hexarena.engine.actions import Action, holder_after
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState

from .base import Budget

#: Above this many legal actions a node samples candidates instead of listing them.
ENUMERATION_CAP = 256
#: Children of a sampling node: at most 1 + WIDENING * sqrt(visits).
WIDENING = 2.0
#: Fresh draws tried per widening step before giving up on finding a new action.
DRAW_ATTEMPTS = 4
#: UCB1 exploration constant (rewards are in [0, 1]).
EXPLORATION = 1.0
#: Simulated actions per move of the default bot.
DEFAULT_PLIES = 12_000
#: Below this many seconds left on the clock, the budget shrinks in proportion.
RESERVE_SECONDS = 30.0
#: The fewest iterations of any search (however little time is left).
MIN_ITERATIONS = 8


class _Node:
    """A state in the tree; `holder` is the colour its mover holds after moving into it."""

    __slots__ = ("state", "action", "holder", "visits", "wins", "children", "untried", "listed",
                 "tried", "solved", "winner")

    def __init__(self, state: GameState, action: Action | None, holder: Colour | None):
        self.state = state
        self.action = action
        self.holder = holder
        self.visits = 0
        self.wins = 0.0
        self.children: list[_Node] = []
        self.untried: list[Action] | None = None   # None: actions not looked at yet
        self.listed = False                         # every legal action is a child or untried
        self.tried: set[Action] = set()             # actions of a sampling node's children
        self.solved = False
        self.winner: Colour | None = None           # when solved: the winner with best play


def _value(node: _Node) -> float:
    """A solved node's worth to its holder: 1 win, 1/2 draw, 0 loss."""
    if node.winner is None:
        return 0.5
    return 1.0 if node.winner is node.holder else 0.0


@dataclass(frozen=True)
class MctsBot:
    """UCT search; `iterations` and/or `plies` bound it (None: no bound of that kind).

    Called as a Bot: ``bot(state, rng, budget)``; ValueError when the game is over.
    """

    iterations: int | None = None
    plies: int | None = DEFAULT_PLIES
    exploration: float = EXPLORATION

    def __post_init__(self) -> None:
        if self.iterations is None and self.plies is None:
            raise ValueError("an MCTS bot needs an iteration or a ply budget")
        for name in ("iterations", "plies"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1, got {value}")

    def __call__(self, state: GameState, rng: random.Random, budget: Budget = Budget()) -> Action:
        if state.outcome() is not None:
            raise ValueError("the game is over")
        return _Search(state, rng, self.exploration).run(*self.limits(budget))

    def limits(self, budget: Budget) -> tuple[int | None, int | None]:
        """(iterations, plies) for one move, scaled down when the clock runs low."""
        scale = 1.0
        if budget.seconds is not None and budget.seconds < RESERVE_SECONDS:
            scale = max(0.0, budget.seconds) / RESERVE_SECONDS
        iterations = self.iterations
        if iterations is not None:
            iterations = max(min(iterations, MIN_ITERATIONS), int(iterations * scale))
        plies = None if self.plies is None else int(self.plies * scale)
        return iterations, plies


class _Search:
    """One move's search tree; `plies` counts the simulated actions so far."""

    def __init__(self, state: GameState, rng: random.Random, exploration: float):
        self.rng = rng
        self.exploration = exploration
        self.cap = state.info.ply_cap(state.variant.size)
        self.root = _Node(state, None, None)
        self.plies = 0

    def run(self, iterations: int | None, plies: int | None) -> Action:
        root = self.root
        self._open_root()
        done = 0
        while not root.solved:
            if iterations is not None and done >= iterations:
                break
            if plies is not None and self.plies >= plies and done >= MIN_ITERATIONS:
                break
            self._iterate()
            done += 1
        return self._best_action()

    # -- the tree ---------------------------------------------------------------------
    def _open_root(self) -> None:
        """Expand every root candidate at once, so that an immediate win is never missed."""
        root = self.root
        self._look(root)
        if not root.listed:                       # sample a first pool: several draws per site
            draws = max(64, 4 * root.state.legal_cells().bit_count())
            for _ in range(draws):
                action = root.state.random_action(self.rng)
                if action not in root.tried:
                    root.untried.append(action)
                    root.tried.add(action)
        while root.untried and not root.solved:
            child = self._expand(root)
            if child.solved:
                self._propagate([root, child])

    def _look(self, node: _Node) -> None:
        """List the node's actions (shuffled) when there are few, else mark it as sampling."""
        actions = list(islice(node.state.legal_actions(), ENUMERATION_CAP + 1))
        if len(actions) <= ENUMERATION_CAP:
            self.rng.shuffle(actions)
            node.untried, node.listed = actions, True
        else:
            node.untried = []

    def _expand(self, node: _Node) -> _Node:
        """A new child from `node.untried` (listed) or a fresh draw; solved if it ends the game."""
        action = node.untried.pop()
        state = node.state
        child_state = state.play(action)
        self.plies += 1
        holder = holder_after(state.to_move, action)
        child = _Node(child_state, action, holder)
        outcome = child_state.outcome()
        if outcome is None and child_state.ply >= self.cap:
            outcome = child_state.adjudicate()
        if outcome is not None:
            child.solved, child.winner = True, outcome.winner
        node.children.append(child)
        return child

    def _widen(self, node: _Node) -> bool:
        """Queue a new distinct draw on a sampling node if its width allows; False if not."""
        if len(node.children) >= 1 + WIDENING * math.sqrt(node.visits):
            return False
        for _ in range(DRAW_ATTEMPTS):
            action = node.state.random_action(self.rng)
            if action not in node.tried:
                node.tried.add(action)
                node.untried.append(action)
                return True
        return False

    def _iterate(self) -> None:
        node = self.root
        path = [node]
        while True:
            if node.solved:
                winner = node.winner
                break
            if node.untried is None:
                self._look(node)
            if node.untried or (not node.listed and self._widen(node)):
                child = self._expand(node)
                path.append(child)
                if child.solved:
                    winner = child.winner
                    self._propagate(path)
                else:
                    winner = self._playout(child.state)
                break
            node = self._select(node)
            path.append(node)
        for n in path:
            n.visits += 1
            if winner is None:
                n.wins += 0.5
            elif winner is n.holder:
                n.wins += 1.0

    def _select(self, node: _Node) -> _Node:
        """The child with the best UCB1 score, unvisited ones first, in order; a solved
        child counts at its exact value, a proven loss below everything else."""
        log_n = math.log(max(node.visits, 1))
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            if child.solved:
                score = _value(child) or -1.0
            elif child.visits == 0:
                return child
            else:
                score = child.wins / child.visits + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _propagate(self, path: list[_Node]) -> None:
        """Solve the ancestors of a newly solved node while the proof carries upward."""
        for i in range(len(path) - 2, -1, -1):
            node = path[i]
            child = path[i + 1]
            if _value(child) == 1.0:
                node.solved, node.winner = True, child.winner
                continue
            if not node.listed or node.untried or not all(c.solved for c in node.children):
                return
            best = max(node.children, key=_value)
            node.solved, node.winner = True, best.winner

    def _playout(self, state: GameState) -> Colour | None:
        """The winner of a random playout from `state` (None: a draw)."""
        rng, cap = self.rng, self.cap
        plies = 0
        while True:
            outcome = state.outcome()
            if outcome is not None:
                break
            if state.ply >= cap:
                outcome = state.adjudicate()
                break
            state = state.play(state.random_action(rng))
            plies += 1
        self.plies += plies
        return outcome.winner

    def _best_action(self) -> Action:
        """A winning child if proven, else the most visited child that is not a proven loss."""
        children = self.root.children
        for child in children:
            if child.solved and _value(child) == 1.0:
                return child.action
        alive = [c for c in children if not (c.solved and _value(c) == 0.0)] or children
        best = max(alive, key=lambda c: (c.visits, c.wins))
        return best.action


__all__ = ["MctsBot", "DEFAULT_PLIES", "ENUMERATION_CAP", "RESERVE_SECONDS", "MIN_ITERATIONS"]
