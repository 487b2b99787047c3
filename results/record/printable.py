"""Text from outside (engine names and reasons in records, CSV cells, journal lines) made safe
for a terminal: the one escaper every printing command uses.

A terminal acts on control characters: ESC starts sequences that retitle the window, clear the
screen or move the cursor, BEL rings, CR and backspace overwrite what was printed. `printable`
writes each such character as a visible escape (``\\x1b``, ``\\x07``, ``\\u202e``) and leaves
everything else as it is.
"""
from __future__ import annotations

import unicodedata

#: Categories escaped: controls (C0, DEL, C1), format characters (bidirectional overrides,
#: zero-width marks) and the line and paragraph separators.
ESCAPED = frozenset({"Cc", "Cf", "Zl", "Zp"})


def _escape(c: str) -> str:
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, keep: str = "") -> str:
    """`text` with every control character but those in `keep` written as a visible escape."""
    if text.isprintable():
        return text            # the common case, fast: str.isprintable is False for every escaped category
    return "".join(c if c in keep or unicodedata.category(c) not in ESCAPED else _escape(c) for c in text)


def printable_lines(text: str) -> str:
    """Printed output of several lines: `printable`, keeping newlines and tabs."""
    return printable(text, keep="\n\t")
