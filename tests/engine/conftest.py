"""The differential test's counts, printed in the session summary (tests/engine/test_core_differential.py)."""
from __future__ import annotations

from tests.support.differential import COUNTS


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if COUNTS:
        terminalreporter.write_sep("-", "compiled core against the Python rules")
        for line in COUNTS.lines():
            terminalreporter.write_line(line)
