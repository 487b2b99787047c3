#!/usr/bin/env python3
"""An Anda-prison engine on hexarena.sdk: random placements; it never proposes an ending,
releases only when nothing else is legal, and accepts when ahead in the prison count
(docs/engines.md). Run: python examples/anda_prison_engine.py [--seed N]."""
from hexarena.sdk import Accept, Decline, Engine, Propose, Release, run


class PrisonEngine(Engine):
    name = "example-anda-prison"

    def choose(self, state, budget, rng):
        actions = state.listed_actions(5000) or [state.random_action(rng)]
        if Accept() in actions:
            mine, theirs = (state.prison_white, state.prison_black) if state.to_move.value == "b" else \
                (state.prison_black, state.prison_white)
            return Accept() if mine >= theirs else Decline()
        quiet = [a for a in actions if not isinstance(a, (Propose, Release))]
        return rng.choice(quiet or actions)


if __name__ == "__main__":
    run(PrisonEngine())
