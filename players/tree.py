"""The MCTS search tree: nodes with their statistics, and reuse between moves.

A node holds a state, the action that led to it and `holder`, the colour its
mover holds after that action (after ``Swap`` the mover holds the other
colour; a colour that moves twice in a row needs no special case, since the
side to move of each node is read from its state). ``wins/visits`` is the
holder's mean score; ``amaf_*`` are the all-moves-as-first statistics of the
node's action (RAVE). A solved node knows the winner with best play.

Colours are those of the node's own state. A result is credited to the player
who earned it, not to a colour: Black's win below a ``Swap`` is a win for the
player who held White above it, so values and winners are exchanged on the
way up across every ``Swap`` (:meth:`Node.winner_above`; players/mcts.py
backs values up the same way, and evaluators value a playout in the colours of
the state it starts from).

Reuse: :meth:`Tree.advance` finds, among the descendants of the last search's
root (at most ``REUSE_DEPTH`` actions deep), the node whose state equals the
state now to be searched, so the subtree of the actions played since is kept
with its statistics; anything else is dropped.
"""
from __future__ import annotations

from hexarena.engine.actions import Action, Swap
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState

#: How many actions after the last search's root a reusable node may lie.
REUSE_DEPTH = 4


class Node:
    """A state in the tree (see the module docstring)."""

    __slots__ = ("state", "action", "holder", "visits", "wins", "amaf_visits", "amaf_wins",
                 "children", "by_action", "untried", "listed", "tried", "solved", "winner")

    def __init__(self, state: GameState, action: Action | None, holder: Colour | None):
        self.state = state
        self.action = action
        self.holder = holder
        self.visits = 0
        self.wins = 0.0
        self.amaf_visits = 0
        self.amaf_wins = 0.0
        self.children: list[Node] = []
        self.by_action: dict[Action | None, Node] = {}   # the children by their action
        self.untried: list[Action] | None = None   # None: actions not looked at yet
        self.listed = False                         # every legal action is a child or untried
        self.tried: set[Action] = set()             # actions of a sampling node's children
        self.solved = False
        self.winner: Colour | None = None           # when solved: the winner with best play

    def mean(self) -> float:
        """The holder's mean score so far (1/2 before any visit)."""
        return self.wins / self.visits if self.visits else 0.5

    def value(self) -> float:
        """A solved node's worth to its holder: 1 win, 1/2 draw, 0 loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is self.holder else 0.0

    def winner_above(self) -> Colour | None:
        """A solved node's winner in the colours of its parent's state (a swap exchanges them)."""
        if self.winner is not None and type(self.action) is Swap:
            return self.winner.other
        return self.winner


class Tree:
    """The root of the last search; hand it back to the next search of the same game."""

    __slots__ = ("root",)

    def __init__(self, root: Node):
        self.root = root

    def advance(self, state: GameState) -> Node | None:
        """The descendant of the root (the root included) whose state equals `state`, or None."""
        frontier = [self.root]
        for _ in range(REUSE_DEPTH + 1):
            nxt = []
            for node in frontier:
                if node.state.ply == state.ply and node.state == state:
                    return node
                nxt.extend(node.children)
            frontier = nxt
        return None


__all__ = ["Node", "Tree", "REUSE_DEPTH"]
