"""Time controls and the per-game clocks (docs/protocol.md, "Clocks"). Pure: times are plain seconds.

The referee reads the time from ``trio.current_time()`` and hands elapsed
seconds to :class:`Clock`; nothing here reads a clock itself, so the logic
is tested without waiting. The turn loop asks a clock three things: the
deadline of a move (:meth:`Clock.deadline`), what to tell the engine
(:meth:`Clock.settings`, :meth:`Clock.told`) and, once the answer is in,
whether the move was in time (:meth:`Clock.charge`).

Controls (``Limits.control``):

* ``move``: a fixed time per move (``move`` seconds, default 10), no clock.
  ``none`` is read as ``move``: with no clock the move cap is the only limit.
  Engines are told it as byo-yomi with no main time and one period of that
  many seconds, with `time_left COLOUR T 1` before every move.
* ``fischer``: ``main`` seconds, ``increment`` added after each answered move.
* ``byoyomi``: ``main``, then ``periods`` periods of ``period`` seconds; a
  move finished inside a period keeps it, each period a move runs past is
  used up, and the last one is never used up by a move that is in time.
* ``canadian``: ``main``, then ``stones`` moves in each ``period`` seconds;
  the move that runs out of main time is the first stone of the first period.

Under a clock ``move`` is an optional extra cap, and the engine is told the
smaller of the two. ``margin`` (default 0.05 s, for pipe latency) is the only
grace: a move is in time iff it took at most its allowance plus the margin.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import TypeGuard

from hexarena.protocol.clock_commands import seconds_word

CONTROLS = ("move", "fischer", "byoyomi", "canadian")
CLOCKED = ("fischer", "byoyomi", "canadian")
DEFAULT_MOVE = 10.0
DEFAULT_MARGIN = 0.05


@dataclass(frozen=True)
class Limits:
    """The time rules of a game (or of one engine under time odds), in seconds.

    * ``move``: the per-move cap. Without a clock: the time per move (None:
      10 s). Under a clock: an optional extra cap (None: none).
    * ``main``, ``increment``, ``period``, ``periods``, ``stones``: the clock
      (see the module docstring); ``control`` "" is inferred: ``fischer``
      when ``main`` is given, else ``move``.
    * ``margin``: grace for pipe latency added to every move's allowance.
    * ``start``: deadline for the first answer of a new engine
      (`protocol_version`), which includes its start-up.
    * ``command``: deadline for every other command (`play`, `game`, ...).

    ValueError naming the field on any value out of range or not used by the control.
    """

    move: float | None = None
    main: float | None = None
    increment: float = 0.0
    start: float = 30.0
    command: float = 10.0
    control: str = ""
    period: float = 0.0
    periods: int = 0
    stones: int = 0
    margin: float = DEFAULT_MARGIN

    def __post_init__(self) -> None:
        control = self.control or ("fischer" if self.main is not None else "move")
        if control == "none":
            control = "move"
        if control not in CONTROLS:
            raise ValueError(f"control must be one of none, {', '.join(CONTROLS)}; got {self.control!r}")
        object.__setattr__(self, "control", control)
        for name in ("move", "main", "increment", "start", "command", "period", "margin"):
            value = getattr(self, name)
            if _number(value) and value > MAX_SECONDS:
                raise ValueError(f"{name} must be at most {MAX_SECONDS:,} seconds, got {value!r}")
        for name in ("periods", "stones"):
            if _number(getattr(self, name)) and getattr(self, name) > MAX_COUNT:
                raise ValueError(f"{name} must be at most {MAX_COUNT:,}, got {getattr(self, name)!r}")
        for name in ("start", "command") + (("move",) if self.move is not None else ()):
            _positive(name, getattr(self, name))
        if not (_number(self.margin) and self.margin >= 0):
            raise ValueError(f"margin must be >= 0 seconds, got {self.margin!r}")
        if not (_number(self.increment) and self.increment >= 0):
            raise ValueError(f"increment must be >= 0 seconds, got {self.increment!r}")
        used = {"move": set(), "fischer": {"main", "increment"}, "byoyomi": {"main", "period", "periods"},
                "canadian": {"main", "period", "stones"}}[control]
        defaults = {"main": None, "increment": 0.0, "period": 0.0, "periods": 0, "stones": 0}
        for name, default in defaults.items():
            if name not in used and getattr(self, name) not in (default, 0):
                raise ValueError(f"{name} is not part of a {control!r} time control")
        if control == "fischer":
            _positive("main", self.main)
        elif control in ("byoyomi", "canadian"):
            if self.main is None:
                object.__setattr__(self, "main", 0.0)
            if not (_number(self.main) and self.main >= 0):
                raise ValueError(f"main time must be >= 0 seconds, got {self.main!r}")
            _positive("period", self.period)
            count = "periods" if control == "byoyomi" else "stones"
            value = getattr(self, count)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{count} must be a whole number >= 1, got {value!r}")

    @property
    def clocked(self) -> bool:
        return self.control in CLOCKED

    @property
    def cap(self) -> float | None:
        """The per-move cap in force: ``move``, else 10 s without a clock, else None."""
        if self.move is not None:
            return self.move
        return None if self.clocked else DEFAULT_MOVE

    def time_settings(self, decimal: bool = False) -> tuple[str, str, str]:
        """Arguments of GTP `time_settings M B S` (byo-yomi as Canadian periods of one stone);
        `decimal`: seconds with three digits after the point (an HGP 1.2 engine), else whole."""
        told = partial(seconds_word, decimal=decimal, setting=True)
        if self.control == "move":
            return (told(0), told(self.cap), "1")
        if self.control == "fischer":
            return (told(self.main), told(0), "0")
        stones = 1 if self.control == "byoyomi" else self.stones
        return (told(self.main), told(self.period), str(stones))

    def text(self) -> str:
        """The time rules in words, as the SGF's OT: `move 5 s, main 60 s + 0.5 s per move`."""
        words = []
        if self.control == "fischer":
            words.append(f"main {self.main:g} s + {self.increment:g} s per move")
        elif self.control == "byoyomi":
            words.append(f"main {self.main:g} s, byo-yomi {self.periods} x {self.period:g} s")
        elif self.control == "canadian":
            words.append(f"main {self.main:g} s, then {self.stones} moves per {self.period:g} s")
        if self.cap is not None:
            words.insert(0, f"move {self.cap:g} s")
        return ", ".join(words)

    def kgs_time_settings(self, decimal: bool = False) -> tuple[str, ...]:
        """Arguments of `kgs-time_settings KIND ...` for an engine that lists it (`decimal` as above)."""
        told = partial(seconds_word, decimal=decimal, setting=True)
        if self.control == "move":
            return ("byoyomi", told(0), told(self.cap), "1")
        if self.control == "fischer":      # whole seconds: 0.1 -> 0, never up
            return ("fischer", told(self.main), seconds_word(self.increment, decimal))
        count = self.periods if self.control == "byoyomi" else self.stones
        return (self.control, told(self.main), told(self.period), str(count))


