"""Per-game knowledge for the generic players: evaluations and MCTS evaluators.

Each module ``players/games/<game>.py`` defines ``evaluate(state) -> float``,
Black's advantage in a state that is not over (0: even; its unit is about one
stone or site), and ``SCALE``, the advantage that is worth an expected score
of ``1/(1+e^-1)``. The `heuristic` player maximises it one ply deep; MCTS uses
the evaluator and the selection rule chosen here for each game (random
playouts and UCT unless said).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import cast

from hexarena.engine.actions import Action
from hexarena.engine.game import GameState

from ..evaluators import Bias, CutoffPlayout, Evaluation, Evaluator, RandomPlayout, StaticEvaluation
from ..selection import UCT, Rave, Selection
from . import anda, anda_prison, marbanta, spelde, vaxandis

#: The evaluation module of each game id.
MODULES: dict[str, ModuleType] = {
    "anda": anda,
    "anda-prison": anda_prison,
    "spelde": spelde,
    "vaxandis": vaxandis,
    "marbanta": marbanta,
}
#: MCTS's evaluator per game, where random playouts are not the best choice, made for a
#: board size. Each game's `evaluate` takes that game's own state class (e.g. AndaState);
#: the evaluators take any GameState, so the `cast`s: the registry is keyed by game id
#: and evaluator_for only hands an evaluator states of its own game.
#: Why each one, and the tries that lost: docs/players.md (one section per game).
EVALUATORS: dict[str, Callable[[int], Evaluator]] = {
    # Anda's random playouts are long and noisy: random plies, then the evaluation. At n=9
    # and over, 40 plies (the closures that decide those games get played out; 10 scored
    # about 70% against greedy in-process, 40 won 24 of 24), 10 at n=7 (docs/players.md,
    # "n=9 against greedy"). Its doubling of the time is open ("The doubling").
    "anda": lambda n: CutoffPlayout(cast(Evaluation, anda.evaluate), depth=40 if n >= 9 else 10,
                                    scale=anda.SCALE),
    # Anda-prison: neither random playouts nor random plies before the evaluation pay.
    "anda-prison": lambda n: StaticEvaluation(cast(Evaluation, anda_prison.evaluate), anda_prison.SCALE),
    # Vaxandis's random games reach the ply cap: 20 random plies, then MCTS's own
    # evaluation (the race of the tallest stacks, the share of the actions and the
    # closeness to a win on top of `evaluate`) and the searcher's cost of trailing in
    # height (docs/players.md, "n=5").
    "vaxandis": lambda n: CutoffPlayout(cast(Evaluation, vaxandis.evaluate_search), depth=20,
                                        scale=vaxandis.SEARCH_SCALE, bias=cast(Bias, vaxandis.trailing)),
    # Spelde's playouts, random or informed, misjudge it: the evaluation alone.
    "spelde": lambda n: StaticEvaluation(cast(Evaluation, spelde.evaluate), spelde.SCALE),
}

#: MCTS's selection rule per game, where UCT is not the best choice.
SELECTIONS: dict[str, Selection] = {
    # Leaves valued by a squashed evaluation differ by little (one stone ~0.04 in Anda,
    # one exclusive site ~0.16 in Spelde): UCT's default exploration of 1 spreads the
    # visits evenly over the root's children, a lower one lets the best stand out.
    "anda": UCT(0.3),
    "anda-prison": UCT(0.3),
    "spelde": UCT(0.1),
    # RAVE paid where the leaves are random playouts.
    "marbanta": Rave(),
}

Candidates = Callable[[GameState, random.Random], "list[Action] | None"]

#: MCTS's candidates for a node: its legal actions (or a cheap superset of them, where
#: listing the legal ones costs much more than testing one: Anda-prison lists its legal
#: placements by resolving a placement on every empty site; players/mcts.py tests each
#: candidate on expansion) in the order to try them, most promising first.
#: A lister takes (state, rng) and returns the candidates in the order to try them, last
#: first (shuffled by the rng where the game has no preference), or None (list the legal ones).
CANDIDATES: dict[str, Candidates] = {
    "anda": cast(Candidates, anda.candidates),
    "anda-prison": cast(Candidates, anda_prison.candidates),
}

#: Games where MCTS grows a listed inner node by progressive widening in its candidates'
#: order (most promising first) instead of expanding every child before looking deeper:
#: there the search gains from its time (docs/players.md, Anda and Anda-prison).
NARROW: set[str] = {"anda", "anda-prison"}

_cache: dict[tuple[str, int], Evaluator] = {}


def evaluation_for(game_id: str) -> tuple[Callable[[GameState], float], float]:
    """(evaluate, scale) of a game; KeyError for a game without one."""
    module = MODULES[game_id]
    return module.evaluate, module.SCALE


def evaluator_for(state: GameState) -> Evaluator:
    """MCTS's evaluator for the game and board size of `state` (random playouts by default)."""
    key = (state.info.id, state.variant.size)
    if key not in _cache:
        make = EVALUATORS.get(key[0])
        _cache[key] = make(key[1]) if make else RandomPlayout()
    return _cache[key]


def candidates_for(state: GameState) -> Candidates | None:
    """The game's candidate lister for MCTS (a superset of the legal actions), or None."""
    return CANDIDATES.get(state.info.id)


def narrow_for(state: GameState) -> bool:
    """Whether MCTS widens listed inner nodes progressively in the game of `state`."""
    return state.info.id in NARROW


def selection_for(state: GameState) -> Selection:
    """MCTS's selection rule for the game of `state` (UCT by default)."""
    return SELECTIONS.get(state.info.id) or UCT()


__all__ = ["MODULES", "EVALUATORS", "SELECTIONS", "CANDIDATES", "candidates_for", "evaluation_for",
           "evaluator_for", "selection_for"]
