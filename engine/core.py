"""Colours, terminations and outcomes shared by every game."""
from __future__ import annotations

import enum
from dataclasses import dataclass


class Colour(enum.Enum):
    BLACK = "b"
    WHITE = "w"

    __hash__ = object.__hash__      # members are singletons: identity, in C (Enum's hashes the name in Python)

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @property
    def word(self) -> str:
        """`black` or `white`, the protocol's word (`play black e5`, diagrams, messages)."""
        return "black" if self is Colour.BLACK else "white"

    @property
    def letter(self) -> str:
        """`B` or `W`, as in SGF and `final_score`."""
        return self.value.upper()

    @classmethod
    def parse(cls, text: str) -> Colour:
        """`black`, `b`, `white`, `w` in any case; ValueError otherwise."""
        t = text.lower()
        if t in ("b", "black"):
            return cls.BLACK
        if t in ("w", "white"):
            return cls.WHITE
        raise ValueError(f"not a colour: {text!r}")


class Termination(enum.Enum):
    """Why a game ended. The first group is decided by the rules, the second by the referee."""

    NO_MOVES = "no-moves"          # the player to move has no legal action
    GOAL = "goal"                  # a colour reached the goal the game's rules define (a connection, a ring)
    ELIMINATED = "eliminated"      # a colour has no stones left (Anda)
    AGREEMENT = "agreement"        # an accepted proposal, scored (Anda-prison)
    PLY_CAP = "ply-cap"            # the referee's cap, adjudicated
    ADJUDICATED = "adjudicated"    # the referee's adjudication on the engines' winrates
    RESIGN = "resign"
    TIME = "time"                  # an engine past its deadline
    ILLEGAL = "illegal"            # an illegal action
    MALFORMED = "malformed"        # an answer that is not an action of the game
    CRASH = "crash"                # the engine died or broke the protocol mid-game


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: winner None is a draw; score is set only for scored endings."""

    winner: Colour | None
    termination: Termination
    score: float | None = None

    def result(self) -> str:
        """The SGF RE value / `final_score` text: `B+`, `W+R`, `B+2.5`, `0`."""
        if self.winner is None:
            return "0"
        suffix = {Termination.RESIGN: "R", Termination.TIME: "T"}.get(self.termination, "")
        if self.termination in (Termination.ILLEGAL, Termination.MALFORMED, Termination.CRASH):
            suffix = "F"
        if self.score is not None:
            suffix = format_score(self.score)
        return f"{self.winner.letter}+{suffix}"


def format_score(margin: float) -> str:
    """A margin without decimals when whole: 2.0 -> `2`, 2.5 -> `2.5`."""
    return str(int(margin)) if float(margin).is_integer() else repr(float(margin))
