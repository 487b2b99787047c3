"""The arrows of docs/architecture.md ("The arrows"), checked by scanning every import (ast), plus
`trio.run` only in the package root.

    engine          stdlib only
    protocol        engine
    players         engine, protocol (never referee, results or trio)
    results/record  stdlib only
    results         anything but trio, referee, protocol, players
    referee         engine, protocol, results, trio, click; its rooms as REFEREE_ROOMS says
    hexarena        the package root: the composition root, may import everything

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

#: package -> (our packages it may import, third-party packages it may import; None = any but `banned`)
ALLOWED: dict[str, tuple[set[str], set[str] | None]] = {
    "engine": (set(), {"hexarena_core"}),   # the compiled core, when installed (engine/compiled.py)
    "protocol": ({"engine"}, set()),
    "players": ({"engine", "protocol"}, None),
    "results": ({"engine"}, None),
    "referee": ({"engine", "protocol", "results"}, None),
    "hexarena": (OURS, None),
}
BANNED_THIRD_PARTY = {"players": {"trio"}, "results": {"trio"}}

#: The referee's rooms (subpackages) -> the rooms they may import. Each room's docstring says why.
REFEREE_ROOMS: dict[str, set[str]] = {
    "engines": set(),                        # engine processes: spawn, channel, logs, leftovers
    "game": {"engines"},                     # one game: the turn loop, clocks, openings
    "tournament": {"engines", "game"},       # config, schedule, pool, runner, pre-flight
    "console": {"tournament"},               # the live view of a run
    "check": {"engines"},                    # `hexarena check`
}


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


def room_imports(source: str, module: str) -> list[tuple[int, str]]:
    """(line, room) of every import of a referee room in `source`, relative ones resolved."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[:-node.level] + ([node.module] if node.module else [])
            else:
                base = (node.module or "").split(".")
            names = [".".join(base + [alias.name]) for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["hexarena", "referee"] and len(parts) > 2:
                found.append((node.lineno, parts[2]))
    return found


def room_violations(rel: str, source: str) -> list[str]:
    """Every import of one referee room by another that REFEREE_ROOMS does not allow."""
    parts = rel.split("/")
    if parts[0] != "referee" or len(parts) < 3:
        return []
    room = parts[1]
    if room not in REFEREE_ROOMS:
        return [f"{rel}: referee/{room}/ is not a room of REFEREE_ROOMS"]
    module = "hexarena." + rel[:-3].replace("/", ".")
    if module.endswith(".__init__"):
        module = module[: -len(".__init__")] + ".x"
    return [f"{rel}:{line}: referee/{room} must not import referee/{other}"
            for line, other in room_imports(source, module)
            if other != room and other not in REFEREE_ROOMS[room]]


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
    if not rel.startswith("hexarena/"):       # the package root: the CLI, its commands, a Dask worker's entry
        out += [f"{rel}:{line}: trio.run belongs to the package root hexarena/ only" for line in calls_trio_run(source)]
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
    problems = [p for rel, src in found for p in violations(rel, src) + room_violations(rel, src)]
    assert problems == []


def test_the_game_record_is_standard_library_only():
    """results/record/ sits below the referee and the analytics: it imports only the standard
    library and its own modules."""
    found = [(rel, src) for rel, src in sources() if rel.startswith("results/record/")]
    assert len(found) >= 4
    problems = []
    for rel, source in found:
        module = "hexarena." + rel[:-3].replace("/", ".")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = module.split(".")[:-node.level] + ([node.module] if node.module else [])
                names = [".".join(base)]
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in STDLIB and not name.startswith("hexarena.results.record"):
                    problems.append(f"{rel}:{node.lineno}: imports {name}")
    assert problems == []


def test_the_referee_is_rooms_only():
    """Every module of referee/ lives in a room (a subpackage), and every room is declared."""
    loose = sorted(p.name for p in (ROOT / "referee").glob("*.py") if p.name != "__init__.py")
    assert loose == []
    rooms = {p.parent.name for p in (ROOT / "referee").glob("*/__init__.py")}
    assert rooms == set(REFEREE_ROOMS)


@pytest.mark.parametrize("rel, source, expected", [
    ("referee/engines/x.py", "from ..game.match import play_game\n", "referee/engines must not import referee/game"),
    ("referee/game/x.py", "from hexarena.referee.tournament import run\n",
     "referee/game must not import referee/tournament"),
    ("referee/console/x.py", "from hexarena.referee.check.tool import check\n",
     "referee/console must not import referee/check"),
])
def test_the_room_checker_catches_a_broken_arrow(rel, source, expected):
    assert any(expected in v for v in room_violations(rel, source)), room_violations(rel, source)


def test_the_room_checker_accepts_the_allowed_arrows():
    assert room_violations("referee/tournament/run.py", "from ..game.match import play_game\n"
                           "from hexarena.referee.engines.process import open_engine\nfrom . import config\n") == []


@pytest.mark.parametrize("rel, source, expected", [
    ("engine/x.py", "import trio\n", "engine must not import the third-party package trio"),
    ("engine/x.py", "from hexarena.protocol import controller\n", "engine must not import protocol"),
    ("engine/x.py", "def f():\n    import pandas\n", "x.py:2: engine must not import the third-party package pandas"),
    ("protocol/x.py", "from hexarena.referee.game.match import play_game\n", "protocol must not import referee"),
    ("players/x.py", "import trio.lowlevel\n", "players must not import trio"),
    ("players/x.py", "from hexarena.referee.game import match\n", "players must not import referee"),
    ("results/x.py", "from trio import run\n", "results must not import trio"),
    ("results/x.py", "from hexarena.protocol.controller import Response\n", "results must not import protocol"),
    ("referee/match.py", "from hexarena.players import get\n", "referee must not import players"),
    ("referee/match.py", "import trio\ntrio.run(f)\n", "trio.run belongs to the package root hexarena/ only"),
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


# -- no import cycles -------------------------------------------------------------------------

#: The folders whose modules form the project's import graph, and the name each installs as.
GRAPH_ROOTS = {"engine": "hexarena.engine", "protocol": "hexarena.protocol", "players": "hexarena.players",
               "referee": "hexarena.referee", "results": "hexarena.results", "hexarena": "hexarena",
               "bench": "bench", "lab": "lab", "tests": "tests"}


def module_name(rel: str) -> str:
    """The dotted name a file imports as: `engine/games/anda/state.py` -> `hexarena.engine.games.anda.state`."""
    top, _, rest = rel.partition("/")
    parts = [GRAPH_ROOTS[top], *rest[:-3].split("/")]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(p for p in parts if p)


def import_graph(files: dict[str, str]) -> dict[str, set[str]]:
    """module -> the project modules it imports anywhere in its text: at the top, inside
    functions, under `if TYPE_CHECKING:` alike. `from P import n` points at P.n when that is
    a module of the project, else at P (a name defined in P)."""
    names = {module_name(rel): rel for rel in files}
    graph: dict[str, set[str]] = {}
    for name, rel in names.items():
        package = name if rel.endswith("__init__.py") else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(files[rel])):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in names else source
                           for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in names:      # `import a.b.c` of a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path `[a, b, ..., a]`, or None (depth-first search, three colours)."""
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def project_files() -> dict[str, str]:
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for top in GRAPH_ROOTS for path in sorted((ROOT / top).rglob("*.py"))}


def test_the_project_has_no_import_cycle():
    graph = import_graph(project_files())
    assert "hexarena.engine.games.anda.state" in graph and len(graph) > 100
    assert "hexarena.engine.game" in graph["hexarena.engine.registry"]
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle)


