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
from typing import TYPE_CHECKING, Any

from hexarena.engine import compiled
from hexarena.engine.game import GameState

from .base import Budget
from .selection import UCT, Rave

if TYPE_CHECKING:
    from .mcts import MctsBot, SearchResult


@dataclass(frozen=True)
class CompiledTree:
    """The core's search of the last move (``hexarena_core.Search``) and its root state."""

    search: Any
    state: GameState

    def children(self) -> list[tuple[str, int, float, float | None]]:
        """Each root child as (action in notation, visits, mean, exact value when solved)."""
        found: list[tuple[str, int, float, float | None]] = self.search.children()
        return found


def usable(bot: MctsBot, state: GameState) -> bool:
    """Whether `bot` searches `state` in the core (see the module docstring)."""
    if bot.evaluator is not None or bot.selection is not None or bot.narrow is not None:
        return False
    core = compiled.active()
    return core is not None and state.info.id in getattr(core, "SEARCH_GAMES", ())


def search(bot: MctsBot, state: GameState, rng: random.Random, budget: Budget, tree: object) -> SearchResult:
    """:meth:`MctsBot.search` in the core (`tree`: the last result's tree, kept where it leads
    to `state`)."""
    from .games import narrow_for, selection_for
    from .mcts import SearchResult
    core = compiled.installed()
    assert core is not None
    selection = selection_for(state)
    rave = selection.equivalence if isinstance(selection, Rave) else None
    assert isinstance(selection, (UCT, Rave))
    found = core.search_open(state.info.id, state, selection.exploration, rave, narrow_for(state),
                             rng.getrandbits(64))
    if isinstance(tree, CompiledTree):
        found.reuse(tree.search)
    done = found.run(bot.iterations, bot.move_seconds(budget))
    token = found.choose()
    if token is None:
        raise ValueError("the game is over")
    return SearchResult(state.parse(token), CompiledTree(found, state), done, found.depth)


__all__ = ["CompiledTree", "usable", "search"]
