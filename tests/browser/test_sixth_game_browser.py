"""The report's viewer draws a game kept outside engine/ (tests/support/tiny_game.py, added by
``HEXARENA_GAMES``) from what the game declares: its points and the key it shows under the board."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.engine import registry
from hexarena.results.record.journal import read_journal

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from tests.support.browser import MARKS, browser, open_game, severe  # noqa: E402,F401

pytestmark = MARKS
ROOT = Path(__file__).resolve().parents[2]
STATUS = "return Array.from(document.querySelectorAll('#v-board text.status')).map(t => t.textContent);"


def test_the_viewer_shows_the_key_the_game_declares(browser, tmp_path, monkeypatch):
    monkeypatch.setenv(registry.GAMES_SETTING, "tests.support.tiny_game:RULES")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    config = tmp_path / "tiny.toml"
    config.write_text('[engines.random]\nplayer = "random"\n[engines.greedy]\nplayer = "greedy"\n'
                      '[[games]]\ngame = "tiny"\nsize = 3\n', encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out),
                          "-j", "1", "-q", "--games-per-pair", "1"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr + run.stdout
    [record] = read_journal(out)
    open_game(browser, out / "report.html", record.id)
    assert browser.find_elements(By.CSS_SELECTOR, "#v-board .point")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert browser.execute_script(STATUS)[:2] == ["Black to move, phase play", "largest: 0 black, 0 white; ply 0"]
    body.send_keys(Keys.ARROW_RIGHT)
    assert browser.execute_script(STATUS)[1] == "largest: 1 black, 0 white; ply 1"
    assert severe(browser) == []
