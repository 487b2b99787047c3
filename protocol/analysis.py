"""The answer of `genmove_analyze` (docs/protocol.md, "Analysis"): one parser and validator, both sides.

An answer is the action on its first line, then zero or more info lines::

    info KEY VALUE [KEY VALUE ...] [pv ACTION ACTION ...]

Keys: `winrate` (the mover's chance to win, a decimal in 0..1), `score` (a
signed decimal), `visits` and `depth` (whole numbers), `pv` (action tokens to
the end of the line). Every key is optional but a line names at least one;
a key appears at most once; unknown keys (a word, then one value) are kept
as text, in order. At most :data:`MAX_LINES` info lines of at most
:data:`MAX_LINE_BYTES` bytes each. :func:`parse_info` raises
:class:`InfoError` naming what is wrong; :func:`check_pv` judges a `pv` by the
rules (it starts with the action played and is a line of legal, canonical actions).

Numbers are read by small bounded readers here (ASCII digits, at most
:data:`MAX_DIGITS` of them); nothing is handed to `float()` or `int()` unchecked.
"""
from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from hexarena.engine.actions import Action
from hexarena.engine.errors import RulesError
from hexarena.engine.game import GameState

__all__ = ["Info", "InfoError", "Analysed", "parse_info", "check_pv", "checked", "split_answer", "MAX_LINES",
           "MAX_LINE_BYTES", "KNOWN_KEYS"]

#: Info lines kept per answer; later ones are dropped.
MAX_LINES = 8
#: The longest info line, in bytes (UTF-8).
MAX_LINE_BYTES = 4096
#: The most digits a number of an info line may have (before and after the point together).
MAX_DIGITS = 18
KNOWN_KEYS = ("winrate", "score", "visits", "depth", "pv")

_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?\Z", re.ASCII)
_WHOLE = re.compile(r"[0-9]+\Z", re.ASCII)
_WORD = re.compile(r"[a-z][a-z0-9_-]{0,63}\Z", re.ASCII)
_TOKEN = re.compile(r"[!-~]+\Z", re.ASCII)        # printable ASCII, no space


class InfoError(ValueError):
    """An info line that breaks the grammar; the message says what and where."""


@dataclass(frozen=True)
class Info:
    """One info line's content (None / empty: not given). `other`: unknown keys with their values."""

    winrate: float | None = None
    score: float | None = None
    visits: int | None = None
    depth: int | None = None
    pv: tuple[str, ...] = ()
    other: tuple[tuple[str, str], ...] = field(default=())

    def line(self) -> str:
        """The info line, keys in the table's order, unknown keys before `pv`."""
        words = ["info"]
        if self.winrate is not None:
            words += ["winrate", _decimal(self.winrate, 4)]
        if self.score is not None:
            words += ["score", _decimal(self.score, 2)]
        for key in ("visits", "depth"):
            value = getattr(self, key)
            if value is not None:
                words += [key, str(value)]
        for key, text in self.other:
            words += [key, text]
        if self.pv:
            words += ["pv", *self.pv]
        return " ".join(words)

    def as_dict(self) -> dict:
        """The fields given, for the journal: `pv` a list, `other` a {key: text} object."""
        out: dict = {k: getattr(self, k) for k in ("winrate", "score", "visits", "depth")
                     if getattr(self, k) is not None}
        if self.pv:
            out["pv"] = list(self.pv)
        if self.other:
            out["other"] = dict(self.other)
        return out


class Analysed(NamedTuple):
    """A bot's move with what it thinks (engine side: the answer to `genmove_analyze`)."""

    action: Action
    info: tuple[Info, ...] = ()


def _decimal(value: float, places: int) -> str:
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _read_decimal(text: str, key: str) -> float:
    if not _DECIMAL.match(text) or len(text) > MAX_DIGITS + 2:
        raise InfoError(f"{key} {text[:40]!r} is not a decimal number (e.g. 0.62, -3.5)")
    return float(text)


def _read_whole(text: str, key: str) -> int:
    if not _WHOLE.match(text) or len(text) > MAX_DIGITS:
        raise InfoError(f"{key} {text[:40]!r} is not a whole number >= 0 of at most {MAX_DIGITS} digits")
    return int(text)


def parse_info(line: str) -> Info:
    """One info line as an :class:`Info`; InfoError naming the first thing wrong."""
    if len(line.encode("utf-8", "replace")) > MAX_LINE_BYTES:
        raise InfoError(f"info line of more than {MAX_LINE_BYTES} bytes")
    words = line.split()
    if not words or words[0] != "info":
        raise InfoError(f"an info line starts with 'info' (in lower case): {line[:40]!r}")
    if len(words) == 1:
        raise InfoError("an info line names at least one key")
    values: dict = {}
    other: list[tuple[str, str]] = []
    i = 1
    while i < len(words):
        key = words[i]
        if key == "pv":
            pv = words[i + 1:]
            if not pv:
                raise InfoError("pv without an action")
            for token in pv:
                if not _TOKEN.match(token):
                    raise InfoError(f"pv: {token[:40]!r} is not an action token")
            values["pv"] = tuple(pv)
            break
        if not _WORD.match(key):
            raise InfoError(f"key {key[:40]!r} is not a word (lower-case letters, digits, _ and -)")
        if key in values or any(key == k for k, _ in other):
            raise InfoError(f"key {key!r} appears twice")
        if i + 1 >= len(words):
            raise InfoError(f"key {key!r} has no value")
        text = words[i + 1]
        if key in ("winrate", "score"):
            number = _read_decimal(text, key)
            if key == "winrate" and not 0.0 <= number <= 1.0:
                raise InfoError(f"winrate {text!r} is outside 0..1")
            values[key] = number
        elif key in ("visits", "depth"):
            values[key] = _read_whole(text, key)
        else:
            if not _TOKEN.match(text):
                raise InfoError(f"{key}: {text[:40]!r} is not a value (printable ASCII)")
            other.append((key, text))
        i += 2
    return Info(other=tuple(other), **values)


