"""The `hexarena` group loads a command's module only when that command is asked for."""
from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner
import pytest

from hexarena import cli

LOADED = ("import atexit, sys\n"
          "atexit.register(lambda: sys.stderr.write('\\nloaded: ' + ' '.join(sorted(\n"
          "    m for m in sys.modules if m.startswith(('hexarena.commands_', 'hexarena.ladder', 'hexarena.web'))))))\n")


def _loaded(*args: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", LOADED + "from hexarena.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert "loaded:" in proc.stderr, proc.stderr
    return proc.stderr.rpartition("loaded:")[2].split()


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_each_named_command_is_the_click_command_of_that_name(name):
    command = cli.main.get_command(click.Context(cli.main), name)
    assert isinstance(command, click.Command) and command.name == name


def test_the_group_lists_every_command_once_sorted():
    names = cli.main.list_commands(click.Context(cli.main))
    assert names == sorted({*cli.COMMANDS, "engine"})


def test_a_command_loads_its_own_module_and_no_other_command_s():
    assert _loaded("--version") == []
    assert _loaded("tournament", "--help") == ["hexarena.commands_run"]
    assert _loaded("connect", "--help") == ["hexarena.ladder", "hexarena.ladder.commands"]


def test_an_unknown_command_is_a_usage_error_naming_it():
    result = CliRunner().invoke(cli.main, ["tournamnet"])
    assert result.exit_code == 2 and "No such command 'tournamnet'" in result.output


def test_a_wrong_entry_is_refused_by_name():
    group = cli.LazyGroup(name="g", lazy={"x": "hexarena.commands_run:tournament"})
    with pytest.raises(RuntimeError, match="is not the click command 'x'"):
        group.get_command(click.Context(group), "x")
