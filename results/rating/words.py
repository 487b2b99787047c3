"""Numbers and counts in words for tables and lines people read (standard library only, so the
live view and the pages use them without loading pandas)."""
from __future__ import annotations

import math


def whole(value: float | None) -> str:
    """`value` rounded to a whole number: never `-0` (a value between -0.5 and 0 is `0`); `""` for None
    or NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = f"{value:.0f}"
    return "0" if text == "-0" else text


def signed_whole(value: float | None) -> str:
    """`+75`, `-12`, `0` (never `+0` or `-0`); `""` for None or NaN."""
    text = whole(value)
    return text if text in ("", "0") or text.startswith("-") else "+" + text


def games_text(n: int) -> str:
    """`1 game`, `40 games`."""
    return f"{n} game" if n == 1 else f"{n} games"
