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
* `swap`: answers `swap` whenever it is legal (else a random move);
* `slow`: takes 0.15 s a move;
* `anon`: refuses `name` and `version`;
* `refuse-setup`: refuses any command it does not know (`frobnicate ...`);
* `cpus`: writes `cpus: LIST` to stderr at start, its `Cpus_allowed_list` (/proc/self/status).
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
if "cpus" in flags:
    with open("/proc/self/status") as status:
        allowed = [ln.split(":")[1].strip() for ln in status if ln.startswith("Cpus_allowed_list:")]
    print("cpus:", allowed[0], file=sys.stderr, flush=True)
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
        if "swap" in flags and any(state.format(a) == "swap" for a in state.legal_actions()):
            action = state.parse("swap")
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


#: The example engine (examples/random_engine.py, which passes `hexarena check --strict`) with one
#: HGP 1.2 fault, named by its argument (see :func:`faulty_example_argv`); `v11` lists neither 1.2 command.
FAULTY = r'''
import importlib.util, sys
spec = importlib.util.spec_from_file_location("example", sys.argv[1])
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)
fault = sys.argv[2]
handle = example.Engine.handle
if fault == "v11":                  # no fault: an HGP 1.1 engine, listing neither 1.2 command
    example.COMMANDS = tuple(c for c in example.COMMANDS if c not in ("hgp_version", "genmove_analyze"))

def faulty(self, name, args):
    if name == "hgp_version" and fault == "version":
        return "one point two"
    if name in ("time_settings", "time_left") and fault == "decimal" and any("." in a for a in args):
        raise example.Failure("syntax error: whole seconds only")
    text = handle(self, name, args)
    if name != "genmove_analyze" or text == "resign" or fault == "v11":
        return text
    token = text.split("\n")[0]
    other = "a1" if token != "a1" else "a2"
    return {"action": "e5@\ninfo depth 1 pv e5@",
            "grammar": token + "\ninfo winrate",
            "range": token + "\ninfo winrate 1.7 pv " + token,
            "pv": token + "\ninfo visits 10 pv " + other + " " + token,
            "flood": token + "".join("\ninfo visits %d" % i for i in range(9))}.get(fault, text)

example.Engine.handle = faulty
sys.exit(example.main([]))
'''

#: The faults of :data:`FAULTY`, each with the check it fails and words of the message.
FAULTS = {
    "version": ("hgp_version", "not a version MAJOR.MINOR such as 1.2"),
    "decimal": ("time_settings (decimal seconds)", "refused: ? syntax error: whole seconds only"),
    "action": ("spelde 3 genmove_analyze", "malformed"),
    "grammar": ("spelde 3 genmove_analyze info", "info line 1: key 'winrate' has no value"),
    "range": ("spelde 3 genmove_analyze info", "info line 1: winrate '1.7' is outside 0..1"),
    "pv": ("spelde 3 genmove_analyze pv", "info line 1: pv starts with"),
    "flood": ("spelde 3 genmove_analyze info", "9 info lines, at most 8"),
}


def faulty_example_argv(example: str, fault: str) -> list[str]:
    """The example engine at path `example` with the HGP 1.2 `fault` (a key of :data:`FAULTS`, or `v11`)."""
    return [sys.executable, "-c", FAULTY, example, fault]
