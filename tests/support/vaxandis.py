"""Vaxandis for tests: readable positions and a naive rules oracle.

The oracle re-implements docs/rules/vaxandis.md with dicts and per-site loops,
independently of engine/vaxandis_moves.py, so the bitboard code can be
compared with it on many positions.
"""
from __future__ import annotations

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.position import Position, format_position
from hexarena.engine.games.vaxandis.state import RULES, VaxandisState


def board(spec: str, to_move: str = "b", size: int = 5, **keys: str) -> VaxandisState:
    """A state from `"B1 e5 e8 / W2 e6 / W a1"`: colour letter, optional height, then sites.

    Goes through the position string and registry.from_position. Keys are
    position keys (variant defaults to nopie here, phase to play).
    """
    geo = RULES.variant(size).board
    stacks: dict[int, tuple[Colour, int]] = {}
    for part in spec.split("/"):
        words = part.split()
        if not words:
            continue
        head, sites = words[0], words[1:]
        colour = Colour(head[0].lower())
        height = int(head[1:]) if len(head) > 1 else 1
        for name in sites:
            bit = geo.parse(name)
            assert bit not in stacks, name
            stacks[bit] = (colour, height)
    keys = {"variant": "nopie", **keys}
    text = format_position(Position("vaxandis", size, Colour(to_move), stacks, keys),
                           RULES.position_defaults(), heights=True)
    state = registry.from_position(text)
    assert isinstance(state, VaxandisState)
    return state


def names(state: VaxandisState, actions) -> set[str]:
    return {state.format(a) for a in actions}


def stacks_of(state: VaxandisState) -> dict[str, str]:
    """Site name -> `b2` style, for readable assertions."""
    return {state.board.name(b): c.value + str(h) for b, (c, h) in state.to_position().stacks.items()}


# -- the oracle ---------------------------------------------------------------------------
def _read(state: VaxandisState):
    pos = state.to_position()
    colour = {b: c for b, (c, _) in pos.stacks.items()}
    height = {b: h for b, (_, h) in pos.stacks.items()}
    return colour, height


def _group(geo, start: int, members: set[int], colour, height) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        b = todo.pop()
        for nb in geo.neighbours[b]:
            if nb in members and nb not in seen and colour[nb] == colour[start] and height[nb] == height[start]:
                seen.add(nb)
                todo.append(nb)
    return seen


def _frozen(state, geo, colour, height, src: int) -> bool:
    def stuck(b: int) -> bool:
        return any(nb in colour and colour[nb] != colour[b] and height[nb] > height[b] for nb in geo.neighbours[b])
    if state.variant.option("freeze") == "group":
        return any(stuck(b) for b in _group(geo, src, set(colour), colour, height))
    return stuck(src)


def naive_moves(state: VaxandisState) -> dict[tuple[int, int], set[int]]:
    """(src, dst) -> the set of friendly stacks touched, for every legal move."""
    geo = state.board
    colour, height = _read(state)
    me = state.to_move
    path_touch = state.variant.option("touch") == "path"
    out = {}
    for src in [b for b, c in colour.items() if c is me]:
        if _frozen(state, geo, colour, height, src):
            continue
        for ray in geo.rays[src]:
            jumped, empties = [], []
            for p in ray:
                if p in colour:
                    if height[p] > height[src]:
                        break
                    jumped.append(p)
                    continue
                empties.append(p)
                looked = empties if path_touch else [p]
                touched = {j for j in jumped if colour[j] is me}
                touched |= {q for s in looked for q in geo.neighbours[s]
                            if q != src and colour.get(q) is me}
                if touched:
                    out[(src, p)] = touched
    return out


def naive_after(state: VaxandisState, src: int, dst: int, touched: set[int]) -> dict[int, tuple[Colour, int]]:
    """The stacks after a legal move, by the rule text: touched groups (mover taken out) grow once."""
    geo = state.board
    colour, height = _read(state)
    mover_h = height.pop(src)
    mover_c = colour.pop(src)
    grow: set[int] = set()
    for t in touched:
        grow |= _group(geo, t, set(colour), colour, height)
    after = {b: (colour[b], height[b] + (b in grow)) for b in colour}
    after[dst] = (mover_c, mover_h + 1)
    return after


def naive_places(state: VaxandisState) -> set[int]:
    geo = state.board
    colour, _ = _read(state)
    return {b for b in geo.sites if b not in colour and not any(nb in colour for nb in geo.neighbours[b])}
