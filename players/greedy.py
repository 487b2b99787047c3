"""The greedy player: one ply of look-ahead, generic over GameInfo.

For each candidate action it looks at the child state:

* the game is over and the player who acted holds the winning colour: play it
  at once (a draw ranks below every game that goes on, a loss below a draw);
* a proposal to end the game (Anda-prison) is judged by the ending it
  proposes: the best non-winning choice when the agreed score would win, the
  worst when it would not (counting the opponent's two answers would make
  every proposal look best);
* otherwise it counts the options of whoever moves next: the sites of
  ``legal_cells()``, or, in a turn that places no single stone, the number of
  legal actions (counted lazily, at most ``COUNT_CAP``).

It prefers the action that leaves the *opponent* the fewest options; in games
where the player with no move wins (``info.no_move_wins``, Marbanta) it
prefers the opponent having *more*. When the same player moves again (for
example Marbanta ``nopie``, or the Anda swap that hands over the colour to
move) the preference is reversed, since the options counted are its own.
Ties are broken at random by the injected rng.

Clock: when the serving loop gives ``Budget.move_seconds`` and looking at
every candidate would overrun it, the choice is made among the candidates
looked at so far (at least one), so greedy never loses on time; without a
clock, or with time enough, the choice is a pure function of state and rng.

Candidates: every legal action when there are at most ``ENUMERATION_CAP``;
otherwise (Spelde's flip sets can number millions, Anda's first pairs
thousands) a sample of ``random_action`` draws that keeps at most one
representative per placement site (the cell of a Place/Split, the root of a
Grow) and every distinct other action drawn. The sample never enumerates the
full action list.
"""
from __future__ import annotations

import random
import time
from itertools import islice

from hexarena.engine.actions import Accept, Action, Grow, Place, Propose, Split, holder_after
from hexarena.engine.game import GameState

from .base import Budget

#: Above this many legal actions, candidates are sampled instead of enumerated.
ENUMERATION_CAP = 1000
#: The most actions counted when measuring a turn that places no single stone.
COUNT_CAP = 100


def greedy_bot(state: GameState, rng: random.Random, budget: Budget = Budget()) -> Action:
    """One-ply greedy choice; ValueError when the game is over."""
    if state.outcome() is not None:
        raise ValueError("the game is over")
    want_few = not state.info.no_move_wins
    best: list[Action] = []
    best_value: float | None = None
    deadline = None if budget.move_seconds is None else time.perf_counter() + budget.move_seconds
    for action in candidates(state, rng):
        if deadline is not None and best and time.perf_counter() > deadline:
            break
        child = state.play(action)
        holder = holder_after(state.to_move, action)
        outcome = child.outcome()
        if outcome is not None:
            if outcome.winner is holder:
                return action
            value = float("inf") if outcome.winner is not None else float(COUNT_CAP)
        elif isinstance(action, Propose):
            agreed = child.play(Accept()).outcome()
            value = float("-inf") if agreed is not None and agreed.winner is holder else float("inf")
        else:
            options = _options(child)
            fewer_is_better = want_few if child.to_move is not holder else not want_few
            value = options if fewer_is_better else -options
        if best_value is None or value < best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return best[rng.randrange(len(best))]


def candidates(state: GameState, rng: random.Random) -> list[Action]:
    """Every legal action, or a sample with one representative per site when there are many."""
    actions = list(islice(state.legal_actions(), ENUMERATION_CAP + 1))
    if len(actions) <= ENUMERATION_CAP:
        return actions
    draws = max(64, 4 * state.legal_cells().bit_count())
    chosen: dict[object, Action] = {}
    for _ in range(draws):
        action = state.random_action(rng)
        chosen.setdefault(_site_key(action), action)
    return list(chosen.values())


def _site_key(action: Action) -> object:
    match action:
        case Place(cell) | Split(cell, _):
            return ("site", cell)
        case Grow(root, _):
            return ("site", root)
    return action


def _options(state: GameState) -> int:
    cells = state.legal_cells()
    if cells:
        return cells.bit_count()
    return sum(1 for _ in islice(state.legal_actions(), COUNT_CAP))


__all__ = ["greedy_bot", "candidates", "ENUMERATION_CAP", "COUNT_CAP"]
