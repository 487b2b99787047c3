"""pytest's set-up for every test folder (tests/, bench/tests/, lab/tests/)."""
from __future__ import annotations

import os
import sys

import pytest

from tests.support.bytecode import compile_package


def pytest_sessionstart(session) -> None:
    # the suite starts thousands of engine and referee processes: under PYTHONDONTWRITEBYTECODE
    # each would compile hexarena's modules again
    if sys.dont_write_bytecode:
        compile_package()


@pytest.fixture(autouse=True)
def _blas_setting_restored():
    """`hexarena`'s group sets OpenBLAS's thread count in its process (referee/engines/spawn.py
    `one_blas_thread`); a command invoked in-process (click's CliRunner) must not leave it to the
    tests after it."""
    from hexarena.referee.engines.spawn import BLAS_SET, BLAS_THREADS
    before = {name: os.environ.get(name) for name in (BLAS_THREADS, BLAS_SET)}
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
