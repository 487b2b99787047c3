"""GTP v2 framing as docs/protocol.md states it: preprocessing, commands, responses.

Pure text functions, used by the engine side. A command line is
``[id] name [args...]``; a response is ``=[id] text`` or ``?[id] message``
followed by an empty line, with no empty line inside.
"""
from __future__ import annotations

from typing import NamedTuple

from hexarena.engine.numbers import shown

__all__ = ["CommandError", "Command", "preprocess", "parse_command", "format_response",
           "success", "failure", "MAX_COMMAND_BYTES", "OVERLONG"]

#: The longest command line an engine side reads, in bytes without its end of line (the referee's
#: longest, a position string or a flip set of the largest board, is a few KB); a longer line is
#: answered :data:`OVERLONG` once and skipped (players/sdk.py reads no more of it than this).
MAX_COMMAND_BYTES = 1 << 16
#: The answer to a line of more than MAX_COMMAND_BYTES bytes (its id is not read).
OVERLONG = f"? syntax error: a line of more than {MAX_COMMAND_BYTES} bytes, skipped\n\n"


class CommandError(Exception):
    """Raised by a command handler: the engine answers `? <message>`.

    The message starts with one of the standard failure words (`syntax error`,
    `illegal move`, ...) and may carry detail after a colon.
    """


class Command(NamedTuple):
    """One parsed command line. `id`: the id's digits as sent (`007` stays `007`: PROTOCOL.md echoes
    the id exactly), None without one; `name` is lower case; `args` keep their case."""

    id: str | None
    name: str
    args: tuple[str, ...]


#: preprocess's character table: HT becomes a space; other control characters but LF, and DEL, go.
_PREPROCESS = {**{code: None for code in range(32) if code not in (9, 10)}, 9: " ", 127: None}


def preprocess(line: str) -> str | None:
    """Apply GTP preprocessing to one input line; None if nothing is left.

    Control characters other than HT and LF are dropped (so `\\r\\n` works),
    HT becomes a space, everything from `#` is cut, and a line that is then
    empty or blank yields None (it gets no response).
    """
    text = line.split("#", 1)[0]
    bare = text.rstrip("\n")
    # A line of printable characters has nothing to drop or turn into a space.
    text = bare.strip() if bare.isprintable() else text.translate(_PREPROCESS).strip()
    return text or None


#: The longest command id read (no controller sends one of more than a few digits).
MAX_ID_DIGITS = 1000


def parse_command(line: str) -> Command | None:
    """Preprocess and split a line. None for a line that gets no response.

    A first word made only of ASCII digits is the id (GTP: a non-negative integer, of any
    length), kept as its digits, leading zeros too, to be echoed exactly; a line holding only
    an id yields a Command with the empty name (answered `syntax error`). CommandError (`syntax error`) only for an id of more than
    :data:`MAX_ID_DIGITS` digits, which no controller sends.
    """
    text = preprocess(line)
    if text is None:
        return None
    words = text.split()
    first = words[0]
    if first.isdigit() and first.isascii():
        if len(first) > MAX_ID_DIGITS:
            raise CommandError(f"syntax error: command id {shown(first)} has more than {MAX_ID_DIGITS} digits")
        if len(words) == 1:
            return Command(first, "", ())
        return Command(first, words[1].lower(), tuple(words[2:]))
    return Command(None, first.lower(), tuple(words[1:]))


def format_response(cid: str | int | None, ok: bool, text: str) -> str:
    """`=[id] text\\n\\n` or `?[id] text\\n\\n`.

    Trailing whitespace of each line and empty lines inside `text` are removed,
    so a multi-line answer never ends early.
    """
    if "\n" in text or "\r" in text:
        lines = [ln.rstrip() for ln in text.replace("\r", "").split("\n")]
        text = "\n".join(ln for ln in lines if ln)
    else:
        text = text.rstrip()
    if cid is None:
        return f"{'=' if ok else '?'} {text}\n\n"
    return f"{'=' if ok else '?'}{cid} {text}\n\n"


def success(cid: str | int | None, text: str = "") -> str:
    return format_response(cid, True, text)


def failure(cid: str | int | None, message: str) -> str:
    return format_response(cid, False, message)
