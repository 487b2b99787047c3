"""A fake HGP 1.2 engine for referee tests: a real child process (`[sys.executable, "-c", CODE, ...]`).

It plays random legal moves (from the rules package), writes every command
it receives to stderr as `got: LINE` (the referee sends stderr to the engine
log, so tests read what it was told there), and behaves by its flags (one
argument, comma-separated):

* `v12`: lists `hgp_version` and `genmove_analyze`; `kgs`: lists `kgs-time_settings`;
* `info`: answers `genmove_analyze` with good and bad info lines (:data:`INFO_LINES`);
* `flood`: answers it with 11 good info lines;
* `wr=A/B/...`: answers it with `info winrate A pv ACTION` on its first move, B on its second, ...,
  the last value on every later move; `-` for a move whose info line has no winrate;
* `slow`: takes 0.15 s a move;
* `anon`: refuses `name` and `version`;
* `refuse-setup`: refuses any command it does not know (`frobnicate ...`).
"""
from __future__ import annotations

import sys

CODE = r'''
import random, sys, time
flags = set(sys.argv[1].split(","))
from hexarena.engine import registry
info = state = None
size, tokens, rng = None, [], random.Random(1)
out = sys.stdout
listed = ["protocol_version", "name", "version", "known_command", "list_commands", "quit", "list_games",
          "game", "boardsize", "clear_board", "komi", "play", "genmove", "time_settings", "time_left"]
if "v12" in flags:
    listed += ["hgp_version", "genmove_analyze"]
if "kgs" in flags:
    listed += ["kgs-time_settings"]
KNOWN = set(listed)
script = next((f[3:].split("/") for f in flags if f.startswith("wr=")), None)
own = 0

def answer(cid, ok, text=""):
    out.write(("=" if ok else "?") + cid + (" " + text if text else "") + "\n\n")
    out.flush()

for line in sys.stdin:
    print("got:", line.rstrip("\n"), file=sys.stderr, flush=True)
    words = line.split()
    if not words:
        continue
    cid, name, args = words[0], words[1], words[2:]
    if name == "quit":
        answer(cid, True)
        break
    if name not in KNOWN:
        answer(cid, not ("refuse-setup" in flags and name == "frobnicate"),
               "unknown command" if "refuse-setup" in flags and name == "frobnicate" else "")
    elif name == "protocol_version":
        answer(cid, True, "2")
    elif name in ("name", "version"):
        if "anon" in flags:
            answer(cid, False, "unknown command")
        else:
            answer(cid, True, "fake twelve" if name == "name" else "1.2.3")
    elif name == "hgp_version":
        answer(cid, True, "1.2")
    elif name == "list_commands":
        answer(cid, True, "\n".join(listed))
    elif name == "list_games":
        answer(cid, True, "\n".join(registry.playable()))
    elif name == "game":
        info, tokens = registry.get(args[0]), args[1:]
        answer(cid, True)
    elif name == "boardsize":
        size = int(args[0])
        answer(cid, True)
    elif name == "clear_board":
        state = info.new_game(info.variant(size, tokens), 0)
        answer(cid, True)
    elif name == "play":
        state = state.play(state.parse(args[1]))
        answer(cid, True)
    elif name in ("genmove", "genmove_analyze"):
        if "slow" in flags:
            time.sleep(0.15)
        action = state.random_action(rng)
        token = state.format(action)
        lines = [token]
        if name == "genmove_analyze" and "info" in flags:
            lines += ["info winrate 0.62 visits 4500 depth 9 pv " + token,
                      "info winrate 1.7",
                      "info pv zz99 " + token,
                      "info score -1.5 nodes 77",
                      "winrate 0.5"]
        if name == "genmove_analyze" and script:
            value = script[min(own, len(script) - 1)]
            lines.append("info visits 1" if value == "-" else "info winrate " + value + " pv " + token)
            own += 1
        if name == "genmove_analyze" and "flood" in flags:
            lines += ["info visits %d" % i for i in range(11)]
        state = state.play(action)
        answer(cid, True, "\n".join(lines))
    else:
        answer(cid, True)
'''


def fake12_argv(flags: str) -> list[str]:
    """The command line of the fake with its comma-separated `flags`."""
    return [sys.executable, "-c", CODE, flags]