@pytest.mark.parametrize("files, cycle", [
    ({"engine/a.py": "from .b import x\n", "engine/b.py": "def f():\n    from .a import y\n"},
     ["hexarena.engine.a", "hexarena.engine.b", "hexarena.engine.a"]),
    ({"engine/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from hexarena.engine.c import z\n",
      "engine/c.py": "from . import a\n"},
     ["hexarena.engine.a", "hexarena.engine.c", "hexarena.engine.a"]),
    ({"engine/games/g/__init__.py": "from .state import RULES\n",
      "engine/games/g/state.py": "from . import moves\n", "engine/games/g/moves.py": "from .state import T\n"},
     ["hexarena.engine.games.g.state", "hexarena.engine.games.g.moves", "hexarena.engine.games.g.state"]),
])
def test_the_cycle_finder_finds_a_planted_cycle(files, cycle):
    assert find_cycle(import_graph(files)) == cycle


def test_the_cycle_finder_accepts_a_package_importing_its_modules():
    files = {"engine/games/g/__init__.py": "from .state import RULES\n",
             "engine/games/g/state.py": "from . import moves\nfrom ...core import Colour\n",
             "engine/games/g/moves.py": "import random\n", "engine/core.py": ""}
    graph = import_graph(files)
    assert graph["hexarena.engine.games.g.state"] == {"hexarena.engine.games.g.moves", "hexarena.engine.core"}
    assert find_cycle(graph) is None


