"""Engines for tests of the referee's clocks beside a hostile one (real processes).

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
import random, sys, time
from hexarena.engine import registry
mode, signal, own = sys.argv[1], sys.argv[2], sys.argv[3]
import os
info = state = None
size, tokens, rng = None, [], random.Random(11)
listed = ["protocol_version", "name", "version", "known_command", "list_commands", "quit", "list_games",
          "game", "boardsize", "clear_board", "play", "genmove", "hgp_version"]
if mode == "flood":
    listed.append("genmove_analyze")

def answer(cid, text=""):
    sys.stdout.write("=" + cid + (" " + text if text else "") + "\n\n")
    sys.stdout.flush()

def lines(state, action):
    out = []
    for k in range(%d):
        head = "info winrate 0.99 visits %%d pv %%s" %% (k, state.format(action))
        words, walk = [head], state.play(action)
        size = len(head)
        while walk.outcome() is None:
            move = walk.random_action(rng)
            token = walk.format(move)
            if size + 1 + len(token) > 4096:
                break
            words.append(token)
            size += 1 + len(token)
            walk = walk.play(move)
        out.append(" ".join(words))
    return out

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cid, name, args = words[0], words[1], words[2:]
    if name == "quit":
        answer(cid)
        break
    if name == "protocol_version":
        answer(cid, "2")
    elif name == "name":
        answer(cid, mode)
    elif name == "version":
        answer(cid, "1")
    elif name == "hgp_version":
        answer(cid, "1.2")
    elif name == "list_commands":
        answer(cid, "\n".join(listed))
    elif name == "list_games":
        answer(cid, "\n".join(registry.playable()))
    elif name == "game":
        info, tokens = registry.get(args[0]), args[1:]
        answer(cid)
    elif name == "boardsize":
        size = int(args[0])
        answer(cid)
    elif name == "clear_board":
        state = info.new_game(info.variant(size, tokens), 0)
        answer(cid)
    elif name == "play":
        state = state.play(state.parse(args[1]))
        answer(cid)
    elif name in ("genmove", "genmove_analyze"):
        action = state.random_action(rng)
        text = [state.format(action)] + (lines(state, action) if name == "genmove_analyze" else [])
        state = state.play(action)
        if mode == "flood":
            answer(cid, "\n".join(text))
            with open(signal, "a") as f:
                f.write("x")
        else:
            t0, seen = time.monotonic(), os.path.getsize(signal)
            while os.path.getsize(signal) == seen:
                time.sleep(0.0005)
            answer(cid, "\n".join(text))
            with open(own, "a") as f:
                f.write("%%.6f\n" %% (time.monotonic() - t0))
    else:
        answer(cid)
''' % LINES


def flood_argv(signal: Path) -> list[str]:
    return [sys.executable, "-c", ENGINE, "flood", str(signal), ""]


def follower_argv(signal: Path, own: Path) -> list[str]:
    return [sys.executable, "-c", ENGINE, "follow", str(signal), str(own)]
