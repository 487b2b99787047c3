"""A deterministic built-in bot over HGP that sleeps before each `genmove` answer (cluster tests).

argv: MARKER BOT SEED DELAY. MARKER only tags the process (tests find it in /proc);
the answers depend on BOT and SEED alone, so a game replays move for move.
Writes `thinking` to stderr, and creates TMPDIR/MARKER.thinking (the referee pipes
stderr into a capped log, so tests look for the file), when a `genmove` or `genmove_analyze` arrives. Exits at `quit`, at end of input,
or when its stdout is closed (which it sees only after its sleep).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from hexarena.players.serve import make_engine


def main() -> int:
    marker, bot, seed, delay = sys.argv[1:5]
    engine = make_engine(bot, int(seed))
    try:
        for line in sys.stdin:
            if line.split()[1:2] in (["genmove"], ["genmove_analyze"]):
                print("thinking", file=sys.stderr, flush=True)
                (Path(tempfile.gettempdir()) / f"{marker}.thinking").touch()
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
