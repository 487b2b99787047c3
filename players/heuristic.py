"""The heuristic player: one ply of look-ahead scored by the game's own evaluation.

Candidates are greedy's (every legal action, or one sample per site when
they are countless). A candidate that wins at once is played; one that loses
at once ranks last, a draw just above; a proposal to end the game
(Anda-prison) is judged by the ending it proposes (best when the agreed score
wins for the proposer, worst otherwise); every other candidate is worth the
game's evaluation (players/games/<game>.py) of the state it leads to, from the
side of the colour its mover then holds (after ``Swap`` the other colour).
Ties are broken by the injected rng; a game without its evaluation is an
error (players.games.MissingKnowledge). With ``Budget.move_seconds`` given, candidates left unscored when
it runs out are skipped (as greedy does), so the player never loses on time.
"""
from __future__ import annotations

import random
import time

from hexarena.engine.actions import Accept, Action, Propose, Swap
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState

from .base import Budget
from .games import evaluation_for
from .greedy import candidates


def heuristic_bot(state: GameState, rng: random.Random, budget: Budget = Budget()) -> Action:
    """The action whose child the game's evaluation likes best; ValueError when the game is over."""
    if state.outcome() is not None:
        raise ValueError("the game is over")
    evaluate, _ = evaluation_for(state.info.id)
    best: list[Action] = []
    best_value = -float("inf")
    deadline = None if budget.move_seconds is None else time.perf_counter() + budget.move_seconds
    for action in candidates(state, rng):
        if deadline is not None and best and time.perf_counter() > deadline:
            break
        child = state.play(action)
        holder = state.to_move.other if isinstance(action, Swap) else state.to_move
        outcome = child.outcome()
        if outcome is not None:
            if outcome.winner is holder:
                return action
            value = -1e9 if outcome.winner is not None else -1e8
        elif isinstance(action, Propose):
            agreed = child.play(Accept()).outcome()
            value = 1e8 if agreed is not None and agreed.winner is holder else -1e8
        else:
            score = evaluate(child)
            value = score if holder is Colour.BLACK else -score
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return best[rng.randrange(len(best))]


__all__ = ["heuristic_bot"]
