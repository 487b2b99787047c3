from __future__ import annotations

import pytest

from tests.support.ladder import Bridge, Server


@pytest.fixture
def procs():
    """Every server and bridge a test starts, stopped at its end."""
    started: list = []
    yield started
    for p in reversed(started):
        if isinstance(p, Bridge):
            p.kill()
        elif isinstance(p, Server):
            p.stop()
