"""`hexarena check --rules GAME` (hexarena/commands_rules_check.py over hexarena.engine.selfcheck):
a game's author checks its contract on seeded playthroughs, and learns the first disagreement
with its position, its action and what each side said."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexarena.engine import registry
from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def added(monkeypatch):
    monkeypatch.setenv(registry.GAMES_SETTING, "tests.support.tiny_game:RULES,tests.support.broken_game:RULES")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


def test_a_sound_game_passes_at_each_size_and_balance():
    ran = invoke("check", "--rules", "tiny", "--games", "2")
    assert ran.exit_code == 0, ran.output
    assert re.search(r"^tiny 3 nopie: 2 games, \d+ positions checked; ends: goal \d", ran.output, re.M)
    assert ran.output.splitlines()[-1] == "tiny: the contract holds in 6 playthroughs (sizes 2, 3, 4; balances nopie)"


def test_the_first_disagreement_names_its_position_action_and_what_each_side_said():
    ran = invoke("check", "--rules", "broken", "--size", "3", "-q")
    assert ran.exit_code == 1
    found = re.search(r"^DISAGREE broken 3 nopie, game 1 \(seed 0\), ply (\d+): action ([a-e]\d): "
                      r"legal_actions\(\) lists it, play\(\) refuses it: IllegalMove: .*\n  position: (broken 3 w .*)$",
                      ran.output, re.M)
    assert found, ran.output
    ply, site, position = found.groups()
    state = registry.from_position(position)
    assert state.ply == int(ply) and state.parse(site) in state.legal_actions() and not state.is_legal(state.parse(site))
    assert ran.output.splitlines()[-1].startswith("broken: the contract does not hold")


def test_rules_and_an_engine_are_not_checked_at_once():
    assert invoke("check", "--rules", "tiny", "random").exit_code == 2
    assert "Missing argument" in invoke("check").stderr
    assert invoke("check", "--rules", "nosuch").exit_code == 2
