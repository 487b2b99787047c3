"""Per-game knowledge for the generic players, collected from the games' own modules.

Each game of engine/registry.py has a module ``players/games/<module>.py`` (its
package name there) that declares ``KNOWLEDGE``, a `GameKnowledge`
(players/games/knowledge.py): its evaluation for the `heuristic` player and
MCTS's evaluator, selection rule, candidates and widening. A game without
one is an error (`MissingKnowledge`), never a silent default. A game that
``HEXARENA_GAMES`` adds declares its ``KNOWLEDGE`` in the module that holds its
GameInfo, or none: then it has no evaluation (the `heuristic` player does not
list it, :func:`evaluates`), and MCTS searches it with its defaults (random
playouts, UCT, the legal actions, wide nodes: :data:`SEARCH_DEFAULTS`). Modules
are imported on first use, as the registry's games are.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable

from hexarena.engine import registry
from hexarena.engine.game import GameState

from ..evaluators import Evaluator
from ..selection import Selection
from .knowledge import Candidates, GameKnowledge


class MissingKnowledge(LookupError):
    """A game id with no player knowledge: not a registered game, or its module declares none."""


_knowledge: dict[str, GameKnowledge] = {}
_evaluators: dict[tuple[str, int], Evaluator] = {}


def knowledge_for(game_id: str) -> GameKnowledge:
    """The `KNOWLEDGE` declared by the game's module; MissingKnowledge when there is none."""
    module_name = registry.GAME_MODULES.get(game_id)
    if module_name is None:
        added = registry.added().get(game_id)
        if added is None:
            raise MissingKnowledge(registry.unknown(game_id))
        return _added_knowledge(game_id, added[0])
    if game_id not in _knowledge:
        try:
            module = importlib.import_module(f"{__name__}.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module_name}":
                raise
            raise MissingKnowledge(f"game {game_id!r} has no players/games/{module_name}.py") from None
        knowledge = getattr(module, "KNOWLEDGE", None)
        if not isinstance(knowledge, GameKnowledge):
            raise MissingKnowledge(f"players/games/{module_name}.py declares no KNOWLEDGE = GameKnowledge(...) "
                                   f"for game {game_id!r}")
        _knowledge[game_id] = knowledge
    return _knowledge[game_id]


def _added_knowledge(game_id: str, module_name: str) -> GameKnowledge:
    """The `KNOWLEDGE` beside the GameInfo of a game HEXARENA_GAMES adds, in the same module."""
    knowledge = getattr(importlib.import_module(module_name), "KNOWLEDGE", None)
    if not isinstance(knowledge, GameKnowledge):
        raise MissingKnowledge(f"{module_name} declares no KNOWLEDGE = GameKnowledge(...) for game {game_id!r}")
    return knowledge


def _no_evaluation(state: GameState) -> float:
    raise MissingKnowledge(f"game {state.info.id!r} declares no evaluation (KNOWLEDGE)")


#: MCTS's settings for a game HEXARENA_GAMES adds without `KNOWLEDGE`: random playouts, UCT,
#: the legal actions, wide nodes (GameKnowledge's defaults); no evaluation.
SEARCH_DEFAULTS = GameKnowledge(evaluate=_no_evaluation, scale=1.0)


def evaluates(game_id: str) -> bool:
    """Whether the game declares its evaluation (`KNOWLEDGE`), which the `heuristic` player needs:
    every built-in game does (tests/players/test_knowledge.py), unimported here; a game
    HEXARENA_GAMES adds when its module declares it."""
    if game_id in registry.GAME_MODULES:
        return True
    try:
        knowledge_for(game_id)
    except MissingKnowledge:
        return False
    return True


def _search_knowledge(game_id: str) -> GameKnowledge:
    """What MCTS knows of a game: its `KNOWLEDGE`, or :data:`SEARCH_DEFAULTS` for a game
    HEXARENA_GAMES adds without one; MissingKnowledge for a built-in game without it."""
    if game_id in registry.added() and not evaluates(game_id):
        return SEARCH_DEFAULTS
    return knowledge_for(game_id)


def evaluation_for(game_id: str) -> tuple[Callable[[GameState], float], float]:
    """(evaluate, scale) of a game."""
    knowledge = knowledge_for(game_id)
    return knowledge.evaluate, knowledge.scale


def evaluator_for(state: GameState) -> Evaluator:
    """MCTS's evaluator for the game and board size of `state` (one per game and size)."""
    key = (state.info.id, state.variant.size)
    if key not in _evaluators:
        _evaluators[key] = _search_knowledge(key[0]).evaluator(key[1])
    return _evaluators[key]


def candidates_for(state: GameState) -> Candidates | None:
    """The game's candidate lister for MCTS (a superset of the legal actions), or None."""
    return _search_knowledge(state.info.id).candidates


def narrow_for(state: GameState) -> bool:
    """Whether MCTS widens listed inner nodes progressively in the game of `state`."""
    return _search_knowledge(state.info.id).narrow


def selection_for(state: GameState) -> Selection:
    """MCTS's selection rule for the game of `state`."""
    return _search_knowledge(state.info.id).selection


__all__ = ["SEARCH_DEFAULTS", "Candidates", "GameKnowledge", "MissingKnowledge", "candidates_for", "evaluates",
           "evaluation_for", "evaluator_for", "knowledge_for", "narrow_for", "selection_for"]
