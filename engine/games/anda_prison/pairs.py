"""Anda-prison two-stone turns: the pair shape, the fast pair test, enumerating and drawing pairs.

A pair is the two-stone first turn under `nopie`, a pie setup pair, or the
`corners` balance pair (docs/rules/anda-prison.md). Everything a function
needs comes in a :class:`PairTurn` the state builds (and caches) for its mover:
the board, the occupied sites, the analysis, the quiet-region summary and
`resolve`, the state's full test of one pair. Nothing here reads or writes a
state.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import board as board_mod
from ...actions import Action, Pair
from ...geometry import Hexagon, iter_bits

#: The empty sites with no stone around, and each region with the mover's and the enemy's group counts.
Quiet = tuple[int, list[tuple[int, int, int]]]


@dataclass(frozen=True, eq=False)
class PairTurn:
    """One two-stone turn of the mover `me` (0 Black, 1 White).

    `resolve(cells, first)` is True when placing the canonical pair `cells` is legal after
    full resolution; `first`, when given, is the analysis with `cells[0]` already put."""

    board: Hexagon
    occupied: int
    corners: bool                     # phase `corners`: both stones on non-adjacent corners
    me: int
    analysis: board_mod.Analysis
    quiet: Quiet | None
    resolve: Callable[[tuple[int, int], board_mod.Analysis | None], bool]


def pair_shape(turn: PairTurn, a: int, b: int) -> str | None:
    """Why sites a, b cannot be this turn's pair regardless of smothering, or None."""
    board = turn.board
    for s in (a, b):
        if not board.is_site(s):
            return "off the board"
        if turn.occupied >> s & 1:
            return f"{board.name(s)} is occupied"
    if a == b:
        return "the two stones need two sites"
    if board.neighbour_mask[a] >> b & 1:
        return f"{board.name(a)} and {board.name(b)} are adjacent"
    if turn.corners:
        corners = board.corners
        if a not in corners or b not in corners:
            return "both stones go on corners"
        if (corners.index(a) - corners.index(b)) % 6 in (1, 5):
            return f"corners {board.name(a)} and {board.name(b)} are adjacent (they share a side)"
    return None


def quiet(board: Hexagon, lay: board_mod.Analysis, me: int, occupied: int) -> Quiet | None:
    """For the pair test: the empty sites with no stone around, and each region with the
    mover's and the enemy's group counts; None when some group stands smothered now."""
    for c in (0, 1):
        stones = lay.stones[c]
        if stones & ~board.flood(board.adjacent(lay.breathing(c)) & stones, stones):
            return None
    q = board.mask & ~board.expand(occupied)
    return q, list(zip(lay.regions, lay.touch[me], lay.touch[1 - me]))


def pair_ok(turn: PairTurn, a: int, b: int) -> bool:
    """Whether the pair (a, b), shape already checked, is legal.

    Fast and exact when no group stands smothered and neither stone has a stone around:
    then the regions only lose a and b, nothing else changes, and only three things
    matter -- a placed stone's region touched by exactly one enemy group (illegal), or a
    region that touches enemy groups and gets the mover's first group from one stone
    (enemy groups may now be smothered: resolve it fully). Otherwise resolve fully."""
    q = turn.quiet
    if q is not None and q[0] >> a & 1 and q[0] >> b & 1:
        hits = [next(x for x in q[1] if x[0] >> s & 1) for s in (a, b)]
        same = hits[0][0] == hits[1][0]
        if all(enemy != 1 and (enemy == 0 or own > 0 or same) for _, own, enemy in hits):
            return True
        if any(enemy == 1 for _, _, enemy in hits):
            return False
    return turn.resolve((a, b), None)


def legal_pairs(turn: PairTurn) -> Iterator[Pair]:
    """The legal pairs of this turn, each once, in the board's site order."""
    board = turn.board
    if turn.corners:
        cand = board.sorted_sites(board.corners)
        for i, a in enumerate(cand):
            for b in cand[i + 1:]:
                if pair_shape(turn, a, b) is None and pair_ok(turn, a, b):
                    yield Pair(a, b)
        return
    cand = board.sorted_sites(iter_bits(board.mask & ~turn.occupied))
    q = turn.quiet
    # per site: its region's (own, enemy) counts when quiet, else None (resolve fully)
    info = {}
    if q is not None:
        for s in cand:
            if q[0] >> s & 1:
                info[s] = next((r, own, enemy) for r, own, enemy in q[1] if r >> s & 1)
    nbr = board.neighbour_mask
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
                first = board_mod.put(board, turn.analysis, a, turn.me)
            if turn.resolve((a, b), first):
                yield Pair(a, b)


def random_pair(turn: PairTurn, rng: random.Random, words: tuple[Action, ...]) -> Action:
    """A uniformly drawn legal pair or word of `words` (by rejection; loops forever if none).

    Every legal pair has two of the n*n ordered site draws, and so has each word."""
    board = turn.board
    sites = board.sites
    n = len(sites)
    while True:
        r = rng.randrange(n * n + 2 * len(words))
        if r >= n * n:
            return words[(r - n * n) // 2]
        a, b = board.sorted_sites((sites[r // n], sites[r % n]))
        if pair_shape(turn, a, b) is None and pair_ok(turn, a, b):
            return Pair(a, b)
