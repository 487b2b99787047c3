#!/usr/bin/env python3
"""A Vaxandis engine on hexarena.sdk: a move of its tallest movable stack when it has one,
else a random action (docs/engines.md). Run: python examples/vaxandis_engine.py [--seed N]."""
from hexarena.sdk import Engine, Move, run


class VaxandisEngine(Engine):
    name = "example-vaxandis"

    def choose(self, state, budget, rng):
        actions = list(state.legal_actions())
        moves = [a for a in actions if isinstance(a, Move)]
        if not moves:
            return rng.choice(actions)
        height = {bit: h for h, bb in state.levels for bit in state.board.sites if bb >> bit & 1}
        tallest = max(height[m.src] for m in moves)
        return rng.choice([m for m in moves if height[m.src] == tallest])


if __name__ == "__main__":
    run(VaxandisEngine())
