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
    """`hexarena`'s group sets OpenBLAS's settings in its process (referee/engines/spawn.py
    `settle_environ`); a command invoked in-process (click's CliRunner) must not leave them to the
    tests after it."""
    from hexarena.referee.engines.spawn import OWN_MARK, OWN_SETTINGS
    before = {name: os.environ.get(name) for name in (*OWN_SETTINGS, OWN_MARK)}
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
