"""The MCTS player, generic over GameState, factored as OpenSpiel's MCTSBot is.

Parts, each injectable: the **evaluator** values a new leaf (players/evaluators.py;
random playouts by default, the game's own choice from players/games when
``evaluator`` is None), the **selection rule** scores children on the way
down (players/selection.py; UCT by default, RAVE reads AMAF statistics; the
game's own choice when ``selection`` is None), and
the **tree** (players/tree.py) survives between moves: :meth:`MctsBot.search`
takes the last search's tree and keeps the subtree of the actions played. An
evaluator with a searcher-relative term (players/evaluators.py, ``for_searcher``)
is bound to the colour the searching player holds at the root; a tree grown
while that player held the other colour (before a swap) is not kept.

Iteration: descend by the selection rule, expand one new child, value it by
the evaluator (or exactly, if the game is over or at the ply cap there), add
the value to every node on the path from its holder's side, exchanging the
colours at every ``Swap`` on the way up (players/tree.py).

Actions. A node with at most ``ENUMERATION_CAP`` legal actions lists them (in
an rng-shuffled order) and expands one per visit; where the game gives a
cheap superset of its legal actions (players.games.candidates_for:
Anda-prison, whose legal list costs one full resolution per empty site), the
node lists that instead, in the game's order (most promising expanded
first), and drops an illegal candidate when it comes to expand it; a node with more (Spelde's
flip sets can be millions, Anda's first pairs thousands) grows by progressive
widening: at most ``1 + WIDENING * sqrt(visits)`` children, each a new
distinct ``random_action`` draw. A listed node expands one child a visit until
all are there, so its value is the mean over all the opponent's replies, most
of them poor; with ``narrow`` (a game's GameKnowledge.narrow, players/games: games whose
candidates come best first), a listed node below the root grows by the same widening, in its
candidates' order, so that the search looks deeper along the likely replies
(and at once, whatever its width, when every child it has is a proven loss for
its mover: a refuted node looks for a way out instead of losing its visits).

Proofs (MCTS-Solver, simplified): a child whose state is over is solved on
expansion; a node with a child that wins for its mover is solved as that win,
and a fully listed node whose children are all solved takes the best of them.
The root expands every candidate first, so an immediate win is always played;
selection never prefers a proven loss while another child remains.

Choice (players/choice.py): a proven win, else the most visited child that is not a
proven loss, after a refutation check: the candidate's replies are all expanded (when
they are listed, not sampled), and a reply that wins at once makes it a
proven loss and the next candidate is checked (at most
``REFUTATION_CHECKS``, and no more once the move has used ``1 + REFUTATION_GRACE``
times its time), so a search too short to look at every reply of
every candidate still never hands the opponent a win in one it could see.
A pie decision (a root offering ``swap``) is taken from the search's value of
each side: swap when the swap child's mean is at least the mean of the best
other child.

Budget: ``iterations`` and/or ``seconds`` per move, whichever ends first, and
never beyond ``Budget.move_seconds`` (the serving loop's share of the clock).
A time-bounded search also stops early once the choice is settled: when the
most visited root child leads the next by more visits than the time left can
give at this move's rate of iterations (so no other child can overtake it),
or when one root child is left that is not a proven loss. A root offering
``swap`` (chosen by value, not visits) never stops early. An iteration-bounded
search always runs its iterations.
``mcts:N`` (iterations only) is a pure function of state, tree and rng as
long as the clock leaves it the time; the time-bounded ``mcts`` is not.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Callable

from hexarena.engine.actions import Action, Swap, holder_after
from hexarena.engine.core import Colour
from hexarena.engine.errors import IllegalMove
from hexarena.engine.game import GameState

from .base import Budget
from .choice import best_child, lost, settled
from .evaluators import Evaluator, Trace, for_searcher
from .selection import UCT, Rave, Selection
from .tree import Node, Tree

if TYPE_CHECKING:
    from .compiled_search import CompiledTree

#: Above this many legal actions a node samples candidates instead of listing them.
ENUMERATION_CAP = 256
#: Children of a sampling node: at most 1 + WIDENING * sqrt(visits).
WIDENING = 2.0
#: Fresh draws tried per widening step before giving up on finding a new action.
DRAW_ATTEMPTS = 4
#: Root candidates checked for a reply that wins at once before one is played.
REFUTATION_CHECKS = 12
#: The checks stop once the move has taken this fraction more than its time.
REFUTATION_GRACE = 0.1
#: A time-bounded search asks every this many iterations whether its choice is settled.
SETTLED_CHECK = 32
#: Seconds a move of the default `mcts` (less when the clock says so).
DEFAULT_SECONDS = 1.0


@dataclass(frozen=True)
class SearchResult:
    action: Action
    tree: Tree | CompiledTree            # CompiledTree: the core's search (players/compiled_search.py)
    iterations: int
    depth: int = 0          # the most plies below the root one iteration reached


@dataclass(frozen=True)
class MctsBot:
    """MCTS bounded by `iterations` and/or `seconds` a move (None: no bound of that kind).

    Called as a Bot: ``bot(state, rng, budget)``; ValueError when the game is over.
    `evaluator` / `selection` / `narrow` None: the game's own (players.games.evaluator_for /
    selection_for / narrow_for; UCT and wide nodes unless said).
    """

    iterations: int | None = None
    seconds: float | None = DEFAULT_SECONDS
    evaluator: Evaluator | None = None
    selection: Selection | None = None
    narrow: bool | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("an MCTS bot needs an iteration or a time budget")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, got {self.seconds}")

    def __call__(self, state: GameState, rng: random.Random, budget: Budget = Budget()) -> Action:
        return self.search(state, rng, budget).action

    def move_seconds(self, budget: Budget) -> float | None:
        """The time this move may take: the bot's own limit capped by the clock's share."""
        limits = [s for s in (self.seconds, budget.move_seconds) if s is not None]
        return min(limits) if limits else None

    def search(self, state: GameState, rng: random.Random, budget: Budget = Budget(),
               tree: Tree | CompiledTree | None = None) -> SearchResult:
        """Search `state`, reusing `tree` (the last result's) where it leads to `state`; in the
        compiled core where it has the game's search (players/compiled_search.py)."""
        if state.outcome() is not None:
            raise ValueError("the game is over")
        from . import compiled_search
        if compiled_search.usable(self, state):
            return compiled_search.search(self, state, rng, budget, tree)
        evaluator, selection = self.evaluator, self.selection
        from .games import candidates_for, evaluator_for, narrow_for, selection_for
        game_evaluator = evaluator or evaluator_for(state)
        evaluator = for_searcher(game_evaluator, state.to_move)
        if not isinstance(tree, Tree) or (evaluator is not game_evaluator
                                          and tree.root.state.to_move is not state.to_move):
            tree = None      # a searcher-relative evaluator's values for the colour held before a swap
        selection = selection or selection_for(state)
        narrow = narrow_for(state) if self.narrow is None else self.narrow
        root = tree.advance(state) if tree is not None else None
        if root is None:
            root = Node(state, None, None)
        root.holder = None
        seconds = self.move_seconds(budget)
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        search = _Search(root, rng, evaluator, selection, candidates_for(state), narrow)
        done = search.run(self.iterations, deadline)
        checks_until = None if seconds is None else start + (1.0 + REFUTATION_GRACE) * seconds
        return SearchResult(search.best_action(checks_until), Tree(root), done, search.depth)


class _Search:
    """One move's search from `root`."""

    def __init__(self, root: Node, rng: random.Random, evaluator: Evaluator, selection: Selection,
                 candidates: Callable[[GameState, random.Random], list[Action] | None] | None = None,
                 narrow: bool = False):
        self.rng = rng
        self.candidates = candidates
        self.narrow = narrow
        self.evaluator = evaluator
        self.selection = selection
        self.cap = root.state.info.ply_cap(root.state.variant.size)
        self.root = root
        self.depth = 0

    def run(self, iterations: int | None, deadline: float | None) -> int:
        """Iterate until a limit or a proof; the number of iterations."""
        root = self.root
        self._open_root()
        done = 0
        clock = time.perf_counter
        start = clock()
        while not root.solved:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None:
                now = clock()
                if now >= deadline:
                    break
                if done and done % SETTLED_CHECK == 0 and settled(root, done * (deadline - now) / (now - start)):
                    break
            self._iterate()
            done += 1
        return done

    # -- the tree ---------------------------------------------------------------------
    def _open_root(self) -> None:
        """Expand every root candidate at once, so that an immediate win is never missed."""
        root = self.root
        untried = root.untried if root.untried is not None else self._look(root)
        if not root.listed:                       # sample a first pool: several draws per site
            draws = max(64, 4 * root.state.legal_cells().bit_count())
            for _ in range(draws):
                action = root.state.random_action(self.rng)
                if action not in root.tried:
                    untried.append(action)
                    root.tried.add(action)
        while untried and not root.solved:
            child = self._expand(root, untried)
            if child is None:
                break
            if child.solved:
                self._propagate([root, child])

    def _look(self, node: Node) -> list[Action]:
        """List the node's actions (shuffled) when there are few, else mark it as sampling;
        the node's new `untried` list. The game's candidates, when it has them, stand in
        for its legal actions (`_expand` drops the illegal ones)."""
        listed = self.candidates(node.state, self.rng) if self.candidates is not None else None
        actions = listed if listed is not None else node.state.listed_actions(ENUMERATION_CAP)
        if actions is not None and len(actions) <= ENUMERATION_CAP:
            if listed is None:
                self.rng.shuffle(actions)
            node.untried, node.listed = actions, True
        else:
            node.untried = actions = []
        return actions

    def _expand(self, node: Node, untried: list[Action]) -> Node | None:
        """A new child from `untried` (`node.untried`, looked at); solved if it ends the game.
        None when every action left there is an illegal candidate (all dropped)."""
        state = node.state
        while True:
            if not untried:
                return None
            action = untried.pop()
            try:
                child_state = state.play(action)
                break
            except IllegalMove:
                continue
        holder = holder_after(state.to_move, action)
        child = Node(child_state, action, holder)
        outcome = child_state.outcome()
        if outcome is None and child_state.ply >= self.cap:
            outcome = child_state.adjudicate()
        if outcome is not None:
            child.solved, child.winner = True, outcome.winner
        node.children.append(child)
        node.by_action[action] = child
        return child

    @staticmethod
    def _has_room(node: Node) -> bool:
        """Whether progressive widening allows `node` another child: fewer than
        ``1 + WIDENING * sqrt(visits)`` (sampling nodes, and narrow listed ones)."""
        return len(node.children) < 1 + WIDENING * math.sqrt(node.visits)

    def _widen(self, node: Node, untried: list[Action]) -> bool:
        """Queue a new distinct draw on a sampling node (into `untried`, its `node.untried`)
        if its width allows; False if not."""
        if not self._has_room(node):
            return False
        for _ in range(DRAW_ATTEMPTS):
            action = node.state.random_action(self.rng)
            if action not in node.tried:
                node.tried.add(action)
                untried.append(action)
                return True
        return False

    def _iterate(self) -> None:
        node = self.root
        path = [node]
        trace: Trace | None = [] if self.selection.uses_amaf else None
        while True:
            if node.solved:
                black = _black_value(node.winner)
                break
            untried = node.untried if node.untried is not None else self._look(node)
            child = None
            if untried and self.narrow and node.children and node is not self.root:
                if self._has_room(node) or all(lost(c) for c in node.children):
                    child = self._expand(node, untried)
            elif untried or (not node.listed and self._widen(node, untried)):
                child = self._expand(node, untried)
            if child is not None:
                path.append(child)
                if child.solved:
                    black = _black_value(child.winner)
                    self._propagate(path)
                else:
                    black = self.evaluator(child.state, self.rng, trace)
                break
            node = self._select(node)
            path.append(node)
        if len(path) > self.depth + 1:
            self.depth = len(path) - 1
        # Black's score in the colours of each node's state, kept for AMAF only
        values = [0.0] * len(path) if trace is not None else None
        for i in range(len(path) - 1, -1, -1):
            n = path[i]
            if values is not None:
                values[i] = black
            n.visits += 1
            n.wins += black if n.holder is Colour.BLACK else 1.0 - black
            if type(n.action) is Swap:        # the parent's colours are the other way round
                black = 1.0 - black
        if trace is not None and values is not None:
            self._update_amaf(path, trace, values)

    def _update_amaf(self, path: list[Node], trace: Trace, values: list[float]) -> None:
        """Credit, below each node of the path, the children whose action its mover played later
        (`values`: Black's score in the colours of each path node's state)."""
        played: dict[Colour, set[Action | None]] = {Colour.BLACK: set(), Colour.WHITE: set()}
        for mover, action in trace:
            played[mover].add(action)
        for i in range(len(path) - 1, -1, -1):
            node = path[i]
            if i + 1 < len(path):
                played[node.state.to_move].add(path[i + 1].action)
            later = played[node.state.to_move]
            # each child is credited at most once, so either walk gives the same statistics
            if len(later) < len(node.children):
                children = [c for c in map(node.by_action.get, later) if c is not None]
            else:
                children = [c for c in node.children if c.action in later]
            for child in children:
                black = 1.0 - values[i] if type(child.action) is Swap else values[i]
                child.amaf_visits += 1
                child.amaf_wins += black if child.holder is Colour.BLACK else 1.0 - black

    def _select(self, node: Node) -> Node:
        """The child with the best score, unvisited ones first, in order; a solved
        child counts at its exact value, a proven loss below everything else."""
        rule = self.selection
        best, best_score = node.children[0], -math.inf
        if type(rule) is UCT:       # UCT.__call__ inlined, the same arithmetic: the hot loop of every search
            c, log_n, sqrt = rule.exploration, math.log(max(node.visits, 1)), math.sqrt
            for child in node.children:
                visits = child.visits
                if child.solved:
                    score = child.value() or -1.0
                elif visits == 0:
                    return child
                else:
                    score = child.wins / visits + c * sqrt(log_n / visits)
                if score > best_score:
                    best, best_score = child, score
            return best
        if type(rule) is Rave:      # Rave.__call__ inlined, the same arithmetic
            c, k, log_n, sqrt = rule.exploration, rule.equivalence, math.log(max(node.visits, 1)), math.sqrt
            for child in node.children:
                visits = child.visits
                if child.solved:
                    score = child.value() or -1.0
                elif visits == 0:
                    return child
                else:
                    mean = child.wins / visits
                    if child.amaf_visits:
                        beta = k / (k + 3.0 * visits)
                        mean = (1.0 - beta) * mean + beta * child.amaf_wins / child.amaf_visits
                    score = mean + c * sqrt(log_n / visits)
                if score > best_score:
                    best, best_score = child, score
            return best
        for child in node.children:
            if child.solved:
                score = child.value() or -1.0
            elif child.visits == 0:
                return child
            else:
                score = rule(node, child)
            if score > best_score:
                best, best_score = child, score
        return best

    def _propagate(self, path: list[Node]) -> None:
        """Solve the ancestors of a newly solved node while the proof carries upward."""
        for i in range(len(path) - 2, -1, -1):
            node = path[i]
            child = path[i + 1]
            if child.value() == 1.0:
                node.solved, node.winner = True, child.winner_above()
                continue
            if not node.listed or node.untried or not all(c.solved for c in node.children):
                return
            best = max(node.children, key=Node.value)
            node.solved, node.winner = True, best.winner_above()

    def best_action(self, checks_until: float | None = None) -> Action:
        """A proven win, else the most visited child that is not a proven loss (pie by value),
        checked against an immediate refutation (see :meth:`_checked_child`) while the
        clock is before `checks_until` (None: always)."""
        action = self._checked_child(checks_until).action
        assert action is not None                   # only a root has none, and this is a child
        return action

    def _checked_child(self, checks_until: float | None) -> Node:
        """The best child after making sure it does not hand the opponent a win at once: up to
        ``REFUTATION_CHECKS`` candidates, best first, get every reply expanded; a candidate
        refuted that way is a proven loss (the solver's), and the next best is checked."""
        for _ in range(REFUTATION_CHECKS):
            child = best_child(self.root)
            if child.solved or (checks_until is not None and time.perf_counter() > checks_until):
                return child
            self._refute(child)
            if not lost(child):
                return child
        return best_child(self.root)

    def _refute(self, child: Node) -> None:
        """Expand every reply of a root child whose replies are listed (not sampled); a
        reply that ends the game proves the child (``_propagate``)."""
        untried = child.untried if child.untried is not None else self._look(child)
        if not child.listed:
            return
        while untried and not child.solved:
            reply = self._expand(child, untried)
            if reply is None:
                break
            if reply.solved:
                self._propagate([self.root, child, reply])

def _black_value(winner: Colour | None) -> float:
    if winner is None:
        return 0.5
    return 1.0 if winner is Colour.BLACK else 0.0


__all__ = ["MctsBot", "SearchResult", "DEFAULT_SECONDS", "ENUMERATION_CAP"]
