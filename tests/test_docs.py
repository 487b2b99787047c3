"""README.md, docs/ and the product's docstrings say what is: links resolve, the files and modules
named exist, commands name real options, examples load."""
from __future__ import annotations

import ast
import importlib
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hexarena import cli
from hexarena.referee.tournament import config as config_mod

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
# `hexarena COMMAND ...` up to the end of its code span or line (a trailing backslash continues it)
COMMAND_LINE = re.compile(r"hexarena ([a-z]+)((?:\\\n|[^`\n])*)")
# a file of the repository named in the text: `referee/sgf.py`, engine/games/spelde/, docs/ladder/spelde-*/base
# ...; under core/ only a name with a further folder or a suffix (`core/py` heads a table's ratio column)
CODE_PATH = re.compile(r"(?<![\w./-])((?:engine|protocol|players|referee|results|bench|tests|examples|hexarena|docs|lab"
                       r"|\.ci)/[\w./*-]*[\w*]|core/[\w-]+[/.][\w./*-]*[\w*])")
#: The folders of the product's code, whose docstrings and comments name files and modules too.
CODE = ("engine", "protocol", "players", "referee", "results", "hexarena", "bench", "lab", "examples")
# a module, or a name in one: `results.record.game.GameRecord`, `hexarena.engine.registry`, python -m bench.bench_mcts
DOTTED = re.compile(r"(?:`|python -m )((?:hexarena\.)?(?:engine|protocol|players|referee|results|bench|tests)(?:\.\w+)+)")
PLACEHOLDER = "hexline"                                 # docs/architecture.md's example of a sixth game


def _pages_and_ids() -> list:
    return [pytest.param(page, id=str(page.relative_to(ROOT))) for page in PAGES]


