"""Headless Chromium for the browser tests (tests/browser/): the marks that skip without it, a
module-scoped driver fixture, and the steps every page test takes.

Skips, saying why, where no Chromium and chromedriver are installed (Debian: `apt-get install
chromium chromium-driver`; .ci/run installs them) or selenium is missing.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
#: A browser test module's `pytestmark`.
MARKS = [pytest.mark.browser, pytest.mark.slow,
         pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                            reason="no headless browser: install Debian's chromium and chromium-driver "
                                   "(apt-get install chromium chromium-driver), as .ci/run does")]
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1200,1400")


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="hexarena-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def open_game(driver, report: Path, game_id: str) -> None:
    driver.get(report.as_uri())
    for row in driver.find_elements(By.CSS_SELECTOR, "#game-list tbody tr"):
        if row.find_element(By.CSS_SELECTOR, "td").text == game_id:
            row.click()
            return
    raise AssertionError(f"{game_id} not in the games list")


def severe(driver) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
