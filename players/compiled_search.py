"""MCTS in the compiled core (core/src/search/): the whole iteration in Rust.

:class:`~hexarena.players.mcts.MctsBot` searches here when the core is active
(engine/compiled.py: installed, ``HEXARENA_CORE`` not ``0``), the game is one of
``hexarena_core.SEARCH_GAMES`` and the bot's evaluator, selection and ``narrow``
are the game's own (None): the core implements each game's evaluator
(players/games) with the same values, and the selection rule's parameters
(UCT's exploration, RAVE's equivalence) and ``narrow`` are read from
players/games. The search behaves as players/mcts.py's (the specification);
its random draws are the core's, seeded from `rng` (``mcts:N`` with a seed
gives the same move twice, not the Python search's move).

The result's tree is a :class:`CompiledTree`: handed back to the next search
(players/base.py), the core keeps the subtree of the actions played, as
players/tree.py's ``Tree.advance`` does.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hexarena.engine import compiled
from hexarena.engine.actions import Action
from hexarena.engine.game import GameState

from .selection import UCT, Rave


@dataclass(frozen=True)
class CompiledTree:
    """The core's search of the last move (``hexarena_core.Search``) and its root state."""

    search: Any
    state: GameState

    def children(self) -> list[tuple[str, int, float, float | None]]:
        """Each root child as (action in notation, visits, mean, exact value when solved)."""
        found: list[tuple[str, int, float, float | None]] = self.search.children()
        return found


def usable(state: GameState) -> bool:
    """Whether the core has a search of the game of `state` and is active (a bot with the
    game's own evaluator, selection and widening then searches there)."""
    core = compiled.active()
    return core is not None and state.info.id in getattr(core, "SEARCH_GAMES", ())


def search(state: GameState, rng: random.Random, iterations: int | None, seconds: float | None,
           tree: object) -> tuple[Action, CompiledTree, int, int]:
    """:meth:`MctsBot.search` in the core with `iterations` and/or `seconds` (`tree`: the last
    result's tree, kept where it leads to `state`): the action, the tree, the iterations
    and the depth reached."""
    from .games import narrow_for, selection_for
    core = compiled.installed()
    assert core is not None
    selection = selection_for(state)
    rave = selection.equivalence if isinstance(selection, Rave) else None
    assert isinstance(selection, (UCT, Rave))
    found = core.search_open(state.info.id, state, selection.exploration, rave, narrow_for(state),
                             rng.getrandbits(64))
    if isinstance(tree, CompiledTree):
        found.reuse(tree.search)
    done = found.run(iterations, seconds)
    token = found.choose()
    if token is None:
        raise ValueError("the game is over")
    return state.parse(token), CompiledTree(found, state), done, found.depth


__all__ = ["CompiledTree", "usable", "search"]
