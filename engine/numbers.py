"""Numbers written in outside text: the one reader of whole numbers and decimals.

Every parser of text from outside the process (action tokens, position
strings, protocol commands and answers, SGF records, result files, openings)
reads its numbers here, never with a bare ``int()`` or ``float()``:

* ASCII digits only. ``str.isdigit`` also accepts ``²`` and the digits of
  other scripts, which ``int()`` then refuses with a bare ValueError (``²``)
  or reads (``٣`` is 3); here both are malformed.
* At most :data:`MAX_DIGITS` digits, leading zeros included: a number of
  thousands of digits is malformed input, refused before ``int()`` meets it
  (whose 4,300-digit limit raises a bare ValueError, and whose time below
  that limit grows with the square of the length).

Errors are the rules layer's own kinds (InvalidNotation unless the caller
names another) and say what was read and where, in one of the project's two
forms chosen by the caller's ``what``: a name (``"komi"``, ``"row 3:
height"``) gives ``komi '1.5' is not a whole number >= 0``; a key ending in
``=`` (``"ply="``) gives the position form ``ply=x: expected a whole number
>= 0``. They quote at most the first :data:`SHOWN` characters of the text.
"""
from __future__ import annotations

import re

from .errors import InvalidNotation, RulesError

__all__ = ["MAX_DIGITS", "SHOWN", "whole", "integer", "decimal", "signed_decimal", "shown"]

#: The most digits a number may have: 2**64 has 20, more than any count, id, size or time needs.
MAX_DIGITS = 20
#: How many characters of a bad text an error message quotes.
SHOWN = 60

_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?\Z")


def shown(text: str, quote: bool = True) -> str:
    """`text` for an error message (repr'd when `quote`): its first SHOWN characters, then its
    length when cut."""
    cut = text if len(text) <= SHOWN else text[:SHOWN]
    out = repr(cut) if quote else cut
    return out if cut is text else f"{out}... ({len(text)} characters)"


def _error(error: type[RulesError], what: str, text: str, expected: str, long: int = 0) -> RulesError:
    """The error for `text`, which is not `expected` or (`long` > 0) has more than `long` digits.
    `what` ending in `=` gives `ply=x: expected ...`; any other gives `komi 'x' is not ...`."""
    if what.endswith("="):
        bound = f" of at most {long} digits" if long else ""
        return error(f"{what}{shown(text, quote=False)}: expected {expected}{bound}")
    if long:
        return error(f"{what} {shown(text)} has more than {long} digits")
    return error(f"{what} {shown(text)} is not {expected}")


def whole(text: str, what: str, error: type[RulesError] = InvalidNotation, *, digits: int = MAX_DIGITS) -> int:
    """A whole number >= 0 written in ASCII digits (leading zeros allowed), at most `digits` of them.

    Raises `error` naming `what` otherwise (a sign, a space, a point, another script's digits)."""
    expected = "a whole number >= 0"
    if not (text.isascii() and text.isdigit()):
        raise _error(error, what, text, expected)
    if len(text) > digits:
        raise _error(error, what, text, expected, digits)
    return int(text)


def integer(text: str, what: str, error: type[RulesError] = InvalidNotation, *, digits: int = MAX_DIGITS) -> int:
    """A whole number with an optional sign (`+` or `-`), then as :func:`whole`."""
    body = text[1:] if text[:1] in ("+", "-") else text
    if not (body.isascii() and body.isdigit()):
        raise _error(error, what, text, "a whole number")
    if len(body) > digits:
        raise _error(error, what, text, "a whole number", digits)
    return int(text)


def decimal(text: str, what: str, error: type[RulesError] = InvalidNotation, *, digits: int = MAX_DIGITS) -> float:
    """A number >= 0 written as ASCII digits with at most one decimal point between digits
    (`12`, `0.25`; no sign, exponent, `inf` or `nan`), at most `digits` digits in all."""
    expected = "a decimal number >= 0"
    if not (text.isascii() and _DECIMAL.match(text)):
        raise _error(error, what, text, expected)
    if len(text) - ("." in text) > digits:
        raise _error(error, what, text, expected, digits)
    return float(text)


def signed_decimal(text: str, what: str, error: type[RulesError] = InvalidNotation, *,
                   digits: int = MAX_DIGITS) -> float:
    """A decimal number with an optional sign (`-12.5`, `+3`), then as :func:`decimal`."""
    body = text[1:] if text[:1] in ("+", "-") else text
    if not (body.isascii() and _DECIMAL.match(body)):
        raise _error(error, what, text, "a decimal number")
    if len(body) - ("." in body) > digits:
        raise _error(error, what, text, "a decimal number", digits)
    return -float(body) if text[:1] == "-" else float(body)
