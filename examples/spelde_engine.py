#!/usr/bin/env python3
"""A Spelde engine on hexarena.sdk: the placement that flips the most stones, ties broken
at random (docs/engines.md). Run: python examples/spelde_engine.py [--seed N]."""
from hexarena.sdk import Engine, Split, analysed, run


class SpeldeEngine(Engine):
    name = "example-spelde"

    def choose(self, state, budget, rng):
        actions = state.listed_actions(20000)
        if not actions:                      # too many flip sets to list: the random player's draw
            return state.random_action(rng)
        flips = lambda a: a.flips.bit_count() if isinstance(a, Split) else 0  # noqa: E731
        best = max(map(flips, actions))
        action = rng.choice([a for a in actions if flips(a) == best])
        return analysed(action, visits=len(actions), depth=1, pv=[state.format(action)])


if __name__ == "__main__":
    run(SpeldeEngine())
