"""Reading our SGF records back: a small FF[4] reader for one game tree.

Reads what referee/sgf.py writes and what other SGF tools make of it: one
game tree (variations are refused), properties with one or more values,
escapes (`\\]`, `\\\\`, soft line breaks). Every error says what and where
(line and column).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_IDENT = re.compile(r"[A-Z]+")   # FF[4]: upper-case letters only


class SgfError(ValueError):
    """A malformed SGF text; the message names the line and column."""


@dataclass(frozen=True)
class SgfNode:
    props: dict[str, list[str]]

    def get(self, name: str, default: str | None = None) -> str | None:
        values = self.props.get(name)
        return values[0] if values else default


def parse_sgf(text: str) -> list[SgfNode]:
    """The nodes of the single main line of `text` (root first)."""
    reader = _Reader(text)
    reader.skip_space()
    reader.expect("(")
    nodes: list[SgfNode] = []
    while True:
        reader.skip_space()
        ch = reader.peek()
        if ch == ";":
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
        while self.peek().isspace():
            self.pos += 1

    def error(self, message: str) -> SgfError:
        line = self.text.count("\n", 0, self.pos) + 1
        col = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        return SgfError(f"line {line}, column {col}: {message}")

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            raise self.error(f"expected {ch!r}, found {self.peek() or 'end of text'!r}")
        self.pos += 1

    def properties(self) -> dict[str, list[str]]:
        props: dict[str, list[str]] = {}
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
                values.append(self.value())
                self.skip_space()
            if not values:
                raise self.error(f"property {name} has no value")
            props[name] = values

    def value(self) -> str:
        self.expect("[")
        out: list[str] = []
        while True:
            ch = self.peek()
            if ch == "":
                raise self.error("a property value is not closed with ']'")
            self.pos += 1
            if ch == "]":
                return "".join(out)
            if ch == "\\":
                nxt = self.peek()
                self.pos += 1
                if nxt == "\n":            # soft line break
                    continue
                out.append(nxt)
            else:
                out.append(ch)
