"""legal_cells' quiet-site shortcut (state._quiet_cells) against the from-scratch oracle.

Sparse boards (most empty sites have no stone around, so the shortcut decides
them without resolving) and positions with a group standing smothered (the
shortcut must step aside): every empty site is checked.
"""
from __future__ import annotations

import random

import pytest

from hexarena.engine import registry
from hexarena.engine.games.anda_prison.state import RULES as PYTHON_RULES

from tests.support.anda_prison import agree, oracle
from tests.support.differential import load

INFO = registry.get("anda-prison")


def sparse(seed: int, n: int, density: float):
    rng = random.Random(seed)
    board = INFO.variant(n).board
    rows = []
    for ri in range(2 * n - 1):
        row = ""
        for ci in range(2 * n - 1):
            if abs(ci - ri) <= n - 1:
                row += rng.choice("bw") if rng.random() < density else "."
        rows.append(row)
    return registry.from_position(f"anda-prison {n} {rng.choice('bw')} {'/'.join(rows)}"), board


@pytest.mark.parametrize("seed", range(16))
def test_sparse_boards_against_the_oracle(seed):
    state, board = sparse(seed, 7 if seed % 2 else 5, (0.04, 0.08, 0.15, 0.25)[seed % 4])
    for bit in board.sites:
        if not (state.black | state.white) >> bit & 1:
            agree(state, bit)


def test_quiet_sites_decide_without_resolving():
    """On a sparse board most legal sites come from the shortcut (state.py's): no placement result is cached."""
    state, board = sparse(0, 7, 0.04)
    state = load(PYTHON_RULES, state.position())
    cells = state.legal_cells()
    resolved = state._memo.get("sims", {})
    assert cells.bit_count() > 2 * len(resolved)
    assert all(oracle(state, (s,)) is not None for s in board.sites if cells >> s & 1)
