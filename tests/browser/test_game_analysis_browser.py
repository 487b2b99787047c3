"""A game of `hexarena serve DIR --engine CMD` opened on the analysis board from its page, in a real
browser: the Analyse link, the board stepping through the game's record (the rules' position at
every ply), and the server's built-in engine's winrate and principal variation. Without an engine
the board still steps and says none is attached."""
from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from hexarena.results.page.replay import replay_record
from hexarena.results.record.journal import read_journal
from tests.support.chromium import CHROMIUM, DRIVER, MISSING, board_is, chromium, severe
from tests.support.folders import build_folder
from tests.support.web import start_server

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                                                        reason=MISSING)]


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with chromium("1300,1000") as driver:
        yield driver


def open_analysis(driver, server, game_id: str) -> None:
    driver.get(server.url)
    driver.get(f"http://127.0.0.1:{server.port}/t/t/game/{game_id}")
    driver.find_element(By.ID, "analyse").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "analyse-data"))


def test_a_finished_game_opens_on_the_board_and_the_engine_analyses_it(browser, tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, games=1, cap=8)
    [record] = read_journal(folder / "journal.jsonl")
    replay = replay_record((folder / record.sgf).read_text(encoding="utf-8"))
    server = start_server(["serve", str(folder), "--engine", "mcts:200"])
    try:
        open_analysis(browser, server, record.id)
        board_is(browser, replay.states[-1])                    # opens at the game's end
        assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".crumbs a")][-2:] == [record.id, "analysis"]
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.HOME)
        board_is(browser, replay.states[0])
        for ply in range(1, 4):
            browser.find_element(By.ID, "next").click()
            board_is(browser, replay.states[ply])
        assert browser.find_element(By.ID, "ply").text == f"ply 3 of {len(replay.tokens)}"
        assert not browser.find_element(By.ID, "no-engine").is_displayed()
        browser.find_element(By.ID, "ask").click()
        WebDriverWait(browser, 60).until(lambda d: "winrate" in d.find_element(By.ID, "advice").text)
        advice = browser.find_element(By.ID, "advice").text
        played = advice.split(" plays ")[1].split()[0]
        assert "pv " + played in advice
        assert browser.find_elements(By.CSS_SELECTOR, "#board text.pv-label")
        assert severe(browser) == []
    finally:
        browser.get("about:blank")
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err, err


def test_without_an_engine_the_board_steps_and_says_none_is_attached(browser, tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, games=1, cap=6)
    [record] = read_journal(folder / "journal.jsonl")
    replay = replay_record((folder / record.sgf).read_text(encoding="utf-8"))
    server = start_server(["serve", str(folder)])
    try:
        open_analysis(browser, server, record.id)
        board_is(browser, replay.states[-1])
        browser.find_element(By.ID, "prev").click()
        board_is(browser, replay.states[-2])
        assert browser.find_element(By.ID, "no-engine").is_displayed()
        assert not browser.find_element(By.ID, "ask").is_displayed()
        assert severe(browser) == []
    finally:
        browser.get("about:blank")
        server.stop(signal.SIGKILL)
