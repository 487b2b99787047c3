"""The messages between the ladder server and a bridge: one JSON object per WebSocket text message,
its kind in ``t`` (docs/ladder.md, "The wire").

Bridge to server: ``login`` (account, token, pools, engine identity and games; the first message,
within the login time), ``answer`` (an engine's HGP answer to a command of a game), ``crashed``
(the engine of a game died or stopped answering: that game is lost; the connection is paired
again at its next message, which the bridge sends once a fresh engine runs), ``drain`` (finish the game in
hand, take no other), ``ping``.

Server to bridge: ``welcome``, ``refused`` (why; the connection closes), ``game`` (a game starts
or resumes: its setup, and on resumption the HGP lines that restore the engine's position),
``command`` (one HGP command line of a game and the seconds left to answer it), ``end`` (the
game's result and SGF record), ``pong``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from hexarena.protocol.controller import format_command

VERSION = 1
PATH = "/ladder/ws"
#: Close codes: 4001 refused at login, 4008 a bound was passed, 1011 the server is stopping.
REFUSED, BOUND = 4001, 4008


class WireError(ValueError):
    """A message that is not what the wire allows (the message says what)."""


def dump(kind: str, **fields: Any) -> str:
    return json.dumps({"t": kind, **fields}, separators=(",", ":"))


#: A JSON escape of a UTF-16 surrogate (``\\ud800``): a lone one decodes to a string that is not Unicode text.
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def load(text: str | bytes | None) -> dict:
    """One message as a dict with a string ``t``; WireError for anything else, a string holding a
    lone surrogate (an escape such as ``\\ud800``, which no UTF-8 text encodes) included."""
    if not isinstance(text, str):
        raise WireError("expected a text message holding a JSON object")
    try:
        data = json.loads(text)
    except ValueError:
        raise WireError("not JSON") from None
    except RecursionError:                       # arrays or objects nested deeper than Python recurses
        raise WireError("JSON nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise WireError("expected a JSON object with a string \"t\"")
    if _SURROGATE.search(text):                  # a pair is one character; a lone half does not encode
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise WireError("a string holds a lone UTF-16 surrogate: not Unicode text") from None
    return data


def text(data: dict, key: str, limit: int = 4096, empty: bool = False, printable: bool = False) -> str:
    """`data[key]` as a string of at most `limit` characters (with `printable`, no control
    character: a name the server logs and shows); WireError otherwise."""
    value = data.get(key)
    if not isinstance(value, str) or len(value) > limit or (not empty and not value):
        raise WireError(f"\"{key}\": expected a string of 1 to {limit} characters")
    if printable and not value.isprintable():
        raise WireError(f"\"{key}\": expected printable characters, without a control character")
    return value


def hgp_line(value: str, key: str) -> str:
    """`value` if its words can be sent to an engine as one HGP command (no control character, no
    `#`: protocol/controller.py's `format_command`); WireError otherwise."""
    words = value.split()
    try:
        if words:
            format_command(0, *words)
    except ValueError as exc:
        raise WireError(f"\"{key}\": {exc}") from None
    return value


def words(data: dict, key: str, most: int = 64) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > most or not all(isinstance(v, str) and len(v) <= 100 for v in value):
        raise WireError(f"\"{key}\": expected a list of at most {most} short strings")
    return value


def seconds(data: dict, key: str, most: float = 1e6) -> float:
    """`data[key]` as a finite number of seconds in 0..`most`; WireError otherwise."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= most:
        raise WireError(f"\"{key}\": expected a number of seconds in 0..{most:g}")
    return float(value)


def lines(data: dict, key: str, limit: int = 4096) -> list[str] | None:
    """`data[key]` as None (absent or null) or a list of strings of at most `limit` characters
    (the message's size bounds their number); WireError otherwise."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= limit for v in value):
        raise WireError(f"\"{key}\": expected a list of strings of at most {limit} characters")
    return value


@dataclass(frozen=True)
class Login:
    """A bridge's checked login message."""

    account: str
    token: str
    pools: list[str]
    games: list[str]
    name: str
    version: str


def read_login(data: dict) -> Login:
    """The login message `data` (from :func:`load`) checked field by field; WireError naming the
    first wrong one."""
    if data["t"] != "login":
        raise WireError(f"expected a login message, got {data['t']!r}")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        said = version if type(version) is int else repr(version)
        raise WireError(f"this server speaks version {VERSION} of the wire and the bridge {said}: "
                        f"connect with a hexarena whose bridge speaks version {VERSION}")
    return Login(text(data, "account", 40, printable=True), text(data, "token", 200, printable=True),
                 words(data, "pools"), words(data, "games"), text(data, "name", 100, empty=True, printable=True),
                 text(data, "engine_version", 100, empty=True, printable=True))


def from_bridge(data: dict, limit: int) -> dict:
    """A bridge's message after the login, checked: ``ping`` and ``drain`` as they are, ``crashed``
    with its ``game`` (any value: compared with the game in hand) and ``why`` (text, printable, at
    most 300 characters; "" when missing), ``answer`` with its ``game`` and
    a ``text`` of at most `limit` characters; WireError for any other kind or a wrong answer."""
    kind = data["t"]
    if kind in ("ping", "drain"):
        return {"t": kind}
    if kind == "crashed":
        why = data.get("why")
        why = "".join(c if c.isprintable() else " " for c in why[:300]) if isinstance(why, str) else ""
        return {"t": kind, "game": data.get("game"), "why": why}
    if kind == "answer":
        return {"t": kind, "game": data.get("game"), "text": text(data, "text", limit)}
    raise WireError(f"unknown message {kind!r}")


def _short(data: dict, key: str) -> str:
    value = data.get(key)
    return "" if value is None else str(value)[:200]


def from_server(data: dict) -> dict:
    """The server's message `data` (from :func:`load`) checked: each kind the bridge acts on with
    its fields of the right types (``game`` ids of at most 100 characters, command lines of at most
    4,096, seconds finite), words shown to the user cut to 200 characters; a kind the bridge does
    not know as ``{"t": kind}`` (ignored); WireError for a known kind with a wrong field."""
    kind = data["t"]
    if kind == "welcome":
        resume = data.get("resume")
        return {"t": kind, "pools": words(data, "pools"), "resume": None if resume is None else text(data, "resume", 100)}
    if kind == "refused":
        return {"t": kind, "reason": _short(data, "reason"), "retry": data.get("retry") is True}
    if kind == "game":
        resume = lines(data, "resume")
        return {"t": kind, "game": text(data, "game", 100),
                "resume": None if resume is None else [hgp_line(line, "resume") for line in resume]}
    if kind == "command":
        return {"t": kind, "game": text(data, "game", 100),
                "line": hgp_line(text(data, "line", 4096, empty=True), "line"), "within": seconds(data, "within")}
    if kind == "end":
        sgf = data.get("sgf")
        return {"t": kind, "game": text(data, "game", 100), "sgf": sgf if isinstance(sgf, str) else None,
                **{k: _short(data, k) for k in ("first", "second", "result", "reason")}}
    return {"t": kind}


def safe_id(game: str) -> bool:
    """Whether a game id may name a local file (ASCII letters, digits, `_ . -`, not starting with a dot)."""
    return bool(game) and len(game) <= 100 and game[0] != "." and all(c.isascii() and (c.isalnum() or c in "_.-")
                                                                      for c in game)
