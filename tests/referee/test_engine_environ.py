"""What an engine inherits of the referee's environment: everything but the OpenBLAS thread count
hexarena sets for its own processes (referee/engines/spawn.py), a user's own setting included."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hexarena.referee.engines.spawn import BLAS_SET, BLAS_THREADS, engine_environ, one_blas_thread
from hexarena.results.record.journal import read_journal

#: An engine that says in its log what it was given, then is the built-in random player.
SAYS = ["sh", "-c", 'echo "blas=${OPENBLAS_NUM_THREADS-unset} mark=${HEXARENA_SET_OPENBLAS_NUM_THREADS-unset} '
        'mine=${MINE-unset}" >&2; exec "$0" -P -m hexarena.players random', sys.executable]


def test_hexarena_sets_one_thread_for_itself_and_no_engine_inherits_it(monkeypatch):
    monkeypatch.delenv(BLAS_THREADS, raising=False)
    monkeypatch.delenv(BLAS_SET, raising=False)
    assert engine_environ() is None                 # nothing set: engines inherit the environment as it is
    one_blas_thread()
    assert os.environ[BLAS_THREADS] == "1"
    env = engine_environ()
    assert env is not None and BLAS_THREADS not in env and BLAS_SET not in env and env["PATH"] == os.environ["PATH"]


def test_a_user_s_own_setting_is_kept_and_inherited(monkeypatch):
    monkeypatch.setenv(BLAS_THREADS, "3")
    monkeypatch.delenv(BLAS_SET, raising=False)
    one_blas_thread()
    assert os.environ[BLAS_THREADS] == "3" and engine_environ() is None


@pytest.mark.parametrize("user", [None, "3"])
def test_the_engines_of_a_run_see_the_user_s_environment(tmp_path, user):
    config = tmp_path / "t.toml"
    cmd = json.dumps(SAYS)                          # a JSON array of strings is a TOML array
    config.write_text(f'games_per_pair = 2\n[engines.says]\ncmd = {cmd}\nrestart = "fault"\nenv = {{MINE = "x"}}\n'
                      f'[engines.plain]\ncmd = {cmd}\n[[games]]\ngame = "spelde"\nsizes = [4]\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in (BLAS_THREADS, BLAS_SET)}
    if user is not None:
        env[BLAS_THREADS] = user
    subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(tmp_path / "o"),
                    "-j", "2", "-q"], env=env, check=True, capture_output=True, timeout=120)
    assert len(read_journal(tmp_path / "o")) == 2
    said = {line for p in (tmp_path / "o" / "logs").rglob("*.log") for line in p.read_text().splitlines()
            if line.startswith("blas=")}
    blas = user or "unset"
    assert said == {f"blas={blas} mark=unset mine=x", f"blas={blas} mark=unset mine=unset"}, said
