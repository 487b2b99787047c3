"""The layering of DESIGN.md, checked by scanning every import (ast), plus `trio.run` only in the CLI.

    engine    stdlib only
    protocol  engine
    players   engine, protocol (never referee, results or trio)
    results   anything but trio, referee, protocol, players
    referee   engine, protocol, results, trio, click
    hexarena  the package root: hexarena/cli.py is the composition root and may import everything

Every import is written `hexarena.<package>...` (or relative); `engine`, `protocol`, ... are
not installed names.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = {"engine", "protocol", "players", "referee", "results"}
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
COMPOSITION_ROOT = "hexarena/cli.py"
TRIO_RUN_ALSO = {"hexarena/cluster_worker.py"}     # a Dask worker's entry: runs one game per task

#: package -> (our packages it may import, third-party packages it may import; None = any but `banned`)
ALLOWED: dict[str, tuple[set[str], set[str] | None]] = {
    "engine": (set(), set()),
    "protocol": ({"engine"}, set()),
    "players": ({"engine", "protocol"}, None),
    "results": ({"engine"}, None),
    "referee": ({"engine", "protocol", "results"}, None),
    "hexarena": (OURS, None),
}
BANNED_THIRD_PARTY = {"players": {"trio"}, "results": {"trio"}}


def _package(dotted: str) -> str:
    """The layer of a dotted name: `hexarena.engine.geometry` -> `engine`, `trio.lowlevel` -> `trio`."""
    parts = dotted.split(".")
    if parts[0] == "hexarena" and len(parts) > 1 and parts[1] in OURS:
        return parts[1]
    if parts[0] in OURS:
        return "bare " + parts[0]           # not an installed name: always a violation
    return parts[0]


def imports(source: str, module: str) -> list[tuple[int, str]]:
    """(line, layer) of every import in `source`, relative ones resolved against `module`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, _package(alias.name)) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")[:-node.level]
                base = ".".join(parts + ([node.module] if node.module else []))
                found.append((node.lineno, _package(base)))
            else:
                found.append((node.lineno, _package(node.module)))
    return found


def calls_trio_run(source: str) -> list[int]:
    return [n.lineno for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Attribute) and n.attr == "run"
            and isinstance(n.value, ast.Name) and n.value.id == "trio"]


def violations(rel: str, source: str) -> list[str]:
    """Every broken arrow in one file (`rel` like `engine/spelde.py`)."""
    package = rel.split("/")[0]
    module = rel[:-3].replace("/", ".")
    if package != "hexarena":
        module = "hexarena." + module                   # the installed name of the file
    if module.endswith(".__init__"):
        module = module[: -len(".__init__")] + ".x"     # relative imports resolve inside the package
    ours, third = ALLOWED[package]
    out = []
    for line, top in imports(source, module):
        where = f"{rel}:{line}"
        if top.startswith("bare "):
            out.append(f"{where}: import hexarena.{top[5:]}, not {top[5:]} (not an installed name)")
            continue
        if top == package or top in STDLIB:
            continue
        if top in OURS:
            if top in ours:
                continue
            out.append(f"{where}: {package} must not import {top}")
        elif third is not None and top not in third:
            out.append(f"{where}: {package} must not import the third-party package {top}")
        elif top in BANNED_THIRD_PARTY.get(package, ()):
            out.append(f"{where}: {package} must not import {top}")
    if rel != COMPOSITION_ROOT and rel not in TRIO_RUN_ALSO:
        out += [f"{rel}:{line}: trio.run belongs to {COMPOSITION_ROOT} only" for line in calls_trio_run(source)]
    return out


def sources() -> list[tuple[str, str]]:
    files = []
    for package in sorted(ALLOWED):
        for path in sorted((ROOT / package).rglob("*.py")):
            files.append((path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")))
    return files


def test_every_package_keeps_its_layer():
    found = sources()
    assert {rel.split("/")[0] for rel, _ in found} >= {"engine", "referee"}
    problems = [p for rel, src in found for p in violations(rel, src)]
    assert problems == []


@pytest.mark.parametrize("rel, source, expected", [
    ("engine/x.py", "import trio\n", "engine must not import the third-party package trio"),
    ("engine/x.py", "from hexarena.protocol import controller\n", "engine must not import protocol"),
    ("engine/x.py", "def f():\n    import pandas\n", "x.py:2: engine must not import the third-party package pandas"),
    ("protocol/x.py", "from hexarena.referee.match import play_game\n", "protocol must not import referee"),
    ("players/x.py", "import trio.lowlevel\n", "players must not import trio"),
    ("players/x.py", "from hexarena.referee import match\n", "players must not import referee"),
    ("results/x.py", "from trio import run\n", "results must not import trio"),
    ("results/x.py", "from hexarena.protocol.controller import Response\n", "results must not import protocol"),
    ("referee/match.py", "from hexarena.players import get\n", "referee must not import players"),
    ("referee/match.py", "import trio\ntrio.run(f)\n", "trio.run belongs to hexarena/cli.py only"),
    ("engine/sub/y.py", "from ...referee import match\n", "engine must not import referee"),
    ("referee/x.py", "from engine.core import Colour\n", "import hexarena.engine, not engine"),
    ("players/x.py", "import protocol\n", "import hexarena.protocol, not protocol"),
])
def test_the_checker_catches_each_broken_arrow(rel, source, expected):
    assert any(expected in v for v in violations(rel, source)), violations(rel, source)


@pytest.mark.parametrize("rel, source", [
    ("engine/x.py", "import random, itertools\nfrom . import geometry\nfrom .core import Colour\n"),
    ("protocol/x.py", "from hexarena.engine.game import GameState\n"),
    ("players/x.py", "from hexarena.protocol.engine_side import EngineSide\nfrom hexarena.engine import registry\n"),
    ("results/x.py", "import pandas as pd\nfrom hexarena.engine.core import Colour\n"),
    ("hexarena/cli.py", "import trio\nfrom hexarena.players.serve import serve\ntrio.run(main)\n"),
])
def test_the_checker_accepts_the_allowed_arrows(rel, source):
    assert violations(rel, source) == []
