"""Typed actions: the only form in which moves travel into the rules.

Sites are bit indices of the board the action is played on (see
``engine.geometry``). Set-like fields are tuples in canonical order (column,
then row), or a bitboard (Spelde's flips); ``engine.notation`` builds them
so, and games emit them so, which makes equal actions compare and hash equal.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from .core import Colour

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Place:
    """One stone (Vaxandis: a height-1 stack; Marbanta: a root that sees one group)."""

    cell: int


@dataclass(frozen=True, slots=True)
class Pair:
    """The two-stone first turn or setup pair of the Anda games; cells sorted."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Split:
    """Spelde: place on `cell` and flip the stones of `flips`, a non-empty bitboard.

    A bitboard rather than a tuple: flip sets are large and numerous, and a
    bitboard is canonical without sorting (the token lists them sorted)."""

    cell: int
    flips: int


@dataclass(frozen=True, slots=True)
class Move:
    """Vaxandis: move the stack on `src` to `dst`."""

    src: int
    dst: int


@dataclass(frozen=True, slots=True)
class Grow:
    """Marbanta: root `root` and branched stones `branches` (non-empty, sorted)."""

    root: int
    branches: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PieStones:
    """Marbanta's two-stone pie: a black stone and a white stone (order matters)."""

    black: int
    white: int


@dataclass(frozen=True, slots=True)
class Komi:
    """A komi offer of k (Anda: White's passes; Anda-prison: black stones into the prison)."""

    k: int


@dataclass(frozen=True, slots=True)
class Swap:
    pass


@dataclass(frozen=True, slots=True)
class Keep:
    pass


@dataclass(frozen=True, slots=True)
class Pass:
    """Anda: White spends one komi point."""


@dataclass(frozen=True, slots=True)
class Release:
    """Anda-prison: take one enemy-coloured stone out of the prison."""


@dataclass(frozen=True, slots=True)
class Propose:
    pass


@dataclass(frozen=True, slots=True)
class Accept:
    pass


@dataclass(frozen=True, slots=True)
class Decline:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    """Concede; the answer to `genmove` only, never a member of legal_actions."""


Action = Place | Pair | Split | Move | Grow | PieStones | Komi | Swap | Keep | Pass | Release | Propose | Accept | Decline | Resign

#: The one-word actions and their tokens.
WORDS: dict[str, type] = {
    "swap": Swap, "keep": Keep, "pass": Pass, "release": Release,
    "propose": Propose, "accept": Accept, "decline": Decline, "resign": Resign,
}


def holder_after(mover: Colour, action: Action) -> Colour:
    """The colour the player who made `action` (moving as `mover`) holds afterwards.

    The one rule of colour exchange: after `swap` the players exchange colours, so the
    mover holds the other colour; after every other action it keeps its own."""
    return mover.other if type(action) is Swap else mover


def holders_after(holders: Mapping[Colour, T], action: Action) -> dict[Colour, T]:
    """Who holds which colour after `action` (by :func:`holder_after`), given who held which before."""
    return {holder_after(colour, action): who for colour, who in holders.items()}
