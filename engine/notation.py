"""Action tokens (docs/protocol.md, "Actions per game"): one decoder and one encoder.

A token that is not one of the forms the game defines raises InvalidNotation
(`syntax error`); a well-formed token naming an off-board or repeated site
raises IllegalMove. Input is case-insensitive; set-like parts are returned in
canonical order; output is canonical and lower case.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from .actions import WORDS, Action, Grow, Komi, Move, Pair, PieStones, Place, Resign, Split
from .errors import IllegalMove, InvalidNotation
from .geometry import Hexagon
from .numbers import shown, whole

_C = r"[a-z][0-9]+"
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"({_C})\Z"), "cell"),
    (re.compile(rf"({_C}),({_C})\Z"), "two"),
    (re.compile(rf"({_C})/({_C}(?:,{_C})*)\Z"), "split"),
    (re.compile(rf"({_C})-({_C})\Z"), "move"),
    (re.compile(rf"({_C}):({_C}(?:,{_C})*)\Z"), "grow"),
    (re.compile(r"komi=([0-9]+)\Z"), "komi"),
)


@functools.lru_cache(maxsize=1 << 12)
def parse_action(token: str, board: Hexagon, forms: frozenset[type]) -> Action:
    """Decode one token for a game whose action classes are `forms` (Resign is always allowed).
    Actions are immutable values, so the most recent 4,096 decoded tokens are kept: a replay of
    many games decodes a board's common tokens once (a cap that keeps ~1.5 MB: Spelde's tokens
    with their flips are mostly distinct, and a long run must not hold every one it has read)."""
    t = token.strip().lower()
    word = WORDS.get(t)
    if word is not None:
        if word is Resign or word in forms:
            return word()
        raise InvalidNotation(f"{shown(t)} is not an action of this game")
    for pattern, shape in _SHAPES:
        m = pattern.match(t)
        if m:
            return _build(shape, m, t, board, forms)
    raise InvalidNotation(f"not an action: {shown(token)}")


@functools.lru_cache(maxsize=1 << 12)
def read_action(token: str, board: Hexagon, forms: frozenset[type]) -> tuple[Action, str]:
    """:func:`parse_action` and the canonical token of the action it decodes (:func:`format_action`),
    the most recent 4,096 tokens kept (the referee reads each engine's answer so)."""
    action = parse_action.__wrapped__(token, board, forms)
    return action, format_action(action, board)


def _build(shape: str, m: re.Match[str], t: str, board: Hexagon, forms: frozenset[type]) -> Action:
    def want(cls: type) -> None:
        if cls not in forms:
            raise InvalidNotation(f"{shown(t)} is not an action of this game")

    if shape == "komi":
        want(Komi)
        return Komi(whole(m.group(1), "komi="))
    if shape == "cell":
        want(Place)
        return Place(board.parse(m.group(1)))
    if shape == "two":
        if Pair in forms:
            a, b = _distinct(board, [m.group(1), m.group(2)], t)
            a, b = board.sorted_sites((a, b))
            return Pair(a, b)
        want(PieStones)
        a, b = _distinct(board, [m.group(1), m.group(2)], t)
        return PieStones(a, b)
    if shape == "split":
        want(Split)
        cells = _distinct(board, [m.group(1), *m.group(2).split(",")], t)
        flips = 0
        for c in cells[1:]:
            flips |= 1 << c
        return Split(cells[0], flips)
    if shape == "move":
        want(Move)
        a, b = _distinct(board, [m.group(1), m.group(2)], t)
        return Move(a, b)
    want(Grow)
    cells = _distinct(board, [m.group(1), *m.group(2).split(",")], t)
    return Grow(cells[0], tuple(board.sorted_sites(cells[1:])))


def _distinct(board: Hexagon, names: list[str], t: str) -> list[int]:
    cells = [board.parse(x) for x in names]   # syntax checked by the pattern; off-board raises IllegalMove
    if len(set(cells)) != len(cells):
        raise IllegalMove(f"{shown(t)}: a site is named twice")
    return cells


def format_action(action: Action, board: Hexagon) -> str:
    """The canonical token of an action; IllegalMove for one naming a site past the board's grid
    (a negative or too large bit, which has no name)."""
    name = board.name
    match action:
        case Place(cell):
            return name(cell)
        case Pair(a, b):
            return ",".join(name(x) for x in _in_order(board, (a, b), action))
        case PieStones(black, white):
            return f"{name(black)},{name(white)}"
        case Split(cell, flips):
            return f"{name(cell)}/" + ",".join(board.names(flips))
        case Move(src, dst):
            return f"{name(src)}-{name(dst)}"
        case Grow(root, branches):
            return f"{name(root)}:" + ",".join(name(x) for x in _in_order(board, branches, action))
        case Komi(k):
            return f"komi={k}"
    for word, cls in WORDS.items():
        if type(action) is cls:
            return word
    raise TypeError(f"not an action: {action!r}")


def _in_order(board: Hexagon, sites: Iterable[int], action: Action) -> list[int]:
    """`sites` in canonical order; IllegalMove when one is too large to have a place in it."""
    try:
        return board.sorted_sites(sites)
    except IndexError:
        raise IllegalMove(f"{shown(repr(action), quote=False)} names a site off the board") from None
