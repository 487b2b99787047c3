"""What an engine has been told about its clock (HGP 1.1, "Clocks"): values only.

The engine side fills these from `time_settings`, `kgs-time_settings` and
`time_left`; a bot's serving loop turns them into a budget for one move.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ClockKind(StrEnum):
    """The kinds of `kgs-time_settings`; `time_settings M B S` is `absolute` (B = 0) or `canadian`."""
    NONE = "none"
    ABSOLUTE = "absolute"
    BYOYOMI = "byoyomi"
    CANADIAN = "canadian"
    FISCHER = "fischer"


@dataclass(frozen=True)
class TimeControl:
    """A game's time control as announced. Seconds as floats.

    main: main time; increment: Fischer's bonus after each move; period: the
    length of one byo-yomi or Canadian period; periods: byo-yomi periods;
    stones: Canadian stones per period.
    """
    kind: ClockKind
    main: float = 0.0
    increment: float = 0.0
    period: float = 0.0
    periods: int = 0
    stones: int = 0


@dataclass(frozen=True)
class TimeLeft:
    """One `time_left COLOUR T S`: seconds left and S (stones or periods left; 0 in main time or Fischer)."""
    seconds: float
    count: int = 0


@dataclass(frozen=True)
class MoveClock:
    """What a bot knows about its clock when asked for a move; both parts may be unknown (None)."""
    control: TimeControl | None = None
    left: TimeLeft | None = None
