"""What a built-in bot thinks of its move, as the info line of `genmove_analyze` (docs/protocol.md, "Analysis").

* :func:`search_info` (MCTS): the chosen root child's value for the mover
  (exact when solved, else its mean) as `winrate`, the search's iterations as
  `visits`, the most plies below the root an iteration reached as `depth`, and
  the principal variation: the action played, then the most visited child
  (ties: the most wins) at each step while it has visits, at most
  :data:`PV_PLIES` actions and within the line's byte bound (a search in the
  core, players/compiled_search.py, tells the same from its tree).
* :func:`evaluation_info` (heuristic, greedy): the state after the action
  valued for its mover, `winrate` 1, 0 or 1/2 when the action ends the game,
  else the logistic of the game's evaluation over its scale
  (players/games/knowledge.py: an advantage of one scale is worth 1/(1+e^-1));
  `depth` 1 and `pv` the action. None for a game without an evaluation.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from hexarena.engine.actions import Action, holder_after
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.protocol.analysis import MAX_LINE_BYTES, Info

from .games import MissingKnowledge, evaluation_for

if TYPE_CHECKING:       # the searches' types: a player that evaluates needs no search
    from .compiled_search import CompiledTree
    from .mcts import SearchResult
    from .tree import Node

#: The longest principal variation told.
PV_PLIES = 12


def search_info(result: SearchResult) -> Info:
    """The info line of a finished MCTS search (see the module docstring)."""
    from .compiled_search import CompiledTree
    if isinstance(result.tree, CompiledTree):
        return _compiled_info(result, result.tree)
    root = result.tree.root
    child = next((c for c in root.children if c.action == result.action), None)
    if child is None:
        return Info(visits=result.iterations, depth=result.depth)
    winrate = child.value() if child.solved else child.mean()
    pv = [root.state.format(result.action)]
    node = child
    while len(pv) < PV_PLIES:
        visited = [c for c in node.children if c.visits]
        if not visited:
            break
        best: Node = max(visited, key=lambda c: (c.visits, c.wins))
        assert best.action is not None
        pv.append(node.state.format(best.action))
        node = best
    return _bounded(Info(winrate=round(winrate, 4), visits=result.iterations, depth=result.depth, pv=tuple(pv)))


def _compiled_info(result: SearchResult, tree: CompiledTree) -> Info:
    """`search_info` of a search in the core (players/compiled_search.py): the same figures,
    read from the core's tree."""
    chosen = tree.search.chosen(PV_PLIES)
    if chosen is None:
        return Info(visits=result.iterations, depth=result.depth)
    winrate, pv = chosen
    return _bounded(Info(winrate=round(winrate, 4), visits=result.iterations, depth=result.depth, pv=tuple(pv)))


def _bounded(info: Info) -> Info:
    """`info` with its principal variation cut to the line's byte bound."""
    while len(info.line().encode()) > MAX_LINE_BYTES and len(info.pv) > 1:
        info = Info(winrate=info.winrate, visits=info.visits, depth=info.depth, pv=info.pv[:-1])
    return info


def evaluation_info(state: GameState, action: Action) -> Info | None:
    """The info line of a one-ply bot's `action` in `state` (see the module docstring)."""
    try:
        evaluate, scale = evaluation_for(state.info.id)
    except MissingKnowledge:
        return None
    child = state.play(action)
    holder = holder_after(state.to_move, action)
    outcome = child.outcome()
    if outcome is not None:
        winrate = 0.5 if outcome.winner is None else float(outcome.winner is holder)
    else:
        score = evaluate(child)
        advantage = (score if holder is Colour.BLACK else -score) / scale
        winrate = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, advantage))))
    info = Info(winrate=round(winrate, 4), depth=1, pv=(state.format(action),))
    return info if len(info.line().encode()) <= MAX_LINE_BYTES else Info(winrate=info.winrate, depth=1)


__all__ = ["search_info", "evaluation_info", "PV_PLIES"]
