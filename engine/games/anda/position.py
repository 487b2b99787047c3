"""Anda's position keys: reading them and judging whether a rebuilt state can occur.

Used by ``engine.anda.from_position``; every defect raises InvalidPosition with
the reason. Keys (PROTOCOL.md): ``variant``, ``opening`` (read by the registry
into the Variant), ``phase`` (offer, answer, play), ``komi``, ``first``, ``ply``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Colour
from ...errors import InvalidPosition
from ...position import Position, parse_colours, parse_count

if TYPE_CHECKING:
    from .state import AndaState

BOTH = frozenset((Colour.BLACK, Colour.WHITE))
PHASES = ("offer", "answer", "play")
KEYS = frozenset(("variant", "opening", "phase", "komi", "first", "ply"))


def read_keys(pos: Position) -> tuple[int, frozenset[Colour], str, int]:
    """(komi, first, phase, ply) of a position, after checking its keys and its stones."""
    extra = sorted(set(pos.keys) - KEYS)
    if extra:
        raise InvalidPosition(f"anda has no key {extra[0]!r}")
    if any(h != 1 for _, h in pos.stacks.values()):
        raise InvalidPosition("anda stones have no heights")
    phase = pos.key("phase")
    if phase not in PHASES:
        raise InvalidPosition(f"phase={phase}: expected one of {', '.join(PHASES)}")
    komi = parse_count(pos.key("komi"), "komi")
    first = parse_colours(pos.key("first"), "first")
    ply = parse_count(pos.key("ply"), "ply")
    return komi, first, phase, ply


def check(state: AndaState) -> None:
    """InvalidPosition unless the state fits its phase and can go on (or is over) by the rules."""
    board = state.board
    stones = state.black | state.white
    sites = board.site_count
    if state.variant.balance == "pie" and state.komi > sites:
        raise InvalidPosition(f"komi={state.komi} exceeds the {sites} sites of the pie's offer")
    if state.phase != "play":
        if state.variant.balance != "pie":
            raise InvalidPosition(f"phase={state.phase} exists only with the pie")
        if stones or state.first != BOTH:
            raise InvalidPosition(f"phase={state.phase} needs an empty board and first=bw")
        want = Colour.BLACK if state.phase == "offer" else Colour.WHITE
        if state.to_move is not want or (state.phase == "offer" and state.komi):
            raise InvalidPosition(f"phase={state.phase}: {want.name.lower()} to move, komi offered "
                                  + ("not yet" if want is Colour.BLACK else "already"))
        return
    if state.first == BOTH and (stones or state.to_move is not Colour.BLACK):
        raise InvalidPosition("first=bw needs an empty board and black to move")
    if state.first == frozenset((Colour.BLACK,)):
        raise InvalidPosition("first=b: black's first turn comes before white's")
    if state.first == frozenset((Colour.WHITE,)):
        if state.white or state.to_move is not Colour.WHITE:
            raise InvalidPosition("first=w needs no white stones and white to move")
        if not any(True for _ in state.legal_actions()):
            raise InvalidPosition("white has no first-turn pair left")
    if not state.first:
        if not stones:
            raise InvalidPosition("no stones after both first turns")
        own, other = (state.black, state.white) if state.to_move is Colour.BLACK else (state.white, state.black)
        if own and other and not board.adjacent(own) & ~stones and not state.can_pass():
            raise InvalidPosition(f"{state.to_move.name.lower()} has stones but no legal action")
