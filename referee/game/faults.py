"""How one game ends, as the values the referee's game code returns (referee/game/match.py,
handshake.py); no ending of a game is an exception.

* :class:`Finished`: the game ended in play: by the rules, the ply cap, a resignation or an
  adjudication (with its journal form).
* :class:`Forfeited`: the seat at fault (0 or 1) loses, with its `Termination`.
* :class:`Voided`: the game does not count, with its `VoidCause`; `seat` is the seat that
  failed, None when neither did.
* :class:`Played`: what the turn loop returns: its ending (finished or forfeited) and what
  was played until then: the moves, who holds which colour, the opening's length, the engines'
  identities, and the referee's own states and actions (for the report's viewer).

:func:`fault_of` is the forfeit a controller error of the channel earns; the game code turns
each such error into an ending where it talks to the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hexarena.engine.actions import Action
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.engine.game import GameState
from hexarena.protocol.controller import ControllerError, EngineTimeout
from hexarena.results.record.game import VoidCause
from hexarena.results.record.moves import Move


@dataclass(frozen=True, slots=True)
class Finished:
    """Ended in play: `outcome` by colour, the referee's `reason`, and for an adjudicated game
    the adjudication's journal form (referee/game/adjudication.py)."""

    outcome: Outcome
    reason: str
    adjudication: dict | None = None


@dataclass(frozen=True, slots=True)
class Forfeited:
    """Seat `seat` (0 or 1) is at fault and loses by `termination` (time, illegal, malformed, crash)."""

    seat: int
    termination: Termination
    reason: str


@dataclass(frozen=True, slots=True)
class Voided:
    """The game does not count (`cause`); `seat` failed (None: neither seat did)."""

    cause: VoidCause
    reason: str
    seat: int | None


End = Finished | Forfeited | Voided


def at_fault(end: End) -> int | None:
    """The seat at fault for an ending: a forfeit's loser, the seat a void names; None when
    the game finished in play."""
    return None if isinstance(end, Finished) else end.seat


def seats_at_start() -> dict[Colour, int]:
    """Who holds which colour before any action: seat 1 (0) Black, seat 2 (1) White."""
    return {Colour.BLACK: 0, Colour.WHITE: 1}


@dataclass(frozen=True)
class Played:
    """A game that ended in play or by a forfeit: its `end`, its `moves` (first first),
    `holder` (the seat holding each colour when it ended: a forfeit's loser is read from it),
    `opening` (how many of the first moves were the schedule's opening), `identities`
    ([name, version] by seat from the handshake; None when it did not end), and `states`
    (every state, the initial one first) with the `actions` between them: the referee's own
    replay, empty for a forfeit in the handshake."""

    end: Finished | Forfeited
    moves: tuple[Move, ...] = ()
    holder: dict[Colour, int] = field(default_factory=seats_at_start)
    opening: int = 0
    identities: list[list[str | None]] | None = None
    states: tuple[GameState, ...] = ()
    actions: tuple[Action, ...] = ()

    def outcome(self) -> Outcome:
        """Who won, by colour, and how: a forfeit's loser is the colour its seat held."""
        if isinstance(self.end, Finished):
            return self.end.outcome
        loser = next(c for c, s in self.holder.items() if s == self.end.seat)
        return Outcome(loser.other, self.end.termination)


def fault_of(exc: ControllerError) -> Termination:
    """The forfeit an engine's controller error earns: time for a missed deadline, else crash."""
    return Termination.TIME if isinstance(exc, EngineTimeout) else Termination.CRASH
