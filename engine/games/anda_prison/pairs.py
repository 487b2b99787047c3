"""Anda-prison two-stone turns: the pair shape, the fast pair test, enumerating and drawing pairs.

A pair is the two-stone first turn under `nopie`, a pie setup pair, or the
`corners` balance pair (engine/anda_prison.py, docs/rules/anda-prison.md).
The functions take the state whose mover places the pair; they never change
its position, only fill its `_cache` (`quiet`, and the placement results of
`AndaPrisonState._try`). A pair is resolved by `AndaPrisonState._try`.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import board as board_mod
from ...actions import Action, Pair
from ...core import Colour
from ...geometry import iter_bits

if TYPE_CHECKING:
    from .state import AndaPrisonState


def pair_shape(state: AndaPrisonState, a: int, b: int) -> str | None:
    """Why sites a, b cannot be this turn's pair regardless of smothering, or None."""
    board = state.board
    occupied = state.black | state.white
    for s in (a, b):
        if not board.is_site(s):
            return "off the board"
        if occupied >> s & 1:
            return f"{board.name(s)} is occupied"
    if a == b:
        return "the two stones need two sites"
    if board.neighbour_mask[a] >> b & 1:
        return f"{board.name(a)} and {board.name(b)} are adjacent"
    if state.phase == "corners":
        corners = board.corners
        if a not in corners or b not in corners:
            return "both stones go on corners"
        if (corners.index(a) - corners.index(b)) % 6 in (1, 5):
            return f"corners {board.name(a)} and {board.name(b)} are adjacent (they share a side)"
    return None


def quiet(state: AndaPrisonState) -> tuple[int, list[tuple[int, int, int]]] | None:
    """For the pair test: the empty sites with no stone around, and each region with the
    mover's and the enemy's group counts; None when some group stands smothered now."""
    if "quiet" not in state._cache:
        lay = state.layout()
        board = state.board
        me = 0 if state.to_move is Colour.BLACK else 1
        still = True
        for c in (0, 1):
            stones = lay.stones[c]
            if stones & ~board.flood(board.adjacent(lay.breathing(c)) & stones, stones):
                still = False
        occupied = state.black | state.white
        q = board.mask & ~board.expand(occupied)
        state._cache["quiet"] = (q, list(zip(lay.regions, lay.touch[me], lay.touch[1 - me]))) if still else None
    return state._cache["quiet"]


def pair_ok(state: AndaPrisonState, a: int, b: int) -> bool:
    """Whether the pair (a, b), shape already checked, is legal.

    Fast and exact when no group stands smothered and neither stone has a stone around:
    then the regions only lose a and b, nothing else changes, and only three things
    matter -- a placed stone's region touched by exactly one enemy group (illegal), or a
    region that touches enemy groups and gets the mover's first group from one stone
    (enemy groups may now be smothered: resolve it fully). Otherwise resolve fully."""
    q = quiet(state)
    if q is not None and q[0] >> a & 1 and q[0] >> b & 1:
        hits = [next(x for x in q[1] if x[0] >> s & 1) for s in (a, b)]
        same = hits[0][0] == hits[1][0]
        if all(enemy != 1 and (enemy == 0 or own > 0 or same) for _, own, enemy in hits):
            return True
        if any(enemy == 1 for _, _, enemy in hits):
            return False
    return not isinstance(state._try((a, b)), str)


def legal_pairs(state: AndaPrisonState) -> Iterator[Pair]:
    """The legal pairs of this turn, each once, in the board's site order."""
    board = state.board
    if state.phase == "corners":
        cand = board.sorted_sites(board.corners)
        for i, a in enumerate(cand):
            for b in cand[i + 1:]:
                if pair_shape(state, a, b) is None and pair_ok(state, a, b):
                    yield Pair(a, b)
        return
    cand = board.sorted_sites(iter_bits(board.mask & ~(state.black | state.white)))
    q = quiet(state)
    # per site: its region's (own, enemy) counts when quiet, else None (resolve fully)
    info = {}
    if q is not None:
        for s in cand:
            if q[0] >> s & 1:
                info[s] = next((r, own, enemy) for r, own, enemy in q[1] if r >> s & 1)
    nbr = board.neighbour_mask
    me = 0 if state.to_move is Colour.BLACK else 1
    for i, a in enumerate(cand):
        na, ia, first = nbr[a], info.get(a), None
        for b in cand[i + 1:]:
            if na >> b & 1:
                continue
            ib = info.get(b)
            if ia is not None and ib is not None:     # the fast test of pair_ok, inlined
                if ia[2] == 1 or ib[2] == 1:
                    continue
                same = ia[0] == ib[0]
                if (ia[2] == 0 or ia[1] or same) and (ib[2] == 0 or ib[1] or same):
                    yield Pair(a, b)
                    continue
            if first is None:
                first = board_mod.put(board, state.layout(), a, me)
            if not isinstance(state._try((a, b), first), str):
                yield Pair(a, b)


def random_pair(state: AndaPrisonState, rng: random.Random, words: tuple[Action, ...]) -> Action:
    """A uniformly drawn legal pair or word of `words` (by rejection; loops forever if none).

    Every legal pair has two of the n*n ordered site draws, and so has each word."""
    board = state.board
    sites = board.sites
    n = len(sites)
    while True:
        r = rng.randrange(n * n + 2 * len(words))
        if r >= n * n:
            return words[(r - n * n) // 2]
        a, b = board.sorted_sites((sites[r // n], sites[r % n]))
        if pair_shape(state, a, b) is None and pair_ok(state, a, b):
            return Pair(a, b)
