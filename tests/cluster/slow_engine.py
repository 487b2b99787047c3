"""A deterministic built-in bot over HGP that sleeps before each `genmove` answer (cluster tests).

argv: MARKER BOT SEED DELAY. MARKER only tags the process (tests find it in /proc);
the answers depend on BOT and SEED alone, so a game replays move for move.
Writes `thinking` to stderr when a `genmove` arrives. Exits at `quit`, at end of input,
or when its stdout is closed (which it sees only after its sleep).
"""
from __future__ import annotations

import sys
import time

from hexarena.players.serve import make_engine


def main() -> int:
    _marker, bot, seed, delay = sys.argv[1:5]
    engine = make_engine(bot, int(seed))
    try:
        for line in sys.stdin:
            if line.split()[1:2] == ["genmove"]:
                print("thinking", file=sys.stderr, flush=True)
                time.sleep(float(delay))
            response = engine.handle(line)
            if response is not None:
                sys.stdout.write(response)
                sys.stdout.flush()
            if engine.finished:
                break
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
