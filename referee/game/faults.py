"""How a game ends early, and what the turn loop has gathered when it does (referee/game/match.py).

* :class:`Moves`: the actions played so far, their times and analysis, and who holds
  which colour; owned by one turn loop, carried by a forfeit.
* :class:`SeatFault`: the game ends early; `seat` (0 or 1) is the seat at fault, None
  when neither is. :class:`VoidGame` (it does not count, with its `VoidCause`) and
  :class:`ForfeitGame` (the seat at fault loses, with its `Termination`) derive from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hexarena.engine.actions import Action
from hexarena.engine.core import Colour, Termination
from hexarena.engine.game import GameState
from hexarena.protocol.controller import ControllerError, EngineTimeout
from hexarena.results.record.game import VoidCause
from hexarena.results.record.moves import Move


def _seats_at_start() -> dict[Colour, int]:
    return {Colour.BLACK: 0, Colour.WHITE: 1}


@dataclass
class Moves:
    """The moves played so far (each with its times and analysis), and who holds which colour;
    `states`: every state of the game so far, the initial one first, and `played` the action that
    led to each next one (the referee's own replay of the game, for the report's viewer)."""

    moves: list[Move] = field(default_factory=list)
    holder: dict[Colour, int] = field(default_factory=_seats_at_start)
    opening: int = 0                 # the first `opening` actions are the schedule's opening
    identities: list[list[str | None]] | None = None   # [name, version] by seat, from the handshake
    states: list[GameState] = field(default_factory=list)
    played: list[Action] = field(default_factory=list)


class SeatFault(Exception):
    """How a game ends early: `seat` (0 or 1) is the seat at fault, None when neither is."""

    def __init__(self, reason: str, seat: int | None):
        super().__init__(reason)
        self.reason, self.seat = reason, seat


class VoidGame(SeatFault):
    def __init__(self, cause: VoidCause, reason: str, seat: int | None):
        super().__init__(reason, seat)
        self.cause = cause


class ForfeitGame(SeatFault):
    def __init__(self, seat: int, termination: Termination, reason: str, moves: Moves | None = None):
        super().__init__(reason, seat)
        self.seat: int = seat
        self.termination = termination
        self.moves = moves if moves is not None else Moves()


def fault_of(exc: ControllerError) -> Termination:
    """The forfeit an engine's controller error earns: time for a missed deadline, else crash."""
    return Termination.TIME if isinstance(exc, EngineTimeout) else Termination.CRASH
