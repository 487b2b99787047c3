"""Anda-prison states to and from the position string (PROTOCOL.md "Position string").

Keys: `variant`, `phase`, `komi`, `prison=B,W`, `first`, `annihilated`, `last`, `ply`.
`last` follows from the phase, `first` and the side to move (see
AndaPrisonState.last): it is written for readers, and when given it must agree.
:func:`from_position` raises InvalidPosition naming the key that does not fit.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Colour
from ...errors import InvalidPosition
from ...game import Variant
from ...position import Position, format_colours, parse_colours, parse_count

if TYPE_CHECKING:
    from .state import AndaPrisonState

KEYS = ("variant", "phase", "komi", "prison", "first", "annihilated", "last", "ply")
BOTH = frozenset((Colour.BLACK, Colour.WHITE))
ONLY_WHITE = frozenset((Colour.WHITE,))


def to_position(state: AndaPrisonState) -> Position:
    stacks = {b: (Colour.BLACK, 1) for b in _bits(state.black)}
    stacks.update({b: (Colour.WHITE, 1) for b in _bits(state.white)})
    last = state.last
    keys = {
        "variant": state.variant.balance,
        "phase": state.phase,
        "komi": str(state.komi),
        "prison": f"{state.prison_black},{state.prison_white}",
        "first": format_colours(state.first),
        "annihilated": format_colours(state.annihilated),
        "last": last.value if last else "-",
        "ply": str(state.ply),
    }
    return Position("anda-prison", state.variant.size, state.to_move, stacks, keys)


def _bits(bb: int):
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def _fits(balance: str, phase: str, to_move: Colour, first: frozenset[Colour]) -> bool:
    """Whether the side to move and `first` fit the phase (the phase fitting the balance is checked before)."""
    black = to_move is Colour.BLACK
    if phase in ("pair", "corners"):
        return (black and first == BOTH) or (not black and first == ONLY_WHITE)
    if phase == "pair-swap":
        return not black and first == ONLY_WHITE
    if phase in ("swap", "komi"):
        return black and not first
    if phase == "komi-swap":
        return not black and not first
    if phase == "play" and balance == "nopie" and first:
        return (black and first == BOTH) or (not black and first == ONLY_WHITE)
    return not first


def from_position(variant: Variant, pos: Position) -> AndaPrisonState:
    """Validate and rebuild a state; InvalidPosition with the reason."""
    from .state import PHASES, PIE_PHASES, AndaPrisonState

    extra = set(pos.keys) - set(KEYS)
    if extra:
        raise InvalidPosition(f"anda-prison has no key {sorted(extra)[0]!r}")
    if any(h != 1 for _, h in pos.stacks.values()):
        raise InvalidPosition("anda-prison stones have no height")
    phase = pos.key("phase")
    if phase not in PHASES:
        raise InvalidPosition(f"phase={phase}: anda-prison phases are {', '.join(PHASES)}")
    allowed = {"pie": PIE_PHASES, "corners": ("corners",), "nopie": ()}[variant.balance]
    if phase not in allowed and phase not in ("play", "proposed", "declined", "agreed"):
        raise InvalidPosition(f"phase={phase} is not a phase of variant={variant.balance}")
    first = parse_colours(pos.key("first"), "first")
    if not _fits(variant.balance, phase, pos.to_move, first):
        raise InvalidPosition(f"phase={phase} does not fit {pos.to_move.name.lower()} to move "
                              f"with first={format_colours(first)}")
    komi = parse_count(pos.key("komi"), "komi")
    if komi and phase in ("pair", "pair-swap", "swap", "komi"):
        raise InvalidPosition(f"komi={komi} before the komi offer")
    prison = pos.key("prison").split(",")
    if len(prison) != 2 or not all(p.isdigit() for p in prison):
        raise InvalidPosition(f"prison={pos.key('prison')}: expected B,W (two whole numbers)")
    annihilated = parse_colours(pos.key("annihilated"), "annihilated")
    if len(annihilated) == 2:
        raise InvalidPosition("annihilated=bw: after one colour annihilates, the other never may")
    state = AndaPrisonState(variant, pos.to_move, parse_count(pos.key("ply"), "ply"),
                            pos.bitboard(Colour.BLACK), pos.bitboard(Colour.WHITE), phase, first,
                            int(prison[0]), int(prison[1]), annihilated, komi)
    last = pos.key("last")
    if last != "-":
        if last not in ("b", "w"):
            raise InvalidPosition(f"last={last}: expected b, w or -")
        if state.last is not Colour(last):
            should = state.last.value if state.last else "-"
            raise InvalidPosition(f"last={last} does not fit phase={phase} with "
                                  f"{pos.to_move.name.lower()} to move: it is {should}")
    return state
