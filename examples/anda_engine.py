#!/usr/bin/env python3
"""An Anda engine on hexarena.sdk: random, but a placement next to an enemy stone first
(docs/engines.md). Run: python examples/anda_engine.py [--seed N]."""
from hexarena.sdk import Engine, Place, run


class AndaEngine(Engine):
    name = "example-anda"

    def choose(self, state, budget, rng):
        actions = state.listed_actions(5000) or [state.random_action(rng)]
        board, enemy = state.board, state.white if state.to_move.value == "b" else state.black
        near = [a for a in actions if isinstance(a, Place) and board.adjacent(1 << a.cell) & enemy]
        return rng.choice(near or actions)


if __name__ == "__main__":
    run(AndaEngine())
