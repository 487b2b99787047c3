"""What an engine inherits of the referee's environment: everything but the OpenBLAS settings
hexarena makes for its own processes (referee/engines/spawn.py), a user's own settings included;
and no thread of hexarena's changes the process's environment while another starts a process."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hexarena.referee.engines.spawn import OWN_MARK, OWN_SETTINGS, engine_environ, settle_environ
from hexarena.results.record.journal import read_journal

THREADS, MAIN_FREE = "OPENBLAS_NUM_THREADS", "OPENBLAS_MAIN_FREE"
#: An engine that says in its log what it was given, then is the built-in random player.
SAYS = ["sh", "-c", f'echo "blas=${{{THREADS}-unset}} free=${{{MAIN_FREE}-unset}} mark=${{{OWN_MARK}-unset}} '
        'mine=${MINE-unset}" >&2; exec "$0" -P -m hexarena.players random', sys.executable]


@pytest.fixture
def unsettled(monkeypatch):
    for name in (*OWN_SETTINGS, OWN_MARK):
        monkeypatch.delenv(name, raising=False)


def test_hexarena_settles_its_own_environment_and_no_engine_inherits_it(unsettled):
    assert engine_environ() is None                 # nothing set: engines inherit the environment as it is
    settle_environ()
    assert os.environ[THREADS] == "1" and os.environ[MAIN_FREE] == "1"
    env = engine_environ()
    assert env is not None and env["PATH"] == os.environ["PATH"]
    assert not {THREADS, MAIN_FREE, OWN_MARK} & set(env)


def test_a_user_s_own_settings_are_kept_and_inherited(unsettled, monkeypatch):
    monkeypatch.setenv(THREADS, "3")
    settle_environ()
    assert os.environ[THREADS] == "3" and os.environ[MAIN_FREE] == "1"
    env = engine_environ()
    assert env is not None and env[THREADS] == "3" and MAIN_FREE not in env and OWN_MARK not in env
    monkeypatch.setenv(MAIN_FREE, "0")
    monkeypatch.delenv(OWN_MARK)
    settle_environ()
    assert engine_environ() is None                 # both the user's: nothing of hexarena's to drop


def _environment_changes_of_numpy_import(settle: bool) -> list:
    """The putenv/unsetenv calls importing numpy makes in a new interpreter (after
    settle_environ when `settle`), as the run's thread that imports the end tables would."""
    code = ("import os\n"
            + ("from hexarena.referee.engines.spawn import settle_environ\nsettle_environ()\n" if settle else "")
            + "calls = []\n"
              "os.putenv = lambda *a: calls.append(('putenv', *a))\n"
              "os.unsetenv = lambda *a: calls.append(('unsetenv', *a))\n"
              "import numpy\n"
              "print(repr(calls))\n")
    env = {k: v for k, v in os.environ.items() if k not in (*OWN_SETTINGS, OWN_MARK)}
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True,
                         timeout=60).stdout
    return eval(out)                                # a list of tuples of str, printed by repr


def test_importing_numpy_after_settling_changes_no_environment_variable():
    if not _environment_changes_of_numpy_import(settle=False):
        pytest.skip("this numpy's import changes no environment variable: nothing to settle")
    assert _environment_changes_of_numpy_import(settle=True) == []


@pytest.mark.parametrize("user", [None, "3"])
def test_the_engines_of_a_run_see_the_user_s_environment(tmp_path, user):
    config = tmp_path / "t.toml"
    cmd = json.dumps(SAYS)                          # a JSON array of strings is a TOML array
    config.write_text(f'games_per_pair = 2\n[engines.says]\ncmd = {cmd}\nrestart = "fault"\nenv = {{MINE = "x"}}\n'
                      f'[engines.plain]\ncmd = {cmd}\n[[games]]\ngame = "spelde"\nsizes = [4]\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in (*OWN_SETTINGS, OWN_MARK)}
    if user is not None:
        env[THREADS] = user
    subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(tmp_path / "o"),
                    "-j", "2", "-q"], env=env, check=True, capture_output=True, timeout=120)
    assert len(read_journal(tmp_path / "o")) == 2
    said = {line for p in (tmp_path / "o" / "logs").rglob("*.log") for line in p.read_text().splitlines()
            if line.startswith("blas=")}
    blas = user or "unset"
    assert said == {f"blas={blas} free=unset mark=unset mine=x", f"blas={blas} free=unset mark=unset mine=unset"}, said
