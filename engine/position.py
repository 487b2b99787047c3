"""The position string (PROTOCOL.md, "Position string"): parse and format.

``GAME SIZE TO_MOVE BOARD [KEY=VALUE ...]``. This module reads and writes the
text; each game turns a :class:`Position` into a state and back and judges
whether the keys make sense for it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .core import Colour
from .errors import InvalidPosition
from .geometry import MAX_SIZE, MIN_SIZE, hexagon

#: Every key, in the order `position` prints them.
KEY_ORDER = ("variant", "opening", "flips", "freeze", "touch", "phase", "komi",
             "prison", "first", "annihilated", "last", "ply")
#: Defaults of the keys that are not game options.
COMMON_DEFAULTS = {"variant": "pie", "phase": "play", "komi": "0", "prison": "0,0",
                   "first": "-", "annihilated": "-", "last": "-", "ply": "0"}

_SITE = re.compile(r"\.|[bw][0-9]*")


@dataclass(frozen=True)
class Position:
    """A decoded position string. `stacks` maps a site's bit to (colour, height)."""

    game: str
    size: int
    to_move: Colour
    stacks: dict[int, tuple[Colour, int]]
    keys: dict[str, str] = field(default_factory=dict)

    def bitboard(self, colour: Colour) -> int:
        bb = 0
        for bit, (c, _) in self.stacks.items():
            if c is colour:
                bb |= 1 << bit
        return bb

    def key(self, name: str, default: str | None = None) -> str:
        if name in self.keys:
            return self.keys[name]
        if default is not None:
            return default
        return COMMON_DEFAULTS[name]


def parse_position(text: str) -> Position:
    """Read a position string; InvalidPosition with the reason on any defect of form."""
    fields = text.split()
    if len(fields) < 4:
        raise InvalidPosition("expected GAME SIZE TO_MOVE BOARD [KEY=VALUE ...]")
    game, size_text, mover, board = fields[:4]
    if not size_text.isdigit():
        raise InvalidPosition(f"size {size_text!r} is not a number")
    size = int(size_text)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidPosition(f"size {size} outside {MIN_SIZE}..{MAX_SIZE}")
    if mover.lower() not in ("b", "w"):
        raise InvalidPosition(f"side to move {mover!r} is not b or w")
    stacks = _parse_board(board.lower(), size)
    keys: dict[str, str] = {}
    for item in fields[4:]:
        name, eq, value = item.partition("=")
        name = name.lower()
        if not eq or not value:
            raise InvalidPosition(f"{item!r} is not KEY=VALUE")
        if name not in KEY_ORDER:
            raise InvalidPosition(f"unknown key {name!r}")
        if name in keys:
            raise InvalidPosition(f"key {name!r} given twice")
        keys[name] = value.lower()
    return Position(game.lower(), size, Colour(mover.lower()), stacks, keys)


def _parse_board(board: str, n: int) -> dict[int, tuple[Colour, int]]:
    geo = hexagon(n)
    rows = board.split("/")
    if len(rows) != 2 * n - 1:
        raise InvalidPosition(f"board has {len(rows)} rows, side {n} needs {2 * n - 1}")
    stacks: dict[int, tuple[Colour, int]] = {}
    for ri, row in enumerate(rows):
        cols = [ci for ci in range(2 * n - 1) if abs(ci - ri) <= n - 1]
        tokens = _SITE.findall(row)
        if "".join(tokens) != row:
            raise InvalidPosition(f"row {ri + 1}: unexpected character in {row!r}")
        if len(tokens) != len(cols):
            raise InvalidPosition(f"row {ri + 1} has {len(tokens)} sites, expected {len(cols)}")
        for ci, tok in zip(cols, tokens):
            if tok == ".":
                continue
            height = int(tok[1:]) if len(tok) > 1 else 1
            if height < 1:
                raise InvalidPosition(f"row {ri + 1}: height {height} at {geo.name(ri * geo.width + ci)}")
            stacks[ri * geo.width + ci] = (Colour(tok[0]), height)
    return stacks


def format_position(pos: Position, defaults: dict[str, str], heights: bool = False) -> str:
    """The canonical string: keys equal to their default (`defaults` over COMMON_DEFAULTS) are left out."""
    geo = hexagon(pos.size)
    n = pos.size
    rows = []
    for ri in range(2 * n - 1):
        cells = []
        for ci in range(2 * n - 1):
            if abs(ci - ri) > n - 1:
                continue
            st = pos.stacks.get(ri * geo.width + ci)
            if st is None:
                cells.append(".")
            else:
                cells.append(st[0].value + (str(st[1]) if heights else ""))
        rows.append("".join(cells))
    out = [pos.game, str(n), pos.to_move.value, "/".join(rows)]
    all_defaults = {**COMMON_DEFAULTS, **defaults}
    for name in KEY_ORDER:
        value = pos.keys.get(name)
        if value is not None and value != all_defaults.get(name):
            out.append(f"{name}={value}")
    return " ".join(out)


def parse_colours(text: str, key: str) -> frozenset[Colour]:
    """`b`, `w`, `bw` or `-` as a set of colours."""
    if text == "-":
        return frozenset()
    if not text or any(ch not in "bw" for ch in text) or len(set(text)) != len(text):
        raise InvalidPosition(f"{key}={text}: expected b, w, bw or -")
    return frozenset(Colour(ch) for ch in text)


def format_colours(colours) -> str:
    s = "".join(c.value for c in (Colour.BLACK, Colour.WHITE) if c in colours)
    return s or "-"


def parse_count(text: str, key: str) -> int:
    if not text.isdigit():
        raise InvalidPosition(f"{key}={text}: expected a whole number >= 0")
    return int(text)
