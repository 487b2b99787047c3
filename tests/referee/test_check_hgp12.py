"""`hexarena check` grades the HGP 1.2 commands an engine lists: `hgp_version` (and decimal seconds),
`genmove_analyze` (its action, its info lines' grammar and values, its pv). Real engine processes."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena import cli
from tests.support.fakes12 import FAULTS, faulty_example_argv

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "random_engine.py")


def check(*args: str):
    return CliRunner().invoke(cli.main, ["check", "--timeout", "20", *args], catch_exceptions=False)


def lines(output: str, status: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln.startswith(status + " ")]


@pytest.mark.parametrize("bot", ["random", "greedy", "heuristic", pytest.param("mcts", marks=pytest.mark.slow)])
def test_the_built_in_players_pass_the_1_2_checks(bot: str) -> None:
    result = check("--strict", "--game", "spelde", "--game", "vaxandis", "--size", "3", "--",
                   sys.executable, "-m", "hexarena.players", bot)
    assert result.exit_code == 0, result.output
    passed = lines(result.output, "PASS")
    for name in ("hgp_version: = 1.2", "time_settings (decimal seconds)", "time_left (decimal seconds)",
                 "kgs-time_settings (decimal seconds)", "spelde 3 genmove_analyze:",
                 "spelde 3 genmove_analyze info:", "vaxandis 3 genmove_analyze:"):
        assert any(ln.startswith(f"PASS {name}") for ln in passed), (name, result.output)
    if bot != "random":                                    # random tells nothing; the others their line
        assert any(ln.startswith("PASS spelde 3 genmove_analyze pv: ") for ln in passed), result.output


def test_the_example_engine_passes_strict_with_its_info_line() -> None:
    result = check("--strict", "--size", "3", "--size", "5", "--", sys.executable, EXAMPLE)
    assert result.exit_code == 0, result.output
    assert re.search(r"^PASS spelde 5 genmove_analyze info: 1 info line\(s\): info depth 1 pv \S+$",
                     result.output, re.M), result.output


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_an_engine_with_a_1_2_fault_fails_the_check_that_finds_it(fault: str) -> None:
    name, words = FAULTS[fault]
    result = check("--game", "spelde", "--size", "3", "--", *faulty_example_argv(EXAMPLE, fault))
    assert result.exit_code == 1
    fails = lines(result.output, "FAIL")
    assert fails and all(ln.startswith(f"FAIL {name}: ") or fault == "decimal" for ln in fails), fails
    assert any(ln.startswith(f"FAIL {name}: ") and words in ln for ln in fails), fails
    assert re.search(r"; play: passed; analysis: FAILED \(\d+ failed\)$", result.output, re.M), result.output


@pytest.mark.parametrize("strict", [False, True])
def test_an_engine_that_does_not_list_them_is_not_asked_them(strict: bool) -> None:
    result = check(*(["--strict"] if strict else []), "--game", "spelde", "--size", "3", "--",
                   *faulty_example_argv(EXAMPLE, "v11"))
    assert "decimal seconds" not in result.output and "3 genmove_analyze" not in result.output
    if strict:
        assert result.exit_code == 1
        assert lines(result.output, "FAIL") == [
            "FAIL hgp_version: not in list_commands (--strict demands every command)",
            "FAIL genmove_analyze: not in list_commands (--strict demands every command)"], result.output
    else:
        assert result.exit_code == 0, result.output
        assert lines(result.output, "NOTIMPL") == [
            "NOTIMPL hgp_version: not in list_commands (analysis, optional)",
            "NOTIMPL genmove_analyze: not in list_commands (analysis, optional)"], result.output
