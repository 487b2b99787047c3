"""Time limits and the per-game Fischer clock. Pure: times are plain seconds.

The referee reads the time from ``trio.current_time()`` and hands elapsed
seconds to :class:`Clock`; nothing here reads a clock itself, so the logic
is tested without waiting.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The time rules of a game, in seconds.

    * ``move``: the longest a `genmove` may take (always applies).
    * ``main``/``increment``: optional Fischer clock per engine per game;
      a `genmove` may then take at most ``min(move, time left)``, and each
      answered move adds ``increment`` to the mover's time left.
    * ``start``: deadline for the first answer of a new engine
      (`protocol_version`), which includes its start-up.
    * ``command``: deadline for every other command (`play`, `game`, ...).

    ValueError on a non-positive limit or a negative main time or increment.
    """

    move: float = 10.0
    main: float | None = None
    increment: float = 0.0
    start: float = 30.0
    command: float = 10.0

    def __post_init__(self) -> None:
        for name in ("move", "start", "command"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"time limit {name!r} must be a positive number of seconds, got {value!r}")
        if self.main is not None and not (math.isfinite(self.main) and self.main > 0):
            raise ValueError(f"main time must be a positive number of seconds, got {self.main!r}")
        if not (math.isfinite(self.increment) and self.increment >= 0):
            raise ValueError(f"increment must be >= 0 seconds, got {self.increment!r}")

    def time_settings(self) -> tuple[str, str, str]:
        """Arguments of GTP `time_settings M B S` describing these limits.

        With a Fischer clock: main time, no byo-yomi (`time_left` then tells
        the engine its real time before each move). Without one: no main
        time and a byo-yomi period of ``move`` seconds per stone.
        """
        if self.main is not None:
            return (str(int(self.main)), "0", "0")
        return ("0", str(max(1, math.floor(self.move))), "1")


class Clock:
    """The two seats' remaining time in one game (seat 0 and seat 1)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.left: list[float | None] = [limits.main, limits.main]

    def budget(self, seat: int) -> float:
        """Seconds the seat may spend on its next `genmove`."""
        left = self.left[seat]
        return self.limits.move if left is None else min(self.limits.move, left)

    def charge(self, seat: int, elapsed: float) -> bool:
        """Book a move that took `elapsed` seconds; False when it overran its budget."""
        over = elapsed > self.budget(seat)
        left = self.left[seat]
        if left is not None:
            self.left[seat] = left - elapsed + self.limits.increment
        return not over
