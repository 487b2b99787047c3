"""SGF records of games (docs/protocol.md, "SGF records"): the writer and a small FF[4] reader.

Writing: one game tree, one node per action: ``B[token]`` / ``W[token]`` with
the canonical HGP token. Root properties: FF[4] CA[UTF-8] GM (the game's
number) AP, SZ (board side), XG (game id), XV (variant), XK (komi, when
set), PB/PW (engines holding each colour at the end), XPB/XPW (what those
engines answered to `name` and `version`, when they answered), XF (engine names by
seat: seat 1, seat 2), RE, XR (how the game ended), GN (the game id in the
schedule), DT (date), TM/OT (the time control, given by the referee; OT
twice, by seat, with time odds), XO (how many of the first actions were the
schedule's opening). Each action node an engine chose also holds XT
(seconds the engine took) and, under a clock, BL/WL (seconds left on the
mover's clock after it); opening actions have neither. An action whose
engine answered `genmove_analyze` with info lines holds XA, one value per
line, verbatim. Custom properties start with X.

Reading: what the writer makes and what other SGF tools make of it: one
game tree (variations are refused), properties with one or more values,
escapes (`\\]`, `\\\\`, soft line breaks). Every error says what and where
(line and column).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .game import GameRecord

APP = "hexarena:0.1"
#: Root properties the referee adds for the time control: (name, values), e.g. ("TM", ("60",)).
TimeProps = Sequence[tuple[str, Sequence[str]]]


def escape(text: str) -> str:
    """A property value: backslash and `]` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def prop(name: str, *values: str) -> str:
    return name + "".join(f"[{escape(v)}]" for v in values)


def sgf_text(record: GameRecord, gm: int, time_props: TimeProps = ()) -> str:
    """The SGF text of a finished game's record; `gm` is the game's SGF number (GameInfo.sgf_number).
    ValueError for a void game or a record without its moves' colours."""
    if record.void or record.moves is None or any(m.colour is None for m in record.moves):
        raise ValueError(f"{record.id}: only a finished game with its actions and colours has an SGF record")
    root = [prop("FF", "4"), prop("CA", "UTF-8"), prop("GM", str(gm)), prop("AP", APP),
            prop("SZ", str(record.size)), prop("XG", record.game), prop("XV", record.variant)]
    if record.komi is not None:
        root.append(prop("XK", str(record.komi)))
    root += [prop("GN", record.id), prop("PB", record.black), prop("PW", record.white)]
    root += _identities(record)
    root += [prop("XF", record.first, record.second),
             prop("RE", record.result), prop("XR", f"{record.termination}: {record.reason}")]
    if record.started:
        root.append(prop("DT", record.started[:10]))
    root += [prop(name, *values) for name, values in time_props]
    if record.opening:
        root.append(prop("XO", str(record.opening)))
    lines = ["(;" + "".join(root)]
    for move in record.moves:
        letter, action, spent, rest = move.colour, escape(move.action), move.think, move.left
        # a number written :g holds no backslash and no `]`: nothing to escape
        if spent is None:
            node = f";{letter}[{action}]"
        elif rest is None:
            node = f";{letter}[{action}]XT[{spent:g}]"
        else:
            node = f";{letter}[{action}]XT[{spent:g}]{letter}L[{rest:g}]"
        if move.analysis:
            node += prop("XA", *(info["line"] for info in move.analysis))
        lines.append(node)
    return "\n".join(lines) + ")\n"

def _identities(record: GameRecord) -> list[str]:
    """XPB / XPW: `name version` of the engines holding Black and White at the end, when known."""
    if record.identities is None:
        return []
    seats = {record.first: record.identities[0], record.second: record.identities[1]}
    out = []
    for letter, engine in (("B", record.black), ("W", record.white)):
        words = " ".join(w for w in seats.get(engine, [None, None]) if w)
        if words:
            out.append(prop(f"XP{letter}", words))
    return out


_IDENT = re.compile(r"[A-Z]+")   # FF[4]: upper-case letters only
_SPACE = re.compile(r"\s*")       # \s is str.isspace()'s set
_PLAIN = re.compile(r"[^\]\\]*")   # a value's text up to its end or an escape
# A game none of whose values has an escape (the common case) is read a node a match;
# anything else is read character by character, which also says what is wrong.
_PLAIN_PROPERTY = re.compile(r"([A-Z]+)((?:\s*\[[^\]\\]*\])+)")
_PLAIN_VALUE = re.compile(r"\[([^\]\\]*)\]")
_OPEN = re.compile(r"\s*\(")
_CLOSE = re.compile(r"\s*\)\s*")


#: The most nodes a record may have: the root and one per action. No game of hexarena lasts
#: longer than its ply cap (at most 4690 by default, the largest board's longest game; a config's
#: `ply_cap` is bounded below this): 20,000 leaves a margin, and refuses a forged record of a million nodes before
#: it is built (a node and its replayed state cost about 1.5 KB).
MAX_NODES = 20_000
#: The most values of one node's properties together (the writer's are a few dozen: XA holds
#: at most 8 info lines).
MAX_VALUES = 1_000


