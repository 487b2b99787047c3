"""Spelde's flip sets (`flips=dense`) come in one order in every process: the legal actions'
listing, and so a seeded random action, do not depend on a process's hash seed (the core's
hash sets take a random one per process). Two real processes compared."""
from __future__ import annotations

import subprocess
import sys

GAMES = r'''
import hashlib, random
from hexarena.engine import registry
info = registry.get("spelde")
digest = hashlib.sha256()
for seed in range(3):
    rng = random.Random(seed)
    state = info.new_game(info.variant(4, ("flips=dense",)), 0)
    while state.outcome() is None:
        digest.update(" ".join(state.format(a) for a in state.legal_actions()).encode())
        state = state.play(state.random_action(rng))
        digest.update(state.position().encode())
print(digest.hexdigest())
'''


def test_seeded_games_are_the_same_in_two_processes():
    runs = [subprocess.run([sys.executable, "-c", GAMES], capture_output=True, text=True, timeout=120,
                           env={"PYTHONHASHSEED": str(seed), "PATH": "/usr/bin:/bin"}) for seed in (1, 2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout
