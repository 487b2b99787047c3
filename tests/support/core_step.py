"""What the tests of the core's step API share (tests/engine/test_core_*step.py): a chi-square
bound on the draws and a random.Random that counts the calls of ``getrandbits``."""
from __future__ import annotations

import random
from collections import Counter


def assert_uniform(seen: Counter, listed: list) -> None:
    """Every listed choice drawn, about equally often (the bound is a chi-square of about five
    times its degrees of freedom)."""
    assert set(seen) == set(listed)
    expected = sum(seen.values()) / len(listed)
    chi2 = sum((seen[a] - expected) ** 2 / expected for a in listed)
    assert chi2 < 5 * len(listed) + 20, (seen, expected)


class CountingRandom(random.Random):
    """A random.Random that counts the calls of getrandbits."""

    calls = 0

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        return super().getrandbits(k)


def read_outcome(state, token: str) -> tuple | str:
    """`state.read(token)`, or the error it raised as "Kind: message" (to compare two rules' reading)."""
    try:
        return state.read(token)
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"
