"""The board as the players' evaluations read it (players/games/vaxandis.py): the state's
``summary``, here from the state's fields (the core's state answers it in the core).

* a stack is **frozen** here when an enemy stack next to it is higher (the players' measure,
  stack by stack, whatever the variant's ``freeze=``);
* a colour's **tallest** heights: its stacks' heights, tallest first.
"""
from __future__ import annotations

from ...geometry import Hexagon
from .moves import Levels

#: (Black's frozen stacks, White's, Black's tallest heights, White's, Black's actions, White's).
Summary = tuple[int, int, list[int], list[int], int, int]


def frozen_stacks(board: Hexagon, black: int, white: int, levels: Levels) -> tuple[int, int]:
    """(Black's frozen stacks, White's), each as a bitboard."""
    frozen_b = frozen_w = 0
    taller = 0                                    # sites of stacks taller than the current level
    for _, bb in reversed(levels):              # tallest first
        frozen_b |= bb & black & board.expand(taller & white)
        frozen_w |= bb & white & board.expand(taller & black)
        taller |= bb
    return frozen_b, frozen_w


def tallest(levels: Levels, stacks: int, k: int) -> list[int]:
    """The heights of the k tallest of `stacks` (a set of sites), tallest first (fewer if fewer)."""
    heights: list[int] = []
    for h, bb in reversed(levels):              # tallest first
        n = (bb & stacks).bit_count()
        if n:
            heights.extend([h] * min(n, k - len(heights)))
            if len(heights) == k:
                break
    return heights