@dataclass(frozen=True)
class Charge:
    """The verdict on one move: truthy iff in time. ``overrun``: seconds past the
    allowance (negative when inside it); ``left``/``count``: the clock after the move
    (what `time_left` would say; None without a clock)."""

    ok: bool
    elapsed: float
    allowed: float
    overrun: float
    left: float | None = None
    count: int = 0

    def __bool__(self) -> bool:
        return self.ok


@dataclass
class _SeatTime:
    main: float
    periods: int = 0
    stones: int = 0              # Canadian: stones still to play in this period (0 in main time)
    period_left: float = 0.0     # Canadian: seconds left in this period
    overtime: bool = False


@dataclass
class Clock:
    """Both engines' time in one game, by seat (0: seat 1, 1: seat 2): a clock
    belongs to the engine, so the turn loop passes the seat of the engine that
    moves, whatever colour it holds after a swap.

    ``limits``: one Limits for both seats, or one per seat (time odds).
    """

    limits: Limits | tuple[Limits, Limits]
    seats: tuple[Limits, Limits] = field(init=False)
    _time: list[_SeatTime] = field(init=False)
    _caps: tuple[float | None, float | None] = field(init=False, repr=False, compare=False)
    _told: dict[tuple[int, bool], tuple[str, str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lim = self.limits
        self.seats = lim if isinstance(lim, tuple) else (lim, lim)
        self._time = [_SeatTime(s.main or 0.0, s.periods, 0, 0.0) for s in self.seats]
        self._caps = (self.seats[0].cap, self.seats[1].cap)      # asked at every move
        self._told = {}         # `time_left`'s words for a seat without a clock: the same at every move

    @property
    def left(self) -> list[float | None]:
        """Main time left per seat (None for a seat without a clock)."""
        return [t.main if s.clocked else None for s, t in zip(self.seats, self._time)]

    def settings(self, seat: int, kgs: bool, decimal: bool = False) -> tuple[str, ...]:
        """The command announcing the seat's time control: `kgs-time_settings ...` when
        the engine lists it (`kgs` True), else `time_settings M B S`; `decimal`: the engine
        lists `hgp_version` and is told decimal seconds."""
        lim = self.seats[seat]
        if kgs:
            return ("kgs-time_settings", *lim.kgs_time_settings(decimal))
        return ("time_settings", *lim.time_settings(decimal))

    def budget(self, seat: int) -> float:
        """Seconds the seat may spend on its next move by its time control (no margin)."""
        lim, t = self.seats[seat], self._time[seat]
        if lim.control == "fischer":
            clock = t.main
        elif lim.control == "byoyomi":
            clock = t.main + t.periods * lim.period
        elif lim.control == "canadian":
            clock = t.period_left if t.overtime else t.main + lim.period
        else:
            clock = math.inf
        cap = self._caps[seat]
        return clock if cap is None else min(clock, cap)

    def deadline(self, seat: int, start: float) -> float:
        """The time by which a move started at `start` must be answered (margin included)."""
        return start + self.budget(seat) + self.seats[seat].margin

    def told(self, seat: int, decimal: bool = False) -> tuple[str, str]:
        """`time_left COLOUR T S` arguments T and S for the seat's next move (T rounded down, in
        decimal seconds when `decimal`). A per-move limit alone is byo-yomi with no main time and
        one period (docs/protocol.md, "Time"): T is the limit, S is 1, before every move."""
        lim, t = self.seats[seat], self._time[seat]
        if not lim.clocked:
            if (told := self._told.get((seat, decimal))) is None:
                told = self._told[seat, decimal] = seconds_word(lim.cap, decimal, setting=True), "1"
            return told
        seconds, count = t.main, 0
        if t.overtime and lim.control == "byoyomi":
            seconds, count = lim.period, t.periods
        elif t.overtime:
            seconds, count = t.period_left, t.stones
        if lim.cap is not None:
            seconds = min(seconds, lim.cap)
        return seconds_word(seconds, decimal), str(count)

    def charge(self, seat: int, elapsed: float) -> Charge:
        """Book a move that took `elapsed` seconds. Not ok when it took more than its
        budget plus the margin; the clock is then left as it was."""
        lim, t = self.seats[seat], self._time[seat]
        allowed = self.budget(seat)
        overrun = elapsed - allowed
        if overrun > lim.margin:
            return Charge(False, elapsed, allowed, overrun, *self._after(seat))
        if lim.control == "fischer":
            t.main = max(0.0, t.main - elapsed) + lim.increment
        elif lim.control == "byoyomi":
            if not t.overtime and elapsed <= t.main:
                t.main -= elapsed
            else:
                over = elapsed - t.main
                t.main, t.overtime = 0.0, True
                t.periods = max(1, t.periods - math.floor(over / lim.period))
        elif lim.control == "canadian":
            if not t.overtime and elapsed <= t.main:
                t.main -= elapsed
            else:
                spent = elapsed
                if not t.overtime:
                    spent -= t.main
                    t.main, t.overtime, t.period_left, t.stones = 0.0, True, lim.period, lim.stones
                t.period_left = max(0.0, t.period_left - spent)
                t.stones -= 1
                if t.stones == 0:
                    t.period_left, t.stones = lim.period, lim.stones
        return Charge(True, elapsed, allowed, overrun, *self._after(seat))

    def _after(self, seat: int) -> tuple[float | None, int]:
        lim, t = self.seats[seat], self._time[seat]
        if not lim.clocked:
            return None, 0
        if t.overtime and lim.control == "byoyomi":
            return lim.period, t.periods
        if t.overtime:
            return t.period_left, t.stones
        return t.main, 0


def sgf_time(limits: Limits | tuple[Limits, Limits]) -> list[tuple[str, tuple[str, ...]]]:
    """The SGF root's time properties: TM (main time, when a clock runs) and OT (the rules in words);
    under time odds OT twice, seat 1's rules then seat 2's."""
    if isinstance(limits, tuple) and limits[0] == limits[1]:
        limits = limits[0]
    if isinstance(limits, tuple):
        return [("OT", (limits[0].text(), limits[1].text()))]
    props: list[tuple[str, tuple[str, ...]]] = [("TM", (f"{limits.main:g}",))] if limits.main is not None else []
    return props + [("OT", (limits.text(),))]


#: The longest time any limit may give (about 116 days): deadlines and clocks stay ordinary numbers.
MAX_SECONDS = 10_000_000
#: The most byo-yomi periods or Canadian stones.
MAX_COUNT = 1_000_000


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _positive(name: str, value: object) -> None:
    if not (_number(value) and value > 0):
        raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
