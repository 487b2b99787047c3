"""One action of a game as the record keeps it (:class:`Move`), and its journal form.

Standard library only. A journal line of schema 3 holds the game's moves as one list
`moves`, one object per action, first action first, with these keys (the keys of the
live files, docs/tournament.md "Live files"):

* `a`: the action's canonical token (always present);
* `c`: the colour of its mover, `B` or `W` (the referee always writes it; a move read from a
  schema-1 line, which did not record it, has none);
* `t`: the seconds its engine took to answer `genmove`;
* `l`: the seconds left on the mover's clock after it;
* `i`: the info lines its engine gave with `genmove_analyze`, each an object with `line`
  (verbatim) and the keys read from it (`winrate`, `score`, `visits`, `depth`, `pv`, `other`).

Every other key is left out when it has no value: `t` and `l` for an opening action (no
engine chose it), `l` without a clock, `i` for an action asked with `genmove`. Lines of
schemas 1 and 2 kept the same facts in parallel lists (`actions`, `think`, `colours`, `left`,
`analysis`); :func:`moves_of_lists` reads them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

#: The colours of a mover, as the journal and the SGF write them.
COLOURS = ("B", "W")


@dataclass(frozen=True, slots=True)
class Move:
    """One action: its canonical token, the colour of its mover (None only in a schema-1 line,
    which did not record it), the seconds its engine took (None: an opening action, which no
    engine chose), the seconds left on the mover's clock after it (None: no clock, or an
    opening action) and the info lines its engine gave (None: its engine was not asked)."""

    action: str
    colour: str | None
    think: float | None = None
    left: float | None = None
    analysis: tuple[dict, ...] | None = None

    def __reduce__(self) -> tuple[type[Move], tuple[Any, ...]]:
        """Pickled as its five values (a record crosses from a worker process to the runner's with
        every move: half the bytes' work of the default, which pickles each slot by name)."""
        return Move, (self.action, self.colour, self.think, self.left, self.analysis)

    def to_json(self) -> dict[str, Any]:
        """The journal's object for this move (keys without a value left out)."""
        out: dict[str, Any] = {"a": self.action}
        if self.colour is not None:
            out["c"] = self.colour
        if self.think is not None:
            out["t"] = self.think
        if self.left is not None:
            out["l"] = self.left
        if self.analysis is not None:
            out["i"] = list(self.analysis)
        return out


MOVE_KEYS = frozenset({"a", "c", "t", "l", "i"})


@cache
def moves_text() -> re.Pattern[bytes]:
    """The text after ``"moves": `` of a journal line as :meth:`GameRecord.to_json` writes it: the
    moves (null, or a list of :meth:`Move.to_json` objects, keys in that order, each info line an
    object of `line` then the keys of protocol.analysis.Info.as_dict in their order), the record's
    closing brace and JSON white space. Whatever it matches, read as UTF-8, is JSON that
    :func:`moves_from_json` accepts: every string is a JSON string, every number a JSON number of
    at most 20 digits each side of the point (no NaN nor Infinity), `a` and `line` are strings, `c`
    is B or W, no key is unknown or given twice. It does not check UTF-8 (bytes from 0x80 may be in
    strings).

    Built from the JSON pieces :func:`json.dumps` writes (separators `, ` and `: `), compiled on
    first use (~5 ms: a process that reads no journal does not pay it). Every quantifier is
    possessive, so a match or a refusal takes time linear in the text."""
    chars = rb'[^"\\\x00-\x1f]*+'                 # a string's characters but a quote, a backslash, a control
    text = rb'"' + chars + rb'(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})' + chars + rb')*+"'
    # a JSON number of at most 20 digits each side of the point (int() reads at most 4,300 digits)
    number = rb'-?+(?>0|[1-9][0-9]{0,19}+)(?:\.[0-9]{1,20}+)?+(?:[eE][-+]?+[0-9]{1,3}+)?+'

    def key(name: bytes, value: bytes) -> bytes:
        return rb'(?:, "' + name + rb'": ' + value + rb')?+'

    def array(item: bytes) -> bytes:
        return rb'\[(?:' + item + rb'(?:, ' + item + rb')*+)?+\]'

    pair = text + rb': ' + text
    info = (rb'\{"line": ' + text + b"".join(key(k, number) for k in (b"winrate", b"score", b"visits", b"depth"))
            + key(b"pv", array(text)) + key(b"other", rb'\{(?:' + pair + rb'(?:, ' + pair + rb')*+)?+\}') + rb'\}')
    move = (rb'\{"a": ' + text + key(b"c", rb'"[BW]"') + key(b"t", number) + key(b"l", number)
            + key(b"i", array(info)) + rb'\}')
    return re.compile(rb'(?:null|' + array(move) + rb')\}[ \t\n\r]*+')


def moves_from_json(value: object) -> tuple[Move, ...] | None:
    """The `moves` field of a schema-3 line; ValueError naming the move and key at fault."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError("field 'moves' must be a list or null")
    out: list[Move] = []
    append = out.append
    for ply, obj in enumerate(value, 1):
        # a move as the referee writes it, checked in one expression; any other goes through _move
        if (type(obj) is dict and obj.keys() <= MOVE_KEYS and type(action := obj.get("a")) is str
                and (colour := obj.get("c")) in _COLOUR_OR_NONE and type(think := obj.get("t")) in _SECONDS
                and type(left := obj.get("l")) in _SECONDS and ((lines := obj.get("i")) is None or lines == [])):
            append(Move(action, colour, think, left, None if lines is None else ()))
        else:
            append(_move(obj, ply))
    return tuple(out)


_COLOUR_OR_NONE = frozenset({*COLOURS, None})
_SECONDS = frozenset({int, float, type(None)})


def _move(obj: object, ply: int) -> Move:
    """One object of `moves` (the `ply`-th), each key checked; ValueError naming the key at fault."""
    where = f"field 'moves': move {ply}"
    if not isinstance(obj, dict):
        raise ValueError(f"{where} must be an object")
    unknown = set(obj) - MOVE_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    if not isinstance(obj.get("a"), str):
        raise ValueError(f"{where}: 'a' must be a string (the action's token)")
    colour = obj.get("c")
    if colour is not None and colour not in COLOURS:
        raise ValueError(f"{where}: 'c' must be B or W")
    return Move(obj["a"], colour, _seconds(obj.get("t"), f"{where}: 't'"), _seconds(obj.get("l"), f"{where}: 'l'"),
                _lines(obj.get("i"), f"{where}: 'i'"))


def moves_of_lists(actions: object, think: object = None, colours: object = None, left: object = None,
                   analysis: object = None) -> tuple[Move, ...] | None:
    """The moves of a schema-1 or schema-2 line, from its parallel lists `actions`, `think`,
    `colours`, `left` and `analysis` (decoded JSON values): a null list, or one whose length is
    not the number of actions (which the readers of those schemas ignored too), gives every move
    no value there; ValueError naming the field at fault for a value of the wrong type."""
    if actions is not None and (not isinstance(actions, list) or not all(isinstance(a, str) for a in actions)):
        raise ValueError("field 'actions' must be a list of strings or null")
    if colours is not None and (not isinstance(colours, str) or set(colours) - set(COLOURS)):
        raise ValueError("field 'colours' must be a string of B and W")
    times = _per_action("think", think, _seconds)
    rests = _per_action("left", left, _seconds)
    lines = _per_action("analysis", analysis, _lines)
    if actions is None:
        return None
    n = len(actions)
    return tuple(Move(token, None if colours is None or len(colours) != n else colours[i],
                      _nth(times, i, n), _nth(rests, i, n), _nth(lines, i, n))
                 for i, token in enumerate(actions))


def _per_action(name: str, value: object, read) -> list | None:
    """A parallel list of a schema-1 or -2 line, each entry read by `read`."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError(f"field {name!r} must be a list or null")
    return [read(v, f"field {name!r}: action {i + 1}") for i, v in enumerate(value)]


def _nth(values: list | None, i: int, n: int):
    return None if values is None or len(values) != n else values[i]


def _seconds(value: object, where: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValueError(f"{where} must be a number of seconds or null")
    return value


def _lines(value: object, where: str) -> tuple[dict, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(d, dict) and isinstance(d.get("line"), str)
                                              for d in value):
        raise ValueError(f"{where} must be null or a list of objects with a 'line'")
    return tuple(value)
