"""Fixtures for the results tests (their helpers are in tests/support: frames, records)."""
from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20240611)
