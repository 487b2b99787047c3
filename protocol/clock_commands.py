"""The clock commands of HGP 1.1 parsed into :mod:`hexarena.protocol.clock` values.

* `time_settings M B S` exactly as GTP v2: main time M seconds, then Canadian
  periods of B seconds for S stones. B = 0 means no byo-yomi (absolute time
  M); B > 0 with S = 0 means no time limit at all.
* `kgs-time_settings KIND ...`: `none`, `absolute M`, `byoyomi M P N`
  (N periods of P seconds), `canadian M P S`, `fischer M I` (I seconds added
  after each move).
* `time_left COLOUR T S`: T seconds left on that colour's clock, S stones
  (Canadian) or periods (byo-yomi) left, 0 in main time or under Fischer.

Every number is a whole number >= 0 (GTP v2) of at most 20 digits, read by
``engine.numbers.whole``; anything else raises InvalidNotation, which the
engine side answers `syntax error`.
"""
from __future__ import annotations

from hexarena.engine.core import Colour
from hexarena.engine.numbers import whole

from .clock import ClockKind, TimeControl, TimeLeft
from .framing import CommandError

__all__ = ["time_settings", "kgs_time_settings", "time_left"]

#: The arguments after KIND for each `kgs-time_settings` kind.
KGS_USAGE: dict[ClockKind, str] = {
    ClockKind.NONE: "",
    ClockKind.ABSOLUTE: "MAIN",
    ClockKind.BYOYOMI: "MAIN PERIOD PERIODS",
    ClockKind.CANADIAN: "MAIN PERIOD STONES",
    ClockKind.FISCHER: "MAIN INCREMENT",
}


def _numbers(args: tuple[str, ...], names: str, usage: str) -> list[int]:
    """`args` as whole numbers named by the words of `names`; `usage` in the syntax error."""
    if len(args) != len(names.split()):
        raise CommandError(f"syntax error: expected {usage}")
    return [whole(a, n.lower()) for a, n in zip(args, names.split())]


def time_settings(args: tuple[str, ...]) -> TimeControl:
    """`time_settings MAIN BYOYOMI STONES` as GTP v2 reads it."""
    main, byo, stones = _numbers(args, "MAIN BYOYOMI STONES", "time_settings MAIN BYOYOMI STONES")
    if byo == 0:
        return TimeControl(ClockKind.ABSOLUTE, main=float(main))
    if stones == 0:
        return TimeControl(ClockKind.NONE)
    return TimeControl(ClockKind.CANADIAN, main=float(main), period=float(byo), stones=stones)


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
        return TimeControl(kind, main=float(values[0]))
    if kind is ClockKind.BYOYOMI:
        return TimeControl(kind, main=float(values[0]), period=float(values[1]), periods=values[2])
    if kind is ClockKind.CANADIAN:
        return TimeControl(kind, main=float(values[0]), period=float(values[1]), stones=values[2])
    return TimeControl(kind, main=float(values[0]), increment=float(values[1]))


def time_left(args: tuple[str, ...]) -> tuple[Colour, TimeLeft]:
    """`time_left COLOUR SECONDS COUNT`: the colour and what is left on its clock."""
    if len(args) != 3:
        raise CommandError("syntax error: expected time_left COLOUR SECONDS COUNT")
    try:
        colour = Colour.parse(args[0])
    except ValueError:
        raise CommandError(f"syntax error: {args[0]!r} is not a colour (black, b, white, w)") from None
    return colour, TimeLeft(float(whole(args[1], "seconds")), whole(args[2], "count"))
