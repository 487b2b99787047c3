"""Anda-prison for tests: readable positions (`"B a1 b2 / W c3"`, through the position string),
shorthands for sites and actions, and a from-scratch oracle of a placement.

The oracle resolves a placement straight from the rule text with engine.regions
(one smothering test per group, no incremental bookkeeping).
"""
from __future__ import annotations

from hexarena.engine.actions import Pair, Place
from hexarena.engine.core import Colour
from hexarena.engine.games import anda_regions as R
from tests.support import boards


def state(spec: str = "", n: int = 5, to_move: str = "b", **keys: str):
    """A state from `"B a1 b2 / W c3"`, the side to move and position keys (`phase="play"`)."""
    return boards.state("anda-prison", n, spec, to_move, **keys)


def sites(state_, *names: str) -> int:
    bb = 0
    for name in names:
        bb |= 1 << state_.board.parse(name)
    return bb


def place(s, name: str):
    return s.play(Place(s.board.parse(name)))


def pair(s, a: str, b: str):
    x, y = s.board.sorted_sites((s.board.parse(a), s.board.parse(b)))
    return Pair(x, y)

def oracle(state, cells: tuple[int, ...]) -> tuple[int, int] | None:
    """(own, enemy) stones after placing `cells` for the mover, or None when illegal."""
    board = state.board
    me = state.to_move
    own, enemy = (state.black, state.white) if me is Colour.BLACK else (state.white, state.black)
    for s in cells:
        own |= 1 << s
    empty = board.mask & ~(own | enemy)
    if any(R.smothered(board, R.group_at(board, own, s), enemy, empty) for s in cells):
        return None
    dead_own = sum(g for g in R.groups(board, own) if R.smothered(board, g, enemy, empty))
    dead_enemy = sum(g for g in R.groups(board, enemy) if R.smothered(board, g, own, empty))
    own2, enemy2 = own & ~dead_own, enemy & ~dead_enemy
    empty2 = board.mask & ~(own2 | enemy2)
    if any(R.smothered(board, R.group_at(board, own2, s), enemy2, empty2) for s in cells):
        return None
    if enemy and not enemy2 and me.other in state.annihilated:
        return None
    return own2, enemy2


def agree(state, site: int) -> None:
    """The engine and the oracle agree on placing at `site` (legality and the resulting board)."""
    want = oracle(state, (site,))
    assert (want is not None) == bool(state.legal_cells() >> site & 1), (state.position(), state.board.name(site))
    if want is not None:
        child = state.play(Place(site))
        got = (child.black, child.white) if state.to_move is Colour.BLACK else (child.white, child.black)
        assert got == want, (state.position(), state.board.name(site))
