"""The position string (docs/protocol.md, "The position string"): parse, format, and read keys.

``GAME SIZE TO_MOVE BOARD [KEY=VALUE ...]``. This module reads and writes the
text and owns the one reader of key values (:func:`read_keys`); each game
declares its keys (a tuple of :class:`Key`, in print order, with defaults) in
its ``GameInfo.keys`` and turns the values read into a state. There is no
central list of keys: a new game declares its own.

A position is taken as written: :func:`read_keys` checks that every value is
well formed (docs/protocol.md, "Well-formed positions") and nothing else; an absent key takes
its default, nothing is derived from the board.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .core import Colour
from .errors import InvalidPosition
from .geometry import MAX_SIZE, MIN_SIZE, hexagon
from .numbers import shown, whole

_SITE = re.compile(r"\.|[bw][0-9]*")

#: The tallest stack a position may hold: far past any game's (a Vaxandis stack grows by one a
#: move, under the ply cap), within what the compiled core's 32-bit heights hold.
MAX_HEIGHT = 1_000_000


@dataclass(frozen=True)
class Position:
    """A decoded position string. `stacks` maps a site's bit to (colour, height);
    `keys` holds the KEY=VALUE pairs as written (lower case), in the string's order."""

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


@dataclass(frozen=True)
class Key:
    """A key a game's position string may carry: its name, its default as text, and its
    reader (text, site count of the board) -> typed value, InvalidPosition when ill-formed."""

    name: str
    default: str
    read: Callable[[str, int], Any]


def parse_position(text: str) -> Position:
    """Read a position string; InvalidPosition with the reason on any defect of form.

    Keys are checked for form (KEY=VALUE, each once) only; which keys a game knows and
    their values are judged by :func:`read_keys` with the game's declaration."""
    fields = text.split()
    if len(fields) < 4:
        raise InvalidPosition("expected GAME SIZE TO_MOVE BOARD [KEY=VALUE ...]")
    game, size_text, mover, board = fields[:4]
    size = whole(size_text, "size", InvalidPosition)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidPosition(f"size {size} outside {MIN_SIZE}..{MAX_SIZE}")
    if mover.lower() not in ("b", "w"):
        raise InvalidPosition(f"side to move {shown(mover)} is not b or w")
    stacks = _parse_board(board.lower(), size)
    keys: dict[str, str] = {}
    for item in fields[4:]:
        name, eq, value = item.partition("=")
        name = name.lower()
        if not eq or not name or not value:
            raise InvalidPosition(f"{shown(item)} is not KEY=VALUE")
        if name in keys:
            raise InvalidPosition(f"key {shown(name)} given twice")
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
            raise InvalidPosition(f"row {ri + 1}: unexpected character in {shown(row)}")
        if len(tokens) != len(cols):
            raise InvalidPosition(f"row {ri + 1} has {len(tokens)} sites, expected {len(cols)}")
        for ci, tok in zip(cols, tokens):
            if tok == ".":
                continue
            height = whole(tok[1:], f"row {ri + 1}: height", InvalidPosition) if len(tok) > 1 else 1
            if not 1 <= height <= MAX_HEIGHT:
                raise InvalidPosition(f"row {ri + 1}: height {height} at {geo.name(ri * geo.width + ci)} "
                                      f"(a height is 1..{MAX_HEIGHT:,})")
            stacks[ri * geo.width + ci] = (Colour(tok[0]), height)
    return stacks


def read_keys(pos: Position, keys: Iterable[Key], also: Iterable[str] = ()) -> dict[str, Any]:
    """The typed value of every key in `keys` (its default when absent), for this position.

    `also` names keys read elsewhere (the variant and the options, which the registry
    reads into the Variant). InvalidPosition names a key the game does not have or a
    value that is not well formed; nothing else is judged."""
    keys = tuple(keys)
    known = {k.name for k in keys} | set(also)
    for name in pos.keys:
        if name not in known:
            raise InvalidPosition(f"{pos.game} has no key {shown(name)}")
    sites = hexagon(pos.size).site_count
    return {k.name: k.read(pos.keys.get(k.name, k.default), sites) for k in keys}


def format_position(pos: Position, order: Mapping[str, str], heights: bool = False) -> str:
    """The canonical string: the keys of `order` (name -> default, in print order) that
    `pos` holds off their default. ValueError for a key of `pos` not in `order`."""
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
    stray = set(pos.keys) - set(order)
    if stray:
        raise ValueError(f"{pos.game} declares no key {sorted(stray)[0]!r}")
    for name, default in order.items():
        value = pos.keys.get(name)
        if value is not None and value != default:
            out.append(f"{name}={value}")
    return " ".join(out)


# -- the readers of the key kinds docs/protocol.md defines -----------------------------------------

def parse_colours(text: str, key: str) -> frozenset[Colour]:
    """`b`, `w`, `bw` or `-` as a set of colours."""
    if text == "-":
        return frozenset()
    if not text or any(ch not in "bw" for ch in text) or len(set(text)) != len(text):
        raise InvalidPosition(f"{key}={text}: expected b, w, bw or -")
    return frozenset(Colour(ch) for ch in text)


def format_colours(colours: Iterable[Colour]) -> str:
    chosen = set(colours)
    s = "".join(c.value for c in (Colour.BLACK, Colour.WHITE) if c in chosen)
    return s or "-"


def parse_count(text: str, key: str) -> int:
    return whole(text, f"{key}=", InvalidPosition)


def count_key(name: str) -> Key:
    """A whole number >= 0, default 0 (`ply`)."""
    return Key(name, "0", lambda text, sites: parse_count(text, name))


def komi_key() -> Key:
    """`komi=` 0..sites, default 0."""
    def read(text: str, sites: int) -> int:
        k = parse_count(text, "komi")
        if k > sites:
            raise InvalidPosition(f"komi={k}: expected 0..{sites}")
        return k
    return Key("komi", "0", read)


def colours_key(name: str) -> Key:
    """A set of colours, `b`, `w`, `bw` or `-` (default)."""
    return Key(name, "-", lambda text, sites: parse_colours(text, name))


def colour_key(name: str) -> Key:
    """One colour or none: `b`, `w` or `-` (default); the value is a Colour or None."""
    def read(text: str, sites: int) -> Colour | None:
        if text == "-":
            return None
        if text not in ("b", "w"):
            raise InvalidPosition(f"{name}={text}: expected b, w or -")
        return Colour(text)
    return Key(name, "-", read)


def pair_key(name: str) -> Key:
    """Two whole numbers >= 0, `B,W`, default `0,0` (`prison=`)."""
    def read(text: str, sites: int) -> tuple[int, int]:
        parts = text.split(",")
        if len(parts) != 2:
            raise InvalidPosition(f"{name}={text}: expected B,W (two whole numbers)")
        return whole(parts[0], f"{name} of black", InvalidPosition), whole(parts[1], f"{name} of white", InvalidPosition)
    return Key(name, "0,0", read)


def phase_key(game: str, phases: type[StrEnum], default: StrEnum) -> Key:
    """`phase=`: a phase word of the game (docs/protocol.md, "Phase names"); the value is the enum member."""
    def read(text: str, sites: int) -> StrEnum:
        try:
            return phases(text)
        except ValueError:
            raise InvalidPosition(f"phase={text}: {game} phases are "
                                  f"{', '.join(p.value for p in phases)}") from None
    return Key("phase", default.value, read)
