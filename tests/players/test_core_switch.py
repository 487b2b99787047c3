"""HEXARENA_CORE is read in one place (engine/compiled.py), once: the rules a process plays by and
the search its bots run (players/compiled_search.py) come from the same answer, whatever the
environment says later."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hexarena.engine import compiled

#: Build a state, then change the switch: the search must still follow the rules' answer.
CODE = """
import os, sys
from hexarena.engine import registry
info = registry.get("spelde")
state = info.new_game(info.variant(4, ("nopie",)))
os.environ["HEXARENA_CORE"] = sys.argv[1]
from hexarena.players import compiled_search
print(type(state).__module__.endswith(".compiled"), compiled_search.usable(state))
"""


@pytest.mark.skipif(compiled.installed() is None, reason="the compiled core is not installed")
@pytest.mark.parametrize("at_start, later", [("1", "0"), ("0", "1")])
def test_the_search_follows_the_rules_whatever_the_switch_says_later(at_start, later):
    env = {**os.environ, compiled.SWITCH: at_start}
    done = subprocess.run([sys.executable, "-c", CODE, later], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    core = at_start == "1"
    assert done.stdout.split() == [str(core), str(core)]
