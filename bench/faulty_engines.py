"""Misbehaving engines for bench/bench_faults.py: real child processes (`[sys.executable, "-c", CODE, MODE, AT]`).

A small but correct HGP engine (random legal moves, from the rules package)
that misbehaves at its `AT`-th `genmove` as MODE says: ``good`` (never),
``resign``, ``hang`` (sleeps), ``deaf-hang`` (forks a child first and
ignores SIGTERM, stdin EOF and ``quit``), ``fork-exit`` (exits with a child
still holding its pipes). It writes `pid N` (and `child N`) to stderr, which
the referee sends to the engine log. The referee's tests have their own,
with more modes (tests/support/fakes.py).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

CODE = r'''
import os, random, signal, subprocess, sys, time
mode, at = sys.argv[1], int(sys.argv[2])
print("pid", os.getpid(), file=sys.stderr, flush=True)
if mode == "deaf-hang":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    kid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print("child", kid.pid, file=sys.stderr, flush=True)
from hexarena.engine import registry
info = state = size = None
tokens, rng, moves = [], random.Random(at), 0

def answer(cid, text=""):
    sys.stdout.write("=" + cid + (" " + text if text else "") + "\n\n")
    sys.stdout.flush()

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cid, name, args = words[0], words[1], words[2:]
    if name == "quit":
        if mode == "deaf-hang":
            continue
        answer(cid)
        break
    if name == "protocol_version":
        answer(cid, "2")
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
    elif name == "genmove":
        moves += 1
        if moves == at:
            if mode in ("hang", "deaf-hang"):
                print("hung", file=sys.stderr, flush=True)
                time.sleep(600)
            if mode == "resign":
                answer(cid, "resign"); continue
            if mode == "fork-exit":
                kid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
                print("child", kid.pid, file=sys.stderr, flush=True)
                os._exit(7)
        action = state.random_action(rng)
        token = state.format(action)
        state = state.play(action)
        answer(cid, token)
    else:
        answer(cid)
'''


def fake_argv(mode: str = "good", at: int = 0) -> list[str]:
    """The command line of an engine misbehaving as `mode` at its `at`-th genmove."""
    return [sys.executable, "-c", CODE, mode, str(at)]


def pids_in(log: Path) -> list[int]:
    """Every `pid N` / `child N` an engine wrote to its log."""
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


def write_config(path: Path, bad_mode: str) -> Path:
    """A one-game Spelde n=5 tournament of a good engine against one misbehaving as `bad_mode`."""
    def toml_list(words: list[str]) -> str:
        return "[" + ", ".join("'''" + w + "'''" if '"' in w or "\\" in w or "\n" in w else f'"{w}"'
                               for w in words) + "]"
    path.write_text(f'''
games_per_pair = 1
[time]
move = 600.0
[engines.good]
cmd = {toml_list(fake_argv("good"))}
[engines.bad]
cmd = {toml_list(fake_argv(bad_mode, 1))}
[[games]]
game = "spelde"
size = 5
''', encoding="utf-8")
    return path


def start_referee(config: Path, out: Path) -> subprocess.Popen:
    """`hexarena tournament` of `config` into `out`, one game at a time."""
    return subprocess.Popen([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out),
                             "--no-preflight", "-j", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def logs_with(out: Path, text: str) -> list[Path]:
    """The engine logs of a run in `out` that contain `text`."""
    folder = out / "logs"
    if not folder.is_dir():
        return []
    return [p for p in folder.rglob("*.log") if text in p.read_text(errors="replace")]
