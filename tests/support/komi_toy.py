"""A real HGP engine whose games the komi decides on purpose, for `hexarena openings komi`'s test:

    python -m tests.support.komi_toy FAIR SCALE SEED

At its first move of a game Black resigns with probability ``1 / (1 + exp(-(komi - FAIR) / SCALE))``,
and otherwise plays a random action; White resigns at its first move. The komi is the `komi`
command's, or the one the game's komi pie put in the state (Anda-prison's `komi=K`), whichever is
larger. So the seat that holds Black after the opening (the first seat, unless the opening
exchanged the colours) scores one half exactly at komi FAIR.
"""
from __future__ import annotations

import math
import random
import sys

from hexarena.engine.actions import Resign
from hexarena.engine.core import Colour
from hexarena.protocol.engine_side import EngineSide


def main() -> None:
    fair, scale, seed = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    engine: EngineSide

    def choose(state, _clock):
        if state.to_move is Colour.WHITE:
            return Resign()
        komi = max(engine.session.komi, getattr(state, "komi", 0) or 0)
        q = 1 / (1 + math.exp(-(komi - fair) / scale))
        return Resign() if rng.random() < q else state.random_action(rng)

    engine = EngineSide(choose, name="komi-toy", version="1")
    for line in sys.stdin:
        response = engine.handle(line)
        if response is not None:
            sys.stdout.write(response)
            sys.stdout.flush()
        if engine.finished:
            break


if __name__ == "__main__":
    main()
