"""pytest's set-up for every test folder (tests/, bench/tests/, lab/tests/)."""
from __future__ import annotations

import sys

from tests.support.bytecode import compile_package


def pytest_sessionstart(session) -> None:
    # the suite starts thousands of engine and referee processes: under PYTHONDONTWRITEBYTECODE
    # each would compile hexarena's modules again
    if sys.dont_write_bytecode:
        compile_package()
