"""The checks behind config.py: ConfigError, the small type checks with line lookup, and the
best-effort map from TOML keys to line numbers. Standard library only."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path


class ConfigError(ValueError):
    """A configuration defect: `file:line: key: message` (line when known)."""

    def __init__(self, source: str, key: str, message: str, line: int | None = None):
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.source, self.key, self.line, self.message = source, key, line, message


class KeyReader:
    """Reads the keys of one config file: errors naming the file, key and line, and the small type
    checks; shared by config.py and config_sections.py."""

    def __init__(self, source: str, lines: dict[str, int], base: Path | None = None):
        self.source, self.lines, self.base = source, lines, base
        #: hexarena.players.problem when the caller may import the players (config.PlayerCheck)
        self.players: Callable[[str], str | None] | None = None

    def error(self, key: str, message: str) -> ConfigError:
        line = self.lines.get(key)
        probe = key
        while line is None and probe:          # fall back to the enclosing table
            probe = probe.rpartition(".")[0]
            line = self.lines.get(probe)
        return ConfigError(self.source, key, message, line)

    def only(self, table: dict, key: str, allowed: set[str]) -> None:
        for k in table:
            if k not in allowed:
                full = f"{key}.{k}" if key else k
                raise self.error(full, f"unknown key (expected one of {', '.join(sorted(allowed))})")

    def string(self, value: object, key: str, empty: bool = False) -> str:
        if not isinstance(value, str) or (not empty and not value):
            raise self.error(key, f"expected a string, got {value!r}")
        return value

    def strings(self, value: object, key: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, f"expected a list of strings, got {value!r}")
        return value

    def integer(self, value: object, key: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.error(key, f"expected an integer in {lo}..{hi}, got {value!r}")
        return value

    def choice(self, value: object, key: str, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise self.error(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return value


_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(r"\s*([A-Za-z0-9_.\"' -]+?)\s*=")


def key_lines(text: str) -> dict[str, int]:
    """Best-effort map from dotted keys (`engines.random.cmd`, `games[1].sizes`) to line numbers."""
    lines: dict[str, int] = {}
    table = ""
    counts: dict[str, int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m:
            name = ".".join(p.strip().strip("\"'") for p in m.group(2).split("."))
            if m.group(1) == "[[":
                counts[name] = counts.get(name, -1) + 1
                name = f"{name}[{counts[name]}]"
            table = name
            lines.setdefault(table, no)
            continue
        m = _ASSIGN.match(line)
        if m and not line.lstrip().startswith("#"):
            key = ".".join(p.strip().strip("\"'") for p in m.group(1).split("."))
            lines.setdefault(f"{table}.{key}" if table else key, no)
    return lines
