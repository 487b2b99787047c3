"""How MCTS values a leaf: the evaluator interface and the generic evaluators.

An evaluator maps a state that is not over to Black's expected score in
[0, 1] (1: Black wins, 0: White wins, 1/2: a draw or an even position), from
the state, the injected rng and nothing else (an evaluator bound to a searcher
also from the colour that player holds: see `bias`). Black is the player holding
Black in that state: a playout that plays ``swap`` values its end the other
way round. Playout evaluators may append each simulated ``(mover, action)``
to ``trace`` (RAVE/AMAF reads it).

* :class:`RandomPlayout` (the default): ``random_action`` until the rules end
  the game or the game's ply cap, where ``adjudicate()`` decides.
* :class:`CutoffPlayout`: at most ``depth`` plies of a playout policy, then a
  static evaluation squashed to [0, 1]; for games whose random games run
  long (Vaxandis reaches its ply cap). It may add a searcher-relative term
  (``bias``): MCTS binds the colour its player holds at the root with
  :func:`for_searcher` before it searches.
* :class:`PolicyPlayout`: to the end with an informed playout policy, for
  games where uniform random play misjudges positions (Spelde).
* :class:`StaticEvaluation`: the evaluation alone (a cut-off at depth 0).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol, cast

from hexarena.engine.actions import Action, Swap
from hexarena.engine.core import Colour, Outcome
from hexarena.engine.game import GameState

Trace = list[tuple[Colour, Action]]
#: A playout policy: an action of a state that is not over.
Policy = Callable[[GameState, random.Random], Action]
#: A static evaluation: Black's advantage in a state (any real; 0 even; positive good for Black).
Evaluation = Callable[[GameState], float]
#: A searcher-relative term: added to Black's advantage in a state where the searching
#: player holds the given colour (a preference of that player, not a property of the state).
Bias = Callable[[GameState, Colour], float]


class Evaluator(Protocol):
    def __call__(self, state: GameState, rng: random.Random, trace: Trace | None = None) -> float:
        """Black's expected score in [0, 1] of `state` (not over)."""


def outcome_value(outcome: Outcome) -> float:
    """1 when Black wins, 0 when White wins, 1/2 for a draw."""
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner is Colour.BLACK else 0.0


def squash(score: float, scale: float) -> float:
    """A Black advantage as an expected score: the logistic of score/scale."""
    x = max(-60.0, min(60.0, score / scale))
    return 1.0 / (1.0 + math.exp(-x))


def random_policy(state: GameState, rng: random.Random) -> Action:
    return state.random_action(rng)


def _seen_from_start(value: float, swapped: bool) -> float:
    """A value in the colours of a playout's end, in those of its start."""
    return 1.0 - value if swapped else value


def _end(state: GameState, cap: int) -> Outcome | None:
    outcome = state.outcome()
    if outcome is None and state.ply >= cap:
        outcome = state.adjudicate()
    return outcome


@dataclass(frozen=True)
class PolicyPlayout:
    """Play `policy` to the end of the game (or its ply cap); the result's value."""

    policy: Policy = random_policy

    def __call__(self, state: GameState, rng: random.Random, trace: Trace | None = None) -> float:
        cap = state.info.ply_cap(state.variant.size)
        policy = self.policy
        swapped = False
        while True:
            outcome = _end(state, cap)
            if outcome is not None:
                return _seen_from_start(outcome_value(outcome), swapped)
            action = policy(state, rng)
            if trace is not None:
                trace.append((state.to_move, action))
            swapped ^= type(action) is Swap
            state = state.play(action)


class RandomPlayout(PolicyPlayout):
    """Uniform random playouts (the game's own ``random_action``): MCTS's default evaluator.
    The playout is ``GameState.playout``, or ``GameState.traced_playout`` with a trace (one
    call to the compiled core where it answers; the same draws from `rng` as the loop on the
    Python rules)."""

    def __init__(self) -> None:
        super().__init__(random_policy)

    def __call__(self, state: GameState, rng: random.Random, trace: Trace | None = None) -> float:
        cap = state.info.ply_cap(state.variant.size)
        if trace is not None:
            end, swaps, steps = state.traced_playout(rng, cap)
            trace.extend(steps)
        else:
            end, swaps = state.playout(rng, cap)
        outcome = _end(end, cap)
        assert outcome is not None                  # a playout stops at the end or the cap
        return _seen_from_start(outcome_value(outcome), swaps % 2 == 1)


@dataclass(frozen=True)
class CutoffPlayout:
    """At most `depth` plies of `policy`, then `evaluation` squashed by `scale`.

    A game that ends within the depth is scored by its result. With a `bias`, the
    cut-off's score is ``evaluation(state) + bias(state, c)``, c the colour the searching
    player holds there (`searcher` at the root, the other one after a ``swap`` in the
    playout); `searcher` None (not bound by :func:`for_searcher`): no bias.
    """

    evaluation: Evaluation
    depth: int = 20
    scale: float = 1.0
    policy: Policy = random_policy
    bias: Bias | None = None
    searcher: Colour | None = None

    def for_searcher(self, colour: Colour) -> CutoffPlayout:
        """This evaluator for the player holding `colour` at the root (itself without a bias)."""
        return self if self.bias is None else replace(self, searcher=colour)

    def __call__(self, state: GameState, rng: random.Random, trace: Trace | None = None) -> float:
        cap = state.info.ply_cap(state.variant.size)
        swapped = False
        if trace is None and self.policy is random_policy and self.depth > 0:
            # the random plies in one GameState.playout (the compiled core where it answers)
            state, swaps = state.playout(rng, min(cap, state.ply + self.depth))
            swapped = swaps % 2 == 1
        else:
            for _ in range(self.depth):
                outcome = _end(state, cap)
                if outcome is not None:
                    return _seen_from_start(outcome_value(outcome), swapped)
                action = self.policy(state, rng)
                if trace is not None:
                    trace.append((state.to_move, action))
                swapped ^= type(action) is Swap
                state = state.play(action)
        outcome = _end(state, cap)
        if outcome is not None:
            value = outcome_value(outcome)
        else:
            score = self.evaluation(state)
            if self.bias is not None and self.searcher is not None:
                score += self.bias(state, self.searcher.other if swapped else self.searcher)
            value = squash(score, self.scale)
        return _seen_from_start(value, swapped)


def for_searcher(evaluator: Evaluator, colour: Colour) -> Evaluator:
    """`evaluator` for the player holding `colour` at the root of a search: evaluators with a
    searcher-relative term (``for_searcher``, as CutoffPlayout's `bias`) bind it; the others
    are returned as they are."""
    bind = getattr(evaluator, "for_searcher", None)
    return evaluator if bind is None else cast(Evaluator, bind(colour))


def StaticEvaluation(evaluation: Evaluation, scale: float = 1.0) -> CutoffPlayout:
    """The evaluation of the leaf itself, no playout."""
    return CutoffPlayout(evaluation, 0, scale)


__all__ = ["Evaluator", "Evaluation", "Bias", "Policy", "Trace", "PolicyPlayout", "RandomPlayout",
           "CutoffPlayout", "StaticEvaluation", "outcome_value", "squash", "random_policy", "for_searcher"]
