"""Per-game knowledge for the generic players: evaluations and MCTS evaluators.

Each module ``players/games/<game>.py`` defines ``evaluate(state) -> float``,
Black's advantage in a state that is not over (0: even; its unit is about one
stone or site), and ``SCALE``, the advantage that is worth an expected score
of ``1/(1+e^-1)``. The `heuristic` player maximises it one ply deep; MCTS uses
the evaluator chosen here for each game (random playouts unless said).
"""
from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from hexarena.engine.game import GameState

from ..evaluators import CutoffPlayout, Evaluator, PolicyPlayout, RandomPlayout
from . import anda, anda_prison, marbanta, spelde, vaxandis

#: The evaluation module of each game id.
MODULES: dict[str, ModuleType] = {
    "anda": anda,
    "anda-prison": anda_prison,
    "spelde": spelde,
    "vaxandis": vaxandis,
    "marbanta": marbanta,
}

#: MCTS's evaluator per game, where random playouts are not the best choice.
EVALUATORS: dict[str, Callable[[], Evaluator]] = {
    # random games reach the ply cap: a short playout, then the evaluation
    "vaxandis": lambda: CutoffPlayout(vaxandis.evaluate, depth=8, scale=vaxandis.SCALE),
    # uniform random placements misjudge Spelde: playouts by the mobility policy
    "spelde": lambda: PolicyPlayout(spelde.policy),
}

_cache: dict[str, Evaluator] = {}


def evaluation_for(game_id: str) -> tuple[Callable[[GameState], float], float]:
    """(evaluate, scale) of a game; KeyError for a game without one."""
    module = MODULES[game_id]
    return module.evaluate, module.SCALE


def evaluator_for(state: GameState) -> Evaluator:
    """MCTS's evaluator for the game of `state` (random playouts by default)."""
    game = state.info.id
    if game not in _cache:
        make = EVALUATORS.get(game)
        _cache[game] = make() if make else RandomPlayout()
    return _cache[game]


__all__ = ["MODULES", "EVALUATORS", "evaluation_for", "evaluator_for"]
