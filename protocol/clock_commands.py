"""The clock commands of HGP 1.1 parsed into :mod:`hexarena.protocol.clock` values.

* `time_settings M B S` exactly as GTP v2: main time M seconds, then Canadian
  periods of B seconds for S stones. B = 0 means no byo-yomi (absolute time
  M); B > 0 with S = 0 means no time limit at all.
* `kgs-time_settings KIND ...`: `none`, `absolute M`, `byoyomi M P N`
  (N periods of P seconds), `canadian M P S`, `fischer M I` (I seconds added
  after each move).
* `time_left COLOUR T S`: T seconds left on that colour's clock, S stones
  (Canadian) or periods (byo-yomi) left, 0 in main time or under Fischer.

Counts (periods, stones) are whole numbers >= 0 (GTP v2). Seconds are whole
numbers or, from an HGP 1.2 controller, decimals with one to three digits after
the point (`4.250`, `0.1`); at most :data:`SECONDS_DIGITS` digits before it.
Anything else is a `syntax error`. :func:`seconds_word` is the other direction:
how a controller tells a time to an engine of either version.
"""
from __future__ import annotations

import math
import re

from hexarena.engine.core import Colour

from .clock import ClockKind, TimeControl, TimeLeft
from .framing import CommandError

__all__ = ["time_settings", "kgs_time_settings", "time_left", "seconds_word", "read_seconds"]

#: The most digits before the point of a time in seconds (about 31 years).
SECONDS_DIGITS = 9
_SECONDS = re.compile(r"[0-9]{1,%d}(?:\.[0-9]{1,3})?\Z" % SECONDS_DIGITS, re.ASCII)
_COUNT = re.compile(r"[0-9]{1,%d}\Z" % SECONDS_DIGITS, re.ASCII)

#: The arguments after KIND for each `kgs-time_settings` kind.
KGS_USAGE: dict[ClockKind, str] = {
    ClockKind.NONE: "",
    ClockKind.ABSOLUTE: "MAIN",
    ClockKind.BYOYOMI: "MAIN PERIOD PERIODS",
    ClockKind.CANADIAN: "MAIN PERIOD STONES",
    ClockKind.FISCHER: "MAIN INCREMENT",
}


def _whole(text: str, what: str) -> int:
    if not _COUNT.match(text):
        raise CommandError(f"syntax error: {what} {text[:40]!r} is not a whole number >= 0 "
                           f"of at most {SECONDS_DIGITS} digits")
    return int(text)


def read_seconds(text: str, what: str) -> float:
    """A time word: whole seconds or a decimal with up to three digits after the point."""
    if not _SECONDS.match(text):
        raise CommandError(f"syntax error: {what} {text[:40]!r} is not seconds (a whole number "
                           f"or a decimal with up to 3 digits after the point, e.g. 4.250)")
    return float(text)


#: The words of :data:`KGS_USAGE` and `time_settings` that are counts, not seconds.
_COUNTS = ("PERIODS", "STONES")


def _numbers(args: tuple[str, ...], names: str, usage: str) -> list[float]:
    """`args` read by the words of `names` (counts whole, the rest seconds); `usage` in the syntax error."""
    if len(args) != len(names.split()):
        raise CommandError(f"syntax error: expected {usage}")
    return [float(_whole(a, n.lower())) if n in _COUNTS else read_seconds(a, n.lower())
            for a, n in zip(args, names.split())]


def seconds_word(seconds: float | None, decimal: bool, setting: bool = False) -> str:
    """How a controller tells `seconds`: to an HGP 1.2 engine (`decimal`) with three digits after
    the point, else in whole seconds; always rounded down, but a positive time in a `setting`
    is never told as 0 (`time_settings 0 0 0` would mean no limit)."""
    if seconds is None or not seconds > 0:
        return "0.000" if decimal else "0"
    if decimal:
        millis = math.floor(seconds * 1000 + 1e-6)     # 1.001 * 1000 is 1000.99...
        if setting:
            millis = max(1, millis)
        return f"{millis // 1000}.{millis % 1000:03d}"
    whole = math.floor(seconds)
    return str(max(1, whole) if setting else whole)


def time_settings(args: tuple[str, ...]) -> TimeControl:
    """`time_settings MAIN BYOYOMI STONES` as GTP v2 reads it."""
    main, byo, stones = _numbers(args, "MAIN BYOYOMI STONES", "time_settings MAIN BYOYOMI STONES")
    if byo == 0:
        return TimeControl(ClockKind.ABSOLUTE, main=main)
    if stones == 0:
        return TimeControl(ClockKind.NONE)
    return TimeControl(ClockKind.CANADIAN, main=main, period=byo, stones=int(stones))


def kgs_time_settings(args: tuple[str, ...]) -> TimeControl:
    """`kgs-time_settings KIND ...` (see the module docstring)."""
    if not args:
        raise CommandError("syntax error: expected kgs-time_settings KIND ...")
    try:
        kind = ClockKind(args[0].lower())
    except ValueError:
        raise CommandError(f"syntax error: {args[0]!r} is not a time system "
                           f"({', '.join(k.value for k in ClockKind)})") from None
    values = _numbers(args[1:], KGS_USAGE[kind], f"kgs-time_settings {kind.value} {KGS_USAGE[kind]}".rstrip())
    if kind is ClockKind.NONE:
        return TimeControl(kind)
    if kind is ClockKind.ABSOLUTE:
        return TimeControl(kind, main=values[0])
    if kind is ClockKind.BYOYOMI:
        return TimeControl(kind, main=values[0], period=values[1], periods=int(values[2]))
    if kind is ClockKind.CANADIAN:
        return TimeControl(kind, main=values[0], period=values[1], stones=int(values[2]))
    return TimeControl(kind, main=values[0], increment=values[1])


def time_left(args: tuple[str, ...]) -> tuple[Colour, TimeLeft]:
    """`time_left COLOUR SECONDS COUNT`: the colour and what is left on its clock."""
    if len(args) != 3:
        raise CommandError("syntax error: expected time_left COLOUR SECONDS COUNT")
    try:
        colour = Colour.parse(args[0])
    except ValueError:
        raise CommandError(f"syntax error: {args[0]!r} is not a colour (black, b, white, w)") from None
    return colour, TimeLeft(read_seconds(args[1], "seconds"), _whole(args[2], "count"))