@pytest.mark.parametrize("page", _pages_and_ids())
def test_every_relative_link_resolves(page):
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue                                    # https:, mailto:
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path) if path else page
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: links that do not resolve: {broken}"


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown page."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip().lower()
            found.add("".join(c for c in heading if c.isalnum() or c in " -_").replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", _pages_and_ids())
def test_the_files_and_modules_named_exist(page):
    missing = _missing(page.read_text(encoding="utf-8"))
    assert not missing, f"{page.relative_to(ROOT)} names files or modules that do not exist: {missing}"


def test_the_files_and_modules_named_in_docstrings_and_comments_exist():
    missing = []
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            missing += [f"{path.relative_to(ROOT)}: {name}" for name in _missing("\n".join(_prose(text)))]
    assert not missing, f"docstrings and comments name files or modules that do not exist: {missing}"


def _prose(source: str) -> list[str]:
    """The docstrings (module, classes, functions) and the comments of a Python source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(ast.get_docstring(node, clean=False) or "")
    found += [line.split("#", 1)[1] for line in source.splitlines() if "#" in line]
    return found


def _missing(text: str) -> list[str]:
    """The repository paths (globs included) and dotted module names of `text` that do not exist."""
    missing = [path for path in sorted(set(CODE_PATH.findall(text))) if PLACEHOLDER not in path
               and not (any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists() or (ROOT / f"{path}.py").exists())]
    missing += [name for name in sorted(set(DOTTED.findall(text)))
                if PLACEHOLDER not in name and not _resolves(name)]
    return missing


def _resolves(dotted: str) -> bool:
    """`a.b.c` is a module, or a name (attribute chain) inside the longest module prefix."""
    parts = dotted.split(".")
    if parts[0] in ("engine", "protocol", "players", "referee", "results"):
        parts.insert(0, "hexarena")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def _options(command: click.Command) -> set[str]:
    names = {"--help"}
    for param in command.params:
        if isinstance(param, click.Option):
            names.update(param.opts + param.secondary_opts)
    return names


@pytest.mark.parametrize("page", _pages_and_ids())
def test_hexarena_command_lines_name_only_real_commands_and_options(page):
    text = page.read_text(encoding="utf-8")
    wrong = []
    for name, rest in COMMAND_LINE.findall(text):
        command = cli.main.get_command(click.Context(cli.main), name)
        if command is None:
            continue                                    # prose: "hexarena itself", "hexarena referees"
        if isinstance(command, click.Group):            # `hexarena openings stats ...`: the subcommand's options
            word, _, rest = rest.strip().partition(" ")
            command = command.commands.get(word)
            if command is None:
                continue
        rest = rest.split(" -- ", 1)[0]                 # `check -- CMD ARGS`: the engine's own options
        words = rest.split()
        while isinstance(command, click.Group) and words and words[0] in command.commands:
            command = command.commands[words.pop(0)]    # `ladder account add`: a group's subcommand
        rest = re.sub(r"\"[^\"]*\"|'[^']*'", "", rest)    # quoted engine command lines
        for flag in re.findall(r"(?<![\w{\"'=-])--[a-z][a-z0-9-]*", rest):
            if flag not in _options(command):
                wrong.append(f"hexarena {name} {flag}")
    assert not wrong, f"{page.relative_to(ROOT)} names options that do not exist: {sorted(set(wrong))}"


def test_readme_config_is_a_valid_tournament(tmp_path, monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", readme, re.S)
    assert len(blocks) == 1
    (tmp_path / "t.toml").write_text(blocks[0], encoding="utf-8")
    config = config_mod.load(tmp_path / "t.toml")
    assert len(config.engines) >= 2
    for words in re.findall(r'cmd = \[(.*?)\]', blocks[0]):
        script = [w.strip(' "') for w in words.split(",")][1]
        assert (ROOT / script).is_file(), f"README's config runs {script}, which is not in the repository"


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    tests = next(line.strip() for line in readme.splitlines() if "python -m pytest -q" in line and "pip install" in line)
    lines = [line.strip() for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    ci_steps = [step for line in lines for step in line.split(" && ")]      # in order, across lines
    steps = tests.split(" && ")
    assert [s for s in ci_steps if s in steps] == steps, (
        f"README's test command {tests!r} is not what .ci/run runs, step by step ({ci_steps!r})")


def test_readme_match_example_plays(tmp_path, monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"    hexarena match (.*?)\n\n", readme.replace("\\\n", " "), re.S)
    assert example is not None, "README has no `hexarena match` example"
    words = shlex.split(example.group(1))
    out = words.index("--out")
    words[out + 1] = str(tmp_path / "m")                # the example's folder, under tmp
    words[words.index("--games") + 1] = "2"             # two of its games
    monkeypatch.chdir(ROOT)                             # the example runs from the repository root
    result = CliRunner().invoke(cli.main, ["match", *words, "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    assert "2 games, 0 void" in result.output


#: A test reaching outside the repository: the folder above it, an absolute workspace path.
OUTSIDE = re.compile(r"ROOT\.parent\b|parents\[[3-9]\]|[\"']/work/")
#: Words telling how the code came to be rather than what it is.
HISTORY = re.compile(r"\b(?:the issue|issue \d+|this session)\b", re.IGNORECASE)


def test_no_test_reads_a_file_outside_the_repository():
    found = [f"{path.relative_to(ROOT)}:{n}" for folder in ("tests", "bench/tests", "lab/tests")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert found == [], f"tests that read outside the repository (ship the file under tests/fixtures/): {found}"


def test_code_tests_and_docs_use_no_history_words():
    files = [*PAGES, *(p for folder in (*CODE, "tests") for p in sorted((ROOT / folder).rglob("*.py")))]
    found = [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in HISTORY.finditer(line) if path != Path(__file__).resolve()]
    assert found == [], f"say what is, not how it came to be: {found}"


def test_ci_runs_the_python_rules_and_search_without_the_core_too():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "HEXARENA_CORE=0 python -m pytest -q -n 2 tests/engine tests/players" in ci


def test_every_ending_is_a_termination_of_the_rules_or_the_referee_and_the_journal_names_it():
    from hexarena.engine.core import Termination
    from hexarena.results.record.game import Ending
    assert {t.value for t in Termination} == {e.value for e in Ending} - {Ending.VOID.value}
    journal = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8").split("## Journal", 1)[1]
    field = journal[journal.index("`termination`"):journal.index("`plies`")]
    assert [e.value for e in Ending if f"`{e.value}`" not in field] == []
