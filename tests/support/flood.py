"""Engines for tests of the referee's clocks beside a hostile one (real processes, the project's
own engine side, protocol/engine_side.py).

`flood_argv(signal)`: an engine that answers `genmove_analyze` with :data:`LINES` info lines,
each a pv of distinct random legal actions as long as an info line may be (4096 bytes), and
after each answer appends a byte to the file `signal`.
`follower_argv(signal, own)`: an engine that answers `genmove` as soon as `signal` grows (so
its answer reaches the referee while the referee reads a flood), then appends the seconds it
took itself (from the command read to the answer written) as one line to the file `own`.
Both play random legal actions (seeded) of any game.
"""
from __future__ import annotations

import sys
from pathlib import Path

LINES = 8

ENGINE = r'''
import os, random, sys, time
from hexarena.protocol.analysis import MAX_LINE_BYTES, Analysed, Info
from hexarena.protocol.engine_side import EngineSide

mode, signal, own, lines = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rng = random.Random(11)

def flood(state, action):
    out = []
    for k in range(lines):
        pv, walk, size = [state.format(action)], state.play(action), 64
        while walk.outcome() is None:
            move = walk.random_action(rng)
            token = walk.format(move)
            if size + 1 + len(token) > MAX_LINE_BYTES:
                break
            pv.append(token)
            size += 1 + len(token)
            walk = walk.play(move)
        out.append(Info(winrate=0.99, visits=k, pv=tuple(pv)))
    return tuple(out)

def choose(state, clock):
    action = state.random_action(rng)
    return Analysed(action, flood(state, action)) if mode == "flood" else action

engine = EngineSide(choose, name=mode)
for line in sys.stdin:
    t0, seen = time.monotonic(), os.path.getsize(signal)
    thinking = "genmove" in line
    if thinking and mode == "follow":
        while os.path.getsize(signal) == seen:
            time.sleep(0.0005)
    answer = engine.handle(line)
    if answer is not None:
        sys.stdout.write(answer)
        sys.stdout.flush()
    if thinking:
        with open(signal if mode == "flood" else own, "a") as f:
            f.write("x" if mode == "flood" else "%.6f\n" % (time.monotonic() - t0))
    if engine.finished:
        break
'''


def flood_argv(signal: Path) -> list[str]:
    return [sys.executable, "-c", ENGINE, "flood", str(signal), "", str(LINES)]


def follower_argv(signal: Path, own: Path) -> list[str]:
    return [sys.executable, "-c", ENGINE, "follow", str(signal), str(own), "0"]
