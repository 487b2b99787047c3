"""Controller side of HGP, sans-I/O: encode commands, decode responses.

The referee owns the process and the clock; this module owns only bytes and
text. ``format_command`` builds one command line; a :class:`ResponseReader`
takes whatever bytes the engine wrote (in any chunking) and returns complete
:class:`Response` values; ``expect`` checks one response against the id that
was sent.

Error tree (who is at fault):

* :class:`ProtocolViolation` - the engine wrote something that is not HGP:
  garbage, non-UTF-8, a response not starting with ``=``/``?``, a response
  over the size cap, as many bytes of empty lines and no response, a missing
  or wrong id, stdout closed mid-answer, unsolicited output (the referee
  raises it when a response arrives with no command outstanding).
* :class:`CommandFailed` - a well-formed ``?`` answer; ``.message`` is its text.
* :class:`EngineCrashed`, :class:`EngineTimeout` - raised by the referee,
  which sees the process and the clock.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from hexarena.engine.numbers import whole

__all__ = [
    "ControllerError", "ProtocolViolation", "CommandFailed", "EngineCrashed", "EngineTimeout",
    "Response", "format_command", "ResponseReader", "expect", "parse_response",
]


class ControllerError(Exception):
    """Base of every error the controller side reports about an engine."""


class ProtocolViolation(ControllerError):
    """The engine's output is not a well-formed HGP response where one was due."""


#: The most characters of an engine's failure text kept in messages (and so in the journal).
FAILURE_SHOWN = 300


class CommandFailed(ControllerError):
    """The engine answered ``?``; ``message`` is the text after the id, cut to FAILURE_SHOWN
    characters (with the full length said) so an engine cannot fill the journal with it."""

    def __init__(self, message: str):
        if len(message) > FAILURE_SHOWN:
            message = f"{message[:FAILURE_SHOWN]}... ({len(message)} characters)"
        super().__init__(message)
        self.message = message


class EngineCrashed(ControllerError):
    """The engine process died or closed its stdout (raised by the referee)."""


class EngineTimeout(ControllerError):
    """The engine did not answer before its deadline (raised by the referee); `late`: what it
    did write meanwhile, said as the message's end (": it wrote '=1 d4\\n' and no empty line
    after it"), or ""."""

    def __init__(self, message: str, late: str = ""):
        super().__init__(message + late)
        self.late = late


@dataclass(frozen=True)
class Response:
    """One decoded response: `id` None when the engine echoed none."""

    id: int | None
    ok: bool
    text: str


_TOKEN = re.compile(r"[^\x00-\x20#\x7f]+\Z")
_WORDS = re.compile(r"[^\x00-\x20#\x7f]+(?: [^\x00-\x20#\x7f]+)*\Z")     # tokens joined by single spaces
_HEAD = re.compile(r"([=?])([0-9]*)(.*)\Z", re.S)
_SHOW = 60   # how much of a bad answer an error message quotes
#: The longest response id read: 20 digits (the referee's ids are far shorter).
_ID_DIGITS = 20
#: Room for a response's frame around its text: `=` or `?`, an id of up to 20 digits, a space.
_FRAME = _ID_DIGITS + 2
#: One whole single-line response, in the form parse_response accepts: mark, id, text.
_ONE_LINE = re.compile(rb"([=?])([0-9]{0,%d})(?:[ \t]([^\r\n]*))?\n\n" % _ID_DIGITS)


def format_command(cid: int, name: str, *args: str) -> bytes:
    """`b"12 play b e5\\n"`. ValueError if cid is negative or a word is empty,
    holds whitespace, a control character or `#` (it would not survive preprocessing)."""
    try:
        words = " ".join((name, *args))
    except TypeError:
        words = ""
    # printable ASCII without `#`, a word each side of each space: what _WORDS takes, without the regex
    if (words.isascii() and words.isprintable() and "#" not in words and name and all(args)
            and words.count(" ") == len(args) and type(cid) is int and cid >= 0):
        return f"{cid} {words}\n".encode("ascii")
    if not isinstance(cid, int) or isinstance(cid, bool) or cid < 0:
        raise ValueError(f"command id must be a non-negative integer, got {cid!r}")
    if not _WORDS.match(words) or words.count(" ") != len(args):    # then find the culprit
        for word in (name, *args):
            if not isinstance(word, str) or not _TOKEN.match(word):
                raise ValueError(f"cannot send {word!r} as one word of an HGP command")
    return f"{cid!s} {words}\n".encode("utf-8")


