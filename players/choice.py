"""MCTS's choice at the root: which child to play, and when the choice is settled.

Pure functions of a root :class:`~hexarena.players.tree.Node` and its
children's statistics (players/mcts.py calls them; the refutation check,
which expands nodes, stays with the search).

* :func:`best_child`: a proven win; else, among the children that are not
  proven losses, the most visited (ties: the most wins), except at a pie
  decision: a root offering ``swap`` swaps when the swap child's value (exact
  if solved, else its mean) is at least that of the best other child.
* :func:`settled`: whether a time-bounded search may stop before its time
  is up, since `more` iterations could not change the most visited child.
"""
from __future__ import annotations

from hexarena.engine.actions import Swap

from .tree import Node


def best_child(root: Node) -> Node:
    """The child to play (see the module docstring); `root` has at least one child."""
    children = root.children
    for child in children:
        if child.solved and child.value() == 1.0:
            return child
    alive = [c for c in children if not lost(c)] or children
    swaps = [c for c in alive if isinstance(c.action, Swap)]
    others = [c for c in alive if not isinstance(c.action, Swap)]
    if swaps and others:
        best_other = max(others, key=lambda c: (c.visits, c.wins))
        if (swaps[0].visits or swaps[0].solved) and (best_other.visits or best_other.solved):
            return swaps[0] if _worth(swaps[0]) >= _worth(best_other) else best_other
    return max(alive, key=lambda c: (c.visits, c.wins))


def settled(root: Node, more: float) -> bool:
    """True when `more` iterations cannot change the most visited root child that is not a
    proven loss (it leads the next by more visits), or when one such child is left of a
    fully listed root; never at a root offering ``swap`` (chosen by value, not visits)."""
    first = second = 0
    alive = 0
    for child in root.children:
        if isinstance(child.action, Swap):
            return False
        if lost(child):
            continue
        alive += 1
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    if alive <= 1 and root.listed and not root.untried:
        return True
    return first - second > more


def lost(node: Node) -> bool:
    """A proven loss for the node's holder."""
    return node.solved and node.value() == 0.0


def _worth(node: Node) -> float:
    return node.value() if node.solved else node.mean()


__all__ = ["best_child", "lost", "settled"]
