#!/usr/bin/env python3
"""A Marbanta engine on hexarena.sdk: Marbanta is misère (the player left without a turn
wins), so it plays the largest group it can, filling the board fast, ties at random
(docs/engines.md). Run: python examples/marbanta_engine.py [--seed N]."""
from hexarena.sdk import Engine, Grow, run


class MarbantaEngine(Engine):
    name = "example-marbanta"

    def choose(self, state, budget, rng):
        actions = state.listed_actions(5000)
        if not actions:
            return state.random_action(rng)
        size = lambda a: len(a.branches) if isinstance(a, Grow) else 0  # noqa: E731
        largest = max(map(size, actions))
        return rng.choice([a for a in actions if size(a) == largest])


if __name__ == "__main__":
    run(MarbantaEngine())