def check_pv(pv: tuple[str, ...], state: GameState, played: str,
             walked: dict[tuple[str, ...], GameState] | None = None) -> None:
    """InfoError unless `pv` starts with `played` (the canonical token of the action chosen in
    `state`) and is a line of canonical actions the rules allow from `state`, up to the end of the game.

    `walked` (one dict for the lines of one answer) keeps the state after each prefix already
    checked, so lines that share a beginning are walked through the rules once."""
    if pv[0] != played:
        raise InfoError(f"pv starts with {pv[0][:40]!r}, not with the action played, {played!r}")
    walk, start = state, 0
    if walked is not None:
        for start in range(len(pv), 0, -1):
            if pv[:start] in walked:
                walk = walked[pv[:start]]
                break
        else:
            start = 0
    for i, token in enumerate(pv[start:], start):
        if walk.outcome() is not None:
            raise InfoError(f"pv goes on after the end of the game at {token[:40]!r}")
        try:
            action = walk.parse(token)
            if walk.format(action) != token:
                raise InfoError(f"pv: {token[:40]!r} is not canonical ({walk.format(action)[:40]!r})")
            walk = walk.play(action)
        except RulesError as exc:
            raise InfoError(f"pv action {i + 1}, {token[:40]!r}: {exc}") from None
        if walked is not None:
            walked[pv[:i + 1]] = walk


def checked(info: Info, state: GameState, played: str) -> tuple[Info | None, list[str]]:
    """The engine side's check of what a bot says of its action `played` (canonical, or
    `resign`) in `state`: `info` without the values the grammar refuses (a `winrate` that is not
    a number from 0 to 1, a `score` that is not a decimal of at most MAX_DIGITS digits, `visits`
    or `depth` that are not whole numbers >= 0, an unknown key or value that is not a word and a
    token, a `pv` with a token that is not printable ASCII without spaces or that
    :func:`check_pv` refuses), and a sentence for each value dropped; None for a line with
    nothing left (or nothing given). The line of what is kept always parses with
    :func:`parse_info`, within MAX_LINE_BYTES: a value can never add a line to the answer."""
    problems: list[str] = []
    values: dict = {}
    for key in ("winrate", "score"):
        value = getattr(info, key)
        if value is None:
            continue
        if not isinstance(value, numbers.Real) or isinstance(value, bool) or not math.isfinite(float(value)):
            problems.append(f"{key} {_shown(value)} is not a finite number")
        elif key == "winrate" and not 0 <= float(value) <= 1:
            problems.append(f"winrate {_shown(value)} is outside 0..1")
        elif len(_decimal(float(value), 2).lstrip("-").replace(".", "")) > MAX_DIGITS:
            problems.append(f"{key} {_shown(value)} has more than {MAX_DIGITS} digits")
        else:
            values[key] = float(value)
    for key in ("visits", "depth"):
        value = getattr(info, key)
        if value is None:
            continue
        if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not 0 <= int(value) < 10 ** MAX_DIGITS:
            problems.append(f"{key} {_shown(value)} is not a whole number >= 0 of at most {MAX_DIGITS} digits")
        else:
            values[key] = int(value)
    other: list[tuple[str, str]] = []
    for key, text in info.other:
        if not isinstance(key, str) or not _WORD.match(key) or key in KNOWN_KEYS or key in dict(other):
            problems.append(f"key {_shown(key)} is not a new word (lower-case letters, digits, _ and -)")
        elif not isinstance(text, str) or not _TOKEN.match(text):
            problems.append(f"{key}: {_shown(text)} is not a value (printable ASCII, no space)")
        else:
            other.append((key, text))
    if info.pv:
        bad = next((t for t in info.pv if not isinstance(t, str) or not _TOKEN.match(t)), None)
        try:
            if bad is not None:
                raise InfoError(f"pv: {_shown(bad)} is not an action token (printable ASCII, no space)")
            check_pv(tuple(info.pv), state, played)
            values["pv"] = tuple(info.pv)
        except InfoError as exc:
            problems.append(str(exc))
    kept = Info(other=tuple(other), **values)
    if len(kept.line().encode()) > MAX_LINE_BYTES and kept.pv:
        problems.append(f"pv of {len(kept.pv)} actions makes a line of more than {MAX_LINE_BYTES} bytes")
        kept = Info(other=kept.other, **{k: v for k, v in values.items() if k != "pv"})
    if len(kept.line().encode()) > MAX_LINE_BYTES:
        problems.append(f"{len(kept.other)} unknown keys make a line of more than {MAX_LINE_BYTES} bytes")
        kept = Info(**{k: v for k, v in values.items() if k != "pv"})
    if kept == Info():
        return None, problems
    parse_info(kept.line())         # InfoError here is a bug of this function: nothing refused is kept
    return kept, problems


def _shown(value: object) -> str:
    """A value as a problem names it, at most 40 characters of its repr."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def split_answer(text: str) -> tuple[str, list[str]]:
    """The answer of `genmove_analyze` as (its first line, the lines after it)."""
    first, _, rest = text.partition("\n")
    return first.strip(), [ln.strip() for ln in rest.split("\n") if ln.strip()]
