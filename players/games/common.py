"""Board arithmetic shared by the per-game evaluations (public engine geometry only)."""
from __future__ import annotations

import random

from hexarena.engine.actions import Action, Place
from hexarena.engine.core import Colour
from hexarena.engine.game import StoneState
from hexarena.engine.geometry import Hexagon, iter_bits


def stones(state: StoneState, colour: Colour) -> int:
    """The bitboard of `colour`'s stones (StoneState's `black`/`white`)."""
    return state.black if colour is Colour.BLACK else state.white


def sign(colour: Colour) -> int:
    """+1 for Black, -1 for White: turns a colour's score into Black's advantage."""
    return 1 if colour is Colour.BLACK else -1


def safety(groups: list[tuple[int, int]]) -> float:
    """Stones weighted by how safe their group is (Anda's smothering rule), from a colour's
    groups as (stones, safe breaths) (the state's ``summary``: a breath is *safe* for a group
    when it touches no enemy group, territory, or two or more, which cannot smother alone).
    No safe breath: the group is smothered (-1 a stone); one: it can be smothered by one
    move (-0.4 a stone); two or more: alive (+0.3 a stone)."""
    total = 0.0
    for size, safe in groups:
        total += -1.0 * size if safe == 0 else (-0.4 * size if safe == 1 else 0.3 * size)
    return total


def sight(board: Hexagon, own: int, enemy: int) -> int:
    """The sites that see a stone of `own` along a line with no `enemy` stone between."""
    passable = board.mask & ~enemy
    seen = 0
    for d in range(6):
        reach = own
        while True:
            nxt = reach | (board.shift(reach, d) & passable)
            if nxt == reach:
                break
            reach = nxt
        seen |= reach & ~own
    return seen


def placement_order(board: Hexagon, own: int, enemy: int, sites: int, others: list[Action],
                    rng: random.Random) -> list[Action]:
    """Placements on `sites` and the `others`, in the order MCTS should try them *last
    first* (it pops from the end): the rest (shuffled, `others` among them), then the
    placements next to an enemy stone (fights, shuffled), then those joining two or more
    of the mover's groups (shuffled; in the Anda games the usual way to smother every lone
    enemy group at once: tried first, the search sees it early)."""
    empty = board.mask & ~(own | enemy)
    near_enemy = board.adjacent(enemy) & empty
    joining = 0
    groups = board.components(own)
    if len(groups) >= 2:
        seen = 0
        for g in groups:
            around = board.adjacent(g) & empty
            joining |= around & seen
            seen |= around
    rest: list[Action] = [Place(s) for s in iter_bits(sites & ~near_enemy & ~joining)]
    rest += others
    rng.shuffle(rest)
    fights: list[Action] = [Place(s) for s in iter_bits(sites & near_enemy & ~joining)]
    joins: list[Action] = [Place(s) for s in iter_bits(sites & joining)]
    rng.shuffle(fights)
    rng.shuffle(joins)
    return rest + fights + joins
