"""docs/cli.md is what `python -m hexarena.cli_doc` prints from the click definitions."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from hexarena import cli
from hexarena.cli_doc import REGENERATE, markdown

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "cli.md"


def test_docs_cli_md_is_what_the_generator_prints():
    printed = subprocess.run([sys.executable, "-m", "hexarena.cli_doc"], capture_output=True, text=True,
                             check=True, cwd=ROOT).stdout
    assert PAGE.read_text(encoding="utf-8") == printed, (
        f"docs/cli.md differs from the click CLI; regenerate it with `{REGENERATE}`")


def _visible(group: click.Group, ctx: click.Context) -> list[tuple[list[str], click.Command]]:
    """(words after `hexarena`, command) of every visible command, nested groups included."""
    found = []
    for word in group.list_commands(ctx):
        command = group.get_command(ctx, word)
        assert command is not None
        if command.hidden:
            continue
        found.append(([word], command))
        if isinstance(command, click.Group):
            sub_ctx = click.Context(command, info_name=word, parent=ctx)
            found += [([word, *words], sub) for words, sub in _visible(command, sub_ctx)]
    return found


def _section(page: str, path: str) -> str:
    """The text under the heading `path` up to the next heading."""
    for level in ("## ", "### ", "#### "):
        head = f"\n{level}{path}\n"
        if head in page:
            rest = page.split(head, 1)[1]
            return rest.split("\n#", 1)[0]
    raise AssertionError(f"no heading for {path!r} in docs/cli.md")


def test_every_command_and_option_of_help_is_on_the_page():
    page = markdown(cli.main)
    commands = _visible(cli.main, click.Context(cli.main, info_name="hexarena"))
    assert {"match", "tournament", "engine", "show"} <= {words[0] for words, _ in commands}
    for words, command in commands:
        section = _section(page, "hexarena " + " ".join(words))
        helped = CliRunner().invoke(cli.main, [*words, "--help"]).output
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                for flag in param.opts:
                    assert flag in helped, (words, flag)
                    assert f"`{flag}" in section or f", {flag}" in section, (words, flag)


def test_nested_groups_and_hidden_commands():
    @click.group()
    def top() -> None:
        """Top <level>."""

    @top.group()
    def pool() -> None:
        """Pools of things.

        \b
        keep
          these lines
        """

    @pool.command()
    @click.option("--deep", type=int, default=3, show_default=True, help="How *deep*, in `<levels>`.")
    @click.argument("item")
    def add(deep: int, item: str) -> None:
        """Add ITEM."""

    @top.command(hidden=True)
    def secret() -> None:
        """Not shown."""

    page = markdown(top, "tool")
    assert "## tool pool\n" in page and "### tool pool add\n" in page
    assert "```\ntool pool add [OPTIONS] ITEM\n```" in page
    assert "* `--deep INTEGER`: How \\*deep\\*, in `<levels>`. [default: 3]" in page
    assert "    keep\n    these lines" in page
    assert "Top \\<level>." in page
    assert "* [`tool pool add`](#tool-pool-add): Add ITEM." in page
    assert "secret" not in page


def test_every_option_of_a_run_is_a_flag_of_the_run_or_names_the_config_key_it_sets():
    from hexarena.commands_run import RUN_FLAGS
    ctx = click.Context(cli.main, info_name="hexarena")
    for word in ("match", "tournament"):
        command = cli.main.get_command(ctx, word)
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden and param.name not in RUN_FLAGS:
                assert "[config: " in (param.help or ""), f"hexarena {word} {param.opts[0]} names no config key"
        assert {p.name for p in command.params} >= set(RUN_FLAGS), f"hexarena {word} lacks a flag of a run"


def test_the_page_states_the_rules_of_the_command_line():
    page = PAGE.read_text(encoding="utf-8")
    assert "## Flags and config keys" in page and "[config: time.move]" in page