def test_every_package_folder_is_listed_in_pyproject():
    """A wheel installs only the packages pyproject.toml lists (package-dir maps the folders)."""
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {module_name(init.relative_to(ROOT).as_posix())
             for top in GRAPH_ROOTS if top not in ("bench", "lab", "tests")
             for init in (ROOT / top).rglob("__init__.py")}
    assert "hexarena.engine.games.spelde" in found
    assert found - listed == set()


# -- the web server ---------------------------------------------------------------------------

#: The web server (hexarena/web) sits beside the CLI: it may import every package; of the
#: package, only these modules (and its own) import it: the CLI and its command modules.
WEB = "hexarena.web"
WEB_IMPORTERS = ("hexarena.cli", "hexarena.commands_", "hexarena.supervise",
                 "hexarena.ladder.")     # the ladder reuses the pages' machinery (security headers, assets)


def web_violations(files: dict[str, str]) -> list[str]:
    """Every module of the package outside hexarena/web and the CLI that imports hexarena/web."""
    def inside(name: str) -> bool:
        return name == WEB or name.startswith(WEB + ".")
    return [f"{name} imports {target}: only the CLI's command modules import the web server"
            for name, edges in sorted(import_graph(files).items())
            if not inside(name) and not name.startswith(WEB_IMPORTERS) and name.split(".")[0] == "hexarena"
            for target in sorted(edges) if inside(target)]


def test_only_the_cli_imports_the_web_server():
    files = project_files()
    assert any(rel.startswith("hexarena/web/") for rel in files)
    assert web_violations(files) == []


@pytest.mark.parametrize("files, expected", [
    ({"results/x.py": "from hexarena.web.app import render\n", "hexarena/web/app.py": ""},
     ["hexarena.results.x imports hexarena.web.app: only the CLI's command modules import the web server"]),
    ({"referee/game/y.py": "def f():\n    import hexarena.web.server\n", "hexarena/web/server.py": "",
      "hexarena/web/__init__.py": ""},
     ["hexarena.referee.game.y imports hexarena.web.server: only the CLI's command modules import the web server"]),
    ({"hexarena/commands_serve.py": "from hexarena.web.app import build_app\n", "hexarena/web/app.py": "",
      "hexarena/web/folders.py": "from .app import render\nfrom hexarena.results.page import board_svg\n",
      "results/page/board_svg.py": "", "tests/web/test_a.py": "from hexarena.web.app import build_app\n"}, []),
])
def test_the_web_checker_catches_an_import_of_the_web_server(files, expected):
    assert web_violations(files) == expected


# -- tests, bench and lab ---------------------------------------------------------------------

#: The folders with Python code outside the package, and the ones of them each may import (the
#: package itself always, as `hexarena.<package>`). Test helpers shared by test modules live in
#: tests/support/ (the only part of tests/ another module imports; the benches use its fake
#: engines, seeded walks and synthetic folders too); a tool's own tests live beside it
#: (bench/tests/, lab/tests/) and are the only tests that import it.
OUTSIDE: dict[str, set[str]] = {
    "tests": {"tests"},
    "bench": {"bench", "tests"},
    "bench/tests": {"bench"},
    "lab": {"lab", "bench"},
    "lab/tests": {"lab", "tests"},
    "examples": set(),                # stand-alone programs for engine authors to copy
}


def outside_folder(rel: str) -> str:
    """The OUTSIDE folder of a file: `lab/tests/test_ladder.py` -> `lab/tests`, `bench/x.py` -> `bench`."""
    top, _, rest = rel.partition("/")
    return f"{top}/tests" if rest.startswith("tests/") and f"{top}/tests" in OUTSIDE else top


