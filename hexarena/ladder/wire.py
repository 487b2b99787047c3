"""The messages between the ladder server and a bridge: one JSON object per WebSocket text message,
its kind in ``t`` (docs/ladder.md, "The wire").

Bridge to server: ``login`` (account, token, pools, engine identity and games; the first message,
within the login time), ``answer`` (an engine's HGP answer to a command of a game), ``crashed``
(the engine of a game died or stopped answering: that game is lost), ``drain`` (finish the game in
hand, take no other), ``ping``.

Server to bridge: ``welcome``, ``refused`` (why; the connection closes), ``game`` (a game starts
or resumes: its setup, and on resumption the HGP lines that restore the engine's position),
``command`` (one HGP command line of a game and the seconds left to answer it), ``end`` (the
game's result and SGF record), ``pong``.
"""
from __future__ import annotations

import json
from typing import Any

VERSION = 1
PATH = "/ladder/ws"
#: Close codes: 4001 refused at login, 4008 a bound was passed, 1011 the server is stopping.
REFUSED, BOUND = 4001, 4008


class WireError(ValueError):
    """A message that is not what the wire allows (the message says what)."""


def dump(kind: str, **fields: Any) -> str:
    return json.dumps({"t": kind, **fields}, separators=(",", ":"))


def load(text: str | bytes | None) -> dict:
    """One message as a dict with a string ``t``; WireError for anything else."""
    if not isinstance(text, str):
        raise WireError("expected a text message holding a JSON object")
    try:
        data = json.loads(text)
    except ValueError:
        raise WireError("not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise WireError("expected a JSON object with a string \"t\"")
    return data


def text(data: dict, key: str, limit: int = 4096, empty: bool = False) -> str:
    """`data[key]` as a string of at most `limit` characters; WireError otherwise."""
    value = data.get(key)
    if not isinstance(value, str) or len(value) > limit or (not empty and not value):
        raise WireError(f"\"{key}\": expected a string of 1 to {limit} characters")
    return value


def words(data: dict, key: str, most: int = 64) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > most or not all(isinstance(v, str) and len(v) <= 100 for v in value):
        raise WireError(f"\"{key}\": expected a list of at most {most} short strings")
    return value


def safe_id(game: str) -> bool:
    """Whether a game id may name a local file (letters, digits, `_ . -`, not starting with a dot)."""
    return bool(game) and len(game) <= 100 and game[0] != "." and all(c.isalnum() or c in "_.-" for c in game)