def parse_response(raw: str) -> Response:
    """Decode the text of one response (without its terminating empty line).

    `=[id] text` or `?[id] text`; the id must be followed by a space, a
    newline or the end. The text is stripped of surrounding whitespace;
    lines inside a multi-line text keep their form. ProtocolViolation otherwise.
    """
    m = _HEAD.match(raw)
    if m is None:
        raise ProtocolViolation(f"response does not start with '=' or '?': {_quote(raw)}")
    mark, digits, rest = m.groups()
    if len(digits) > _ID_DIGITS:
        raise ProtocolViolation(f"response id of {len(digits)} digits: {_quote(raw)}")
    if rest and rest[0] not in " \t\n":
        raise ProtocolViolation(f"no space after {mark}{digits} in response: {_quote(raw)}")
    return Response(_id(digits), mark == "=", rest.strip())


def _frame_length(chunk: bytes) -> int:
    """Bytes of `chunk` before its text: the status character, the id's digits (up to 20), one space."""
    i = 1
    while i < len(chunk) and i <= _ID_DIGITS and chunk[i:i + 1].isdigit():
        i += 1
    return i + 1 if chunk[i:i + 1] == b" " else i


class ResponseReader:
    """Turns the engine's stdout bytes into responses, however they are chunked.

    Carriage returns are dropped (so `\\r\\n` is accepted). Empty lines
    between responses are skipped. A response whose text (after `=`, the id
    and the space) is longer than `max_bytes`, or an unterminated partial
    one longer than `max_bytes` plus the room of that frame, raises
    ProtocolViolation at once, so a runaway engine cannot make the referee
    buffer without bound; so do more than `max_bytes` bytes of empty lines
    and carriage returns since the last response (:attr:`blank`), so an
    engine cannot keep the referee reading without end either. The default,
    1,000,000 bytes, is the bound of `legal_moves` (HGP 1.1): a bounded
    answer always fits. After a
    ProtocolViolation the reader is unusable (the stream has lost its frame);
    a violation met after whole responses in the same feed is raised by the
    next feed (:attr:`broken` holds it at once), so those responses are still
    the answers of the commands they answer, and the violation the next one's.
    """

    def __init__(self, max_bytes: int = 1_000_000):
        if max_bytes < 1:
            raise ValueError("max_bytes must be positive")
        self.max_bytes = max_bytes
        self._buf = bytearray()
        self._scan = 0          # bytes of _buf already known to hold no b"\n\n"
        self._broken: ProtocolViolation | None = None
        #: bytes dropped (empty lines, carriage returns) since the last response; a _buf of only
        #: empty lines keeps one newline, so the next feed takes the general path, which counts on
        self._blank = 0

    def feed(self, data: bytes | bytearray) -> list[Response]:
        """Add bytes; return every response completed so far, in order."""
        if self._broken is not None:
            raise self._broken
        if not self._buf:
            lines = self._lines(data)
            if lines is not None:
                return lines
        kept = data.replace(b"\r", b"")
        self._blank += len(data) - len(kept)
        self._buf += kept
        out: list[Response] = []
        try:
            while True:
                self._skip_blank_lines()
                end = self._buf.find(b"\n\n", self._scan)
                if end < 0:
                    self._scan = max(0, len(self._buf) - 1)
                    if len(self._buf) > self.max_bytes + _FRAME:
                        raise ProtocolViolation(
                            f"response exceeds {self.max_bytes} bytes without its terminating empty line")
                    if self._blank > self.max_bytes:
                        raise ProtocolViolation(
                            f"{self._blank} bytes of empty lines and carriage returns and no response "
                            f"(over {self.max_bytes}; a response ends with one empty line)")
                    if self._buf[:1] not in (b"=", b"?", b"\n", b""):
                        raise ProtocolViolation(
                            f"response does not start with '=' or '?': {_quote(self._text(self._buf))}")
                    return out
                chunk = bytes(self._buf[:end])
                del self._buf[:end + 2]
                self._scan = self._blank = 0
                text_bytes = len(chunk) - _frame_length(chunk)
                if text_bytes > self.max_bytes:
                    raise ProtocolViolation(f"response text of {text_bytes} bytes exceeds {self.max_bytes}")
                out.append(parse_response(self._text(chunk)))
        except ProtocolViolation as exc:
            self._broken = exc
            if out:             # the responses before the break are whole: the break is the next one's
                return out
            raise

    @property
    def broken(self) -> ProtocolViolation | None:
        """The violation that ended the stream (raised by the feed that met it, or, when whole
        responses came before it in that feed, by the next feed), None while it is whole."""
        return self._broken

    def _lines(self, data: bytes | bytearray) -> list[Response] | None:
        """The responses when `data` is exactly a run of well-formed single-line responses, each
        with its empty line, valid UTF-8 within the cap (the common read: an answer, or the answers
        to a chain written at once), decoded without buffering; None for anything else, which the
        general path reads (to the same result when valid)."""
        if len(data) > self.max_bytes:
            return None
        out: list[Response] = []
        at, end = 0, len(data)
        match = _ONE_LINE.match
        while at < end:
            m = match(data, at)
            if m is None:
                return None
            mark, digits, raw = m.groups()
            try:
                text = raw.decode("utf-8").strip() if raw else ""
            except UnicodeDecodeError:
                return None
            out.append(Response(int(digits) if digits else None, mark == b"=", text))  # ASCII digits, 20 at most
            at = m.end()
        return out or None

    def buffered(self) -> bool:
        """True when part of a response is held (bytes other than blank lines)."""
        return bool(bytes(self._buf).strip(b"\n"))

    def unfinished(self) -> str | None:
        """The part of a response held (quoted, cut for a message), None when there is none."""
        return _quote(self._text(bytes(self._buf), strict=False)) if self.buffered() else None

    def eof(self) -> None:
        """The engine closed its stdout: ProtocolViolation if a response was cut off."""
        if self.buffered():
            raise ProtocolViolation(
                f"stdout closed in the middle of a response: {_quote(self._text(bytes(self._buf), strict=False))}")

    def _skip_blank_lines(self) -> None:
        """Drop the empty lines at the head of the buffer, counted in :attr:`blank`; when nothing
        else is held, one newline stays (so the next feed is counted too, not taken by the
        fast path of whole responses)."""
        if self._buf[:1] != b"\n":
            return
        n = len(self._buf) - len(self._buf.lstrip(b"\n"))
        if n == len(self._buf):
            n -= 1
        if n > 0:
            del self._buf[:n]
            self._scan = 0
            self._blank += n

    @property
    def blank(self) -> int:
        """Bytes of empty lines and carriage returns read since the last response (its own
        terminating empty line is the response's)."""
        return self._blank + (self._buf == b"\n")      # the newline kept is not counted yet

    @staticmethod
    def _text(data: bytes | bytearray, strict: bool = True) -> str:
        try:
            return bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            if not strict:
                return bytes(data).decode("utf-8", "replace")
            raise ProtocolViolation(
                f"response is not UTF-8 (byte {exc.start}): {_quote(bytes(data).decode('utf-8', 'replace'))}"
            ) from None


def _id(digits: str) -> int | None:
    """A response's id, None when it has none; `digits` are the ASCII digits the patterns took
    (at most 20: a longer id is a ProtocolViolation before this)."""
    return whole(digits, "response id", digits=_ID_DIGITS) if digits else None


def expect(resp: Response, cid: int) -> str:
    """The text of a successful answer to command `cid`.

    ProtocolViolation if the id is missing or differs; CommandFailed on `?`.
    """
    if resp.id is None:
        raise ProtocolViolation(f"response carries no id, expected {cid}: "
                                f"{'=' if resp.ok else '?'} {_quote(resp.text)}")
    if resp.id != cid:
        raise ProtocolViolation(f"response id {resp.id}, expected {cid}")
    if not resp.ok:
        raise CommandFailed(resp.text)
    return resp.text


def _quote(text: str) -> str:
    return repr(text if len(text) <= _SHOW else text[:_SHOW] + "...")
