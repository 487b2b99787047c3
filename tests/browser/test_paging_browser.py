"""`hexarena serve`'s folder page in a real browser (headless Chromium) on a folder of more finished
games than one page: the page shows the newest page and the count, and its "more" button shows the
older games, page by page, each once, until there is none older (the button hides).

Skips, saying why, where no Chromium and chromedriver are installed.
"""
from __future__ import annotations

import pytest

from tests.support.chromium import CHROMIUM, DRIVER, MISSING, chromium, severe
from tests.support.folders import tiny_journal
from tests.support.web import start_server

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING)]
GAMES = 120                                         # two pages and a part (PAGE 50)
READ_ROWS = "return Array.from(document.querySelectorAll('#finished-list tbody tr')).map(tr => tr.dataset.game);"


def test_the_more_button_shows_the_older_finished_games(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    order = tiny_journal(folder, GAMES)
    server = start_server(["serve", str(folder)])
    try:
        with chromium() as driver:
            driver.get(server.url)
            wait = WebDriverWait(driver, 60)
            wait.until(lambda d: d.find_element(By.ID, "finished-count").text == f"({GAMES}, newest 50 shown)")
            assert driver.execute_script(READ_ROWS) == order[::-1][:50]
            more = driver.find_element(By.ID, "finished-more")
            more.click()
            wait.until(lambda d: len(d.execute_script(READ_ROWS)) == 100)
            more.click()
            wait.until(lambda d: len(d.execute_script(READ_ROWS)) == GAMES)
            wait.until(lambda d: not d.find_element(By.ID, "finished-more").is_displayed())
            assert driver.execute_script(READ_ROWS) == order[::-1]
            assert driver.find_element(By.ID, "finished-count").text == f"({GAMES})"
            assert severe(driver) == []
    finally:
        server.stop()
