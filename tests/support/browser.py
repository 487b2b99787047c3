"""Headless Chromium for the browser tests (tests/browser/): the marks that skip without it, a
module-scoped driver fixture, and the steps every page test takes.

Skips, saying why, where no Chromium and chromedriver are installed (Debian: `apt-get install
chromium chromium-driver`; .ci/run installs them) or selenium is missing.
"""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402

from tests.support.chromium import CHROMIUM, DRIVER, MISSING, chromium, severe  # noqa: E402,F401

#: A browser test module's `pytestmark`.
MARKS = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING)]


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


def open_game(driver, report: Path, game_id: str) -> None:
    driver.get(report.as_uri())
    for row in driver.find_elements(By.CSS_SELECTOR, "#game-list tbody tr"):
        if row.find_element(By.CSS_SELECTOR, "td").text == game_id:
            row.click()
            return
    raise AssertionError(f"{game_id} not in the games list")

