"""Real states of every game for the fuzz suite: each game's starts and a few seeded random plays."""
from __future__ import annotations

import random
from functools import cache

from hexarena.engine import registry
from hexarena.engine.actions import WORDS
from hexarena.engine.game import GameState


@cache
def states(game: str) -> tuple[GameState, ...]:
    """Starts of every balance at sizes 2, 3 and 5, and the states along two seeded random games."""
    info = registry.get(game)
    out = [info.new_game(info.variant(n, [balance]), 0) for n in (2, 3, 5) for balance in info.balances]
    rng = random.Random(43)
    for start in out[-2:]:
        state = start
        for _ in range(40):
            if state.outcome() is not None:
                break
            state = state.play(state.random_action(rng))
            out.append(state)
    return tuple(out)


@cache
def tokens(game: str) -> tuple[str, ...]:
    """Action tokens seen along those states (legal somewhere), and every word form."""
    seen: set[str] = {*WORDS, "komi=", "komi=3", "a0", "z99"}
    rng = random.Random(7)
    for state in states(game):
        if state.outcome() is None:
            seen.update(state.format(state.random_action(rng)) for _ in range(3))
    return tuple(sorted(seen))


@cache
def positions(game: str) -> tuple[str, ...]:
    return tuple(s.position() for s in states(game))