def outside_imports(rel: str, source: str) -> list[tuple[int, str]]:
    """(line, dotted name) of every import in a file outside the package, relative ones resolved."""
    package = rel[:-3].split("/")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def outside_violations(rel: str, source: str) -> list[str]:
    """Every broken rule in one file of tests/, bench/ or lab/."""
    folder = outside_folder(rel)
    out = []
    for line, name in outside_imports(rel, source):
        where = f"{rel}:{line}"
        parts = name.split(".")
        if parts[0] in OURS:
            out.append(f"{where}: import hexarena.{parts[0]}, not {parts[0]} (not an installed name)")
        elif parts[0] in ("tests", "bench", "lab", "examples") and parts[0] not in OUTSIDE[folder]:
            out.append(f"{where}: {folder} must not import {parts[0]}")
        elif parts[0] == "tests" and parts[1:2] != ["support"] and not rel.startswith("tests/support/"):
            out.append(f"{where}: import test helpers from tests.support, not {'.'.join(parts[:2])}")
    return out


def outside_sources() -> list[tuple[str, str]]:
    return [(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))
            for top in ("tests", "bench", "lab", "examples") for path in sorted((ROOT / top).rglob("*.py"))]


def test_tests_bench_and_lab_keep_their_imports():
    found = outside_sources()
    assert {outside_folder(rel) for rel, _ in found} == set(OUTSIDE)
    problems = [p for rel, src in found for p in outside_violations(rel, src)]
    assert problems == []


@pytest.mark.parametrize("rel, source, expected", [
    ("tests/x/test_a.py", "import engine.core\n", "import hexarena.engine, not engine"),
    ("bench/bench_x.py", "from referee import match\n", "import hexarena.referee, not referee"),
    ("tests/x/test_a.py", "from bench.bench_mcts import midgame\n", "tests must not import bench"),
    ("tests/x/test_a.py", "from lab import ladder\n", "tests must not import lab"),
    ("bench/bench_x.py", "from tests.referee.test_faults import play\n", "import test helpers from tests.support"),
    ("bench/tests/test_x.py", "from lab import ladder\n", "bench/tests must not import lab"),
    ("lab/ladder.py", "from tests.support import boards\n", "lab must not import tests"),
    ("tests/x/test_a.py", "from tests.referee.test_tournament import spelde_config\n",
     "import test helpers from tests.support, not tests.referee"),
    ("tests/x/test_a.py", "def f():\n    from .test_b import board\n", "import test helpers from tests.support, not tests.x"),
    ("lab/tests/test_x.py", "from tests.cluster.realcluster import wait_until\n",
     "import test helpers from tests.support, not tests.cluster"),
])
def test_the_outside_checker_catches_each_broken_rule(rel, source, expected):
    assert any(expected in v for v in outside_violations(rel, source)), outside_violations(rel, source)


@pytest.mark.parametrize("rel, source", [
    ("tests/x/test_a.py", "from hexarena.engine import registry\nfrom tests.support.boards import state\n"),
    ("tests/support/anda_prison.py", "from tests.support import boards\nfrom . import fakes\n"),
    ("bench/bench_x.py", "from bench.common import table\nfrom hexarena.players import MctsBot\n"),
    ("lab/pick_agreement.py", "from bench.common import table\nfrom lab.mcts_duel import cutoff\n"),
    ("lab/tests/test_ladder.py", "from lab import ladder\nfrom tests.support.realcluster import wait_until\n"),
    ("bench/tests/test_soak_hook.py", "from bench import bench_soak\n"),
])
def test_the_outside_checker_accepts_the_allowed_imports(rel, source):
    assert outside_violations(rel, source) == []


def test_nothing_imports_the_ladder():
    """hexarena/ladder/ (the rating server and its bridge) sits beside the web server: only the
    CLI (hexarena/cli.py, which registers its commands) imports it; its own tests (tests/ladder/,
    the fuzz targets of its wire, tests/fuzz/test_ladder_*.py) and bench do too."""
    found = []
    for package, root in GRAPH_ROOTS.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith("hexarena/ladder/") or rel in ("hexarena/cli.py", "tests/test_layering.py") \
                    or rel.startswith(("tests/ladder/", "tests/fuzz/test_ladder_", "bench/")):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module or ""]
                else:
                    continue
                found += [f"{rel}:{node.lineno}" for n in names if n.startswith("hexarena.ladder")]
    assert found == []
