"""Vaxandis: mobility, heights and frozen stacks (docs/rules/vaxandis.md).

A stack is frozen next to a higher enemy stack; the player with no action
loses. Black's advantage = stacks + unfrozen stacks (each a source of
moves) + enemy stacks frozen (half weight) + a tenth of the height
difference of the tallest stacks (tall stacks freeze and block), each
Black's minus White's. Counting the stacks themselves (placements while
there is room) raised the score against greedy from 12.5 to 19 of 20 games
at n=4 and from 6.5 to 7 of 10 at n=5; exact mobility of the side to move
made it worse (10 and 5).
Heights come from the state's public height table ``levels``.

MCTS values its leaves by `evaluate_search`: `evaluate` plus the race of the
tallest stacks, the share of the actions and the closeness to a win, and adds
`trailing`, the searching player's cost of trailing in height (docs/players.md
has the measurements); the `heuristic` player keeps `evaluate`.
"""
from __future__ import annotations

from typing import cast

from hexarena.engine.core import Colour
from hexarena.engine.games.vaxandis.state import VaxandisState

from ..evaluators import Bias, CutoffPlayout, Evaluation
from .knowledge import GameKnowledge

SCALE = 3.0
#: MCTS's evaluation (`evaluate_search`): the weight of the tallest stacks' height
#: difference, counted up to TALL_CAP levels either way ...
TALL = 0.5
TALL_CAP = 10
#: ... the weight of the share of the actions, (B - W) / (B + W + 1) for B, W each
#: side's actions ...
MOBILITY = 5.0
#: ... the weight of the closeness to a win (each side's actions) ...
KILL = 10.0
#: ... and its squash scale (docs/players.md: cut-off playouts).
SEARCH_SCALE = 3.0
#: MCTS's searcher-relative term (`trailing`): each of the opponent's RANKS tallest stacks
#: that stands taller than the searcher's stack of the same rank costs the searcher
#: TRAILING per level of the gap (at most TALL_CAP levels a rank); a lead earns nothing.
RANKS = 3
TRAILING = 0.5


def evaluate(state: VaxandisState) -> float:
    score, _ = _evaluate(state)
    return score


def _evaluate(state: VaxandisState) -> tuple[float, int]:
    """(`evaluate`, Black's tallest stack's height minus White's): one pass for both evaluations,
    from the state's ``summary`` (frozen: next to a higher enemy stack)."""
    b, w = state.black.bit_count(), state.white.bit_count()
    frozen_b, frozen_w, tall_b, tall_w, _, _ = state.summary(RANKS)
    unfrozen = (b - frozen_b) - (w - frozen_w)
    frozen = frozen_w - frozen_b
    top_b = tall_b[0] if tall_b else 0
    top_w = tall_w[0] if tall_w else 0
    return (b - w) + unfrozen + 0.5 * frozen + 0.1 * (top_b - top_w), top_b - top_w


def trailing(state: VaxandisState, searcher: Colour) -> float:
    """MCTS's searcher-relative term, as a change of Black's advantage: minus (for the
    searcher holding Black; plus for White) TRAILING per level by which each of the
    opponent's RANKS tallest stacks outgrows the searcher's of the same rank (a missing
    stack counts as height 0), at most TALL_CAP levels a rank.

    Why: a stack freezes only next to a taller enemy one, so stacks that outgrow all of
    ours can move (and grow) until the ply cap; random play grows a few stacks fast, and
    MCTS drew such games at the cap with far more stacks and actions (docs/players.md,
    Vaxandis n=5). A symmetric race pays for height also where the searcher leads, and
    the height costs placements, which lost the wins against `heuristic`; the one-sided
    term pulls only where the searcher trails.
    """
    _, _, tall_b, tall_w, _, _ = state.summary(RANKS)
    ours, its = (tall_b, tall_w) if searcher is Colour.BLACK else (tall_w, tall_b)
    gap = sum(min(TALL_CAP, max(0, (its[i] if i < len(its) else 0) - (ours[i] if i < len(ours) else 0)))
              for i in range(RANKS))
    return -TRAILING * gap if searcher is Colour.BLACK else TRAILING * gap


def actions_of(state: VaxandisState, colour: Colour) -> int:
    """How many actions `colour` would have in `state` (placements + moves), whoever is to move."""
    return state.actions(colour)


def evaluate_search(state: VaxandisState, kill: float = KILL, tall: float = TALL,
                    mobility: float = MOBILITY) -> float:
    """MCTS's evaluation: `evaluate` plus ``tall`` per level of height lead of Black's tallest
    stack over White's (at most TALL_CAP levels either way) plus the share of the actions,
    ``mobility * (B - W) / (B + W + 1)``, plus the closeness to a win,
    ``kill * (1/(1+W) - 1/(1+B))``, where B, W are the actions each side would have (the
    side to move with none loses).

    Why the race: a stack is frozen only next to a taller enemy one, so the side whose
    tallest stack is behind can never freeze the other's tallest, which keeps moving
    (and growing) until the ply cap: far ahead on `evaluate`, MCTS drew such games.
    Why the share: `evaluate` counts stacks, frozen or not, and the closeness to a win
    moves only once a side is down to a few actions; with the share the search keeps
    its own actions and takes the opponent's all game long, and finishes games that it
    drew at the ply cap (docs/players.md, Vaxandis n=5).
    """
    score, lead = _evaluate(state)
    score += tall * max(-TALL_CAP, min(TALL_CAP, lead))
    if kill or mobility:
        _, _, _, _, b, w = state.summary(RANKS)
        score += kill * (1.0 / (1 + w) - 1.0 / (1 + b)) + mobility * (b - w) / (b + w + 1)
    return score


#: Vaxandis's random games reach the ply cap: MCTS plays 20 random plies, then values the
#: leaf by `evaluate_search` and the searcher's cost of `trailing` in height
#: (docs/players.md, "n=5"); UCT selects.
KNOWLEDGE = GameKnowledge(cast(Evaluation, evaluate), SCALE,
                          evaluator=lambda size: CutoffPlayout(cast(Evaluation, evaluate_search), depth=20,
                                                               scale=SEARCH_SCALE, bias=cast(Bias, trailing)))
