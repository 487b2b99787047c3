"""Fake engines for referee tests: real child processes (`[sys.executable, "-c", CODE, ...]`).

A fake is a small but correct HGP engine (random legal moves, from the
rules package) that misbehaves on purpose: ``fake_argv(mode, at)`` makes it
misbehave at its `at`-th `genmove` (or at start for the `*-start` modes).
Every fake writes `pid N` (and `child N` for a grandchild) to stderr, which
the referee sends to the engine log, so tests can check that no process
is left behind.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

CODE = r'''
import os, random, signal, subprocess, sys, time
mode, at = sys.argv[1], int(sys.argv[2])
print("pid", os.getpid(), file=sys.stderr, flush=True)
if mode == "child":
    kid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print("child", kid.pid, file=sys.stderr, flush=True)
if mode in ("stubborn", "deaf-hang"):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if mode == "burn-deaf":              # ignores SIGXCPU: only the hard CPU limit's SIGKILL ends its burn
    signal.signal(signal.SIGXCPU, signal.SIG_IGN)
if mode == "deaf-hang":              # forks a child, then at its genmove ignores EOF, SIGTERM and quit
    kid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print("child", kid.pid, file=sys.stderr, flush=True)
if mode == "crash-start":
    sys.exit(3)
if mode == "hang-start":
    time.sleep(600)
from hexarena.engine import registry
info = state = None
size, tokens, rng, moves, stones, lists = None, [], random.Random(at), 0, [], 0
out = sys.stdout

def answer(cid, ok, text=""):
    out.write(("=" if ok else "?") + cid + (" " + text if text else "") + "\n\n")
    out.flush()

kid = None

def burned(pid):
    """CPU seconds of process pid, from /proc (user + system)."""
    with open("/proc/%d/stat" % pid) as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

for line in sys.stdin:
    if kid is not None:                 # burn-between: the child spun while the opponent thought
        print("burned", burned(kid), file=sys.stderr, flush=True)
        os.kill(kid, signal.SIGKILL)
        os.waitpid(kid, 0)
        kid = None
    words = line.split()
    if not words:
        continue
    cid, name, args = words[0], words[1], words[2:]
    if name == "quit":
        if mode in ("stubborn", "deaf"):
            continue
        answer(cid, True)
        break
    if mode == "relist" and name in ("time_settings", "kgs-time_settings"):
        print("told", name, file=sys.stderr, flush=True)
    if name == "list_commands" and mode == "relist":    # lists kgs-time_settings in its first handshake only
        lists += 1
        answer(cid, True, "kgs-time_settings" if lists == 1 else "")
    elif name == "protocol_version":
        answer(cid, True, "1" if mode == "v1" else "2")
    elif name == "list_games":
        answer(cid, True, "anda" if mode == "nogame" else "\n".join(registry.playable()))
    elif name == "game":
        info, tokens = registry.get(args[0]), args[1:]
        answer(cid, True)
    elif name == "boardsize":
        size = int(args[0])
        if mode == "nosize":
            answer(cid, False, "unacceptable size")
        else:
            answer(cid, True)
    elif name == "clear_board":
        state = info.new_game(info.variant(size, tokens), 0)
        answer(cid, True)
    elif name == "play":
        if mode == "refuse-play" and state.ply + 1 >= at:
            answer(cid, False, "illegal move")
            continue
        state = state.play(state.parse(args[1]))
        stones += [args[1].split("/")[0]] if args[1] != "swap" else []
        answer(cid, True)
    elif name == "genmove":
        moves += 1
        if mode == "slow":
            time.sleep(0.05)
        if mode == "slow-think":
            time.sleep(0.2)
        if mode == "cpu-work":                          # 0.05 s of CPU a move
            end = time.process_time() + 0.05
            while time.process_time() < end:
                pass
        if moves == at:
            if mode == "crash":
                sys.exit(5)
            if mode in ("hang", "deaf-hang"):
                print("hung", file=sys.stderr, flush=True)
                time.sleep(600)
            if mode == "illegal" and stones:
                answer(cid, True, stones[0]); continue
            if mode == "malformed":
                answer(cid, True, "zz99!"); continue
            if mode == "huge-number":                   # a site whose row has 5,000 digits
                answer(cid, True, "a" + "9" * 5000); continue
            if mode == "wrong-id":
                answer(str(int(cid) + 1), True, "e5"); continue
            if mode == "noblank":                       # an answer without its empty line
                out.write("=" + cid + " e5\n"); out.flush(); continue
            if mode == "garbage":
                out.write("hello there\n\n"); out.flush(); continue
            if mode == "empty-lines":                   # `yes ''`: empty lines for ever, no answer
                while True:
                    out.write("\n" * 65536); out.flush()
            if mode == "refuse":
                answer(cid, False, "cannot move"); continue
            if mode == "refuse-long":                   # a failure text of 100,000 characters
                answer(cid, False, "x" * 100_000); continue
            if mode == "resign":
                answer(cid, True, "resign"); continue
            if mode == "close":
                os.close(1); time.sleep(600)
            if mode in ("fork-exit", "fork-hang"):      # a child keeps stdout and stderr open
                kid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
                print("child", kid.pid, file=sys.stderr, flush=True)
                if mode == "fork-exit":
                    os._exit(7)
                time.sleep(600)
            if mode == "flood":                         # 20 MB of stderr, then a normal answer
                block = ("x" * 1023 + "\n") * 1024
                for _ in range(20):
                    sys.stderr.write(block)
                sys.stderr.write("last words\n"); sys.stderr.flush()
            if mode == "bigline":
                out.write("=" + cid + " " + "a" * 10_000_000 + "\n\n"); out.flush(); continue
            if mode in ("burn", "burn-deaf"):
                while True:
                    pass
            if mode == "self-kill":
                os.kill(os.getpid(), signal.SIGKILL)
            if mode == "hog":
                hog = bytearray(2_000_000_000)
        action = state.random_action(rng)
        token = state.format(action)
        state = state.play(action)
        stones += [token.split("/")[0]] if token != "swap" else []
        if mode == "burn-between":     # a child spins on a core from its answer until the next command
            kid = os.fork()
            if kid == 0:
                while True:
                    pass
            print("child", kid, file=sys.stderr, flush=True)
        answer(cid, True, token)
    else:
        answer(cid, True)
if mode == "stubborn":
    time.sleep(600)
'''


def fake_argv(mode: str = "good", at: int = 0) -> list[str]:
    """The command line of a fake engine misbehaving as `mode` at its `at`-th genmove."""
    return [sys.executable, "-c", CODE, mode, str(at)]


def pids_in(log: Path) -> list[int]:
    """Every `pid N` / `child N` a fake wrote to its log."""
    return [int(m.group(1)) for m in re.finditer(r"^(?:pid|child) (\d+)$", log.read_text(), re.M)]


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