# One node of such a game, read from after the last: at most MAX_VALUES values in all (one
# past them, the character reader says where), so no match's backtracking grows with the text.
_PLAIN_NODE = re.compile(r"\s*;((?:\s*[A-Z]+(?:\s*\[[^\]\\]*\]){1,%d}){0,%d})" % (MAX_VALUES + 1, MAX_VALUES + 1))


class SgfError(ValueError):
    """A malformed SGF text; the message names the line and column."""


@dataclass(frozen=True)
class SgfNode:
    props: dict[str, list[str]]

    def get(self, name: str, default: str | None = None) -> str | None:
        values = self.props.get(name)
        return values[0] if values else default


def parse_sgf(text: str) -> list[SgfNode]:
    """The nodes of the single main line of `text` (root first); SgfError naming the line and
    column of the first defect, or of the node past MAX_NODES or the value past MAX_VALUES."""
    return _plain_game(text) or _read_game(text)


def _plain_game(text: str) -> list[SgfNode] | None:
    """The nodes of a game none of whose values has an escape, read a node a match; None
    (read it character by character) for anything else, such as a name repeated in a node."""
    start = _OPEN.match(text)
    if start is None:
        return None
    nodes: list[SgfNode] = []
    pos = start.end()
    while (node := _PLAIN_NODE.match(text, pos)) is not None:
        pos = node.end()
        if len(nodes) == MAX_NODES:
            raise _Reader(text).too_many_nodes(node.start(1) - 1)
        props: dict[str, list[str]] = {}
        count = 0
        for prop in _PLAIN_PROPERTY.finditer(text, node.start(1), node.end(1)):
            if prop.group(1) in props:
                return None
            props[prop.group(1)] = values = []
            for value in _PLAIN_VALUE.finditer(text, prop.start(2), prop.end(2)):
                if count == MAX_VALUES:
                    raise _Reader(text).too_many_values(value.start())
                count += 1
                values.append(value.group(1))
        nodes.append(SgfNode(props))
    return nodes if nodes and _CLOSE.fullmatch(text, pos) else None


def _read_game(text: str) -> list[SgfNode]:
    reader = _Reader(text)
    reader.skip_space()
    reader.expect("(")
    nodes: list[SgfNode] = []
    while True:
        reader.skip_space()
        ch = reader.peek()
        if ch == ";":
            if len(nodes) == MAX_NODES:
                raise reader.too_many_nodes(reader.pos)
            reader.pos += 1
            nodes.append(SgfNode(reader.properties()))
        elif ch == ")":
            reader.pos += 1
            break
        elif ch == "(":
            raise reader.error("variations are not supported in a game record")
        elif ch == "":
            raise reader.error("the game tree is not closed with ')'")
        else:
            raise reader.error(f"expected ';' or ')', found {ch!r}")
    if not nodes:
        raise reader.error("the game tree has no node")
    reader.skip_space()
    if reader.peek() != "":
        raise reader.error("text after the game tree (only one game per file is read)")
    return nodes


class _Reader:
    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def peek(self) -> str:
        return self.text[self.pos:self.pos + 1]

    def skip_space(self) -> None:
        self.pos = _end(_SPACE, self.text, self.pos)

    def error(self, message: str) -> SgfError:
        line = self.text.count("\n", 0, self.pos) + 1
        col = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        return SgfError(f"line {line}, column {col}: {message}")

    def too_many_nodes(self, pos: int) -> SgfError:
        self.pos = pos
        return self.error(f"more than {MAX_NODES} nodes: no game of hexarena lasts that long")

    def too_many_values(self, pos: int) -> SgfError:
        self.pos = pos
        return self.error(f"a node with more than {MAX_VALUES} property values")

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            raise self.error(f"expected {ch!r}, found {self.peek() or 'end of text'!r}")
        self.pos += 1

    def properties(self) -> dict[str, list[str]]:
        props: dict[str, list[str]] = {}
        count = 0
        while True:
            self.skip_space()
            m = _IDENT.match(self.text, self.pos)
            if not m:
                return props
            name = m.group()
            if name in props:
                raise self.error(f"property {name} appears twice in one node")
            self.pos = m.end()
            values = []
            self.skip_space()
            while self.peek() == "[":
                if count == MAX_VALUES:
                    raise self.too_many_values(self.pos)
                count += 1
                values.append(self.value())
                self.skip_space()
            if not values:
                raise self.error(f"property {name} has no value")
            props[name] = values

    def value(self) -> str:
        self.expect("[")
        out: list[str] = []
        text = self.text
        while True:
            end = _end(_PLAIN, text, self.pos)
            out.append(text[self.pos:end])
            self.pos = end
            ch = self.peek()
            if ch == "":
                raise self.error("a property value is not closed with ']'")
            self.pos += 1
            if ch == "]":
                return "".join(out)
            nxt = self.peek()                   # after a backslash: the character itself
            self.pos += 1
            if nxt == "":
                raise self.error("a property value is not closed with ']'")
            if nxt != "\n":                    # a soft line break is dropped
                out.append(nxt)


def _end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where `pattern` (one that matches the empty text too) stops matching from `pos`."""
    m = pattern.match(text, pos)
    return m.end() if m else pos
