"""The analysis board (`hexarena analyse FILE.sgf --engine CMD`) in a real browser: it steps
through a record of a real match with the board equal to the rules' position at every ply,
branches off by a click, and shows the attached built-in engine's winrate and principal
variation drawn on the board. Screenshots under the test's tmp folder (paths printed);
docs/img/analysis-board.png is analysis-board.png."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexarena.results.page.board_svg import action_sites
from hexarena.results.page.replay import replay_record
from hexarena.results.record.journal import read_journal
from tests.support.chromium import CHROMIUM, DRIVER, MISSING, board_is, chromium, severe
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


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    """The SGF of a real match game: random against greedy, Spelde on a 4-board."""
    out = tmp_path_factory.mktemp("match")
    bots = [f"{sys.executable} -m hexarena.players {name}" for name in ("random", "greedy")]
    run = subprocess.run([sys.executable, "-m", "hexarena", "match", *bots, "--game", "spelde",
                          "--size", "4", "--games", "1", "--out", str(out), "-q", "--no-preflight"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr + run.stdout
    [game] = read_journal(out)
    assert game.sgf and game.plies >= 6
    return out / game.sgf


def test_the_board_steps_branches_and_shows_the_engines_analysis(browser, record, tmp_path):
    replay = replay_record(record.read_text(encoding="utf-8"))
    server = start_server(["analyse", str(record), "--engine", "mcts:300"])
    try:
        browser.get(server.url)
        board_is(browser, replay.states[-1])                    # opens on the final position
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.HOME)
        board_is(browser, replay.states[0])
        for ply in range(1, len(replay.states)):                # forward: arrow key and button in turn
            if ply % 2:
                body.send_keys(Keys.ARROW_RIGHT)
            else:
                browser.find_element(By.ID, "next").click()
            board_is(browser, replay.states[ply])
            WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "ply").text
                                             == f"ply {ply} of {len(replay.tokens)}")
        # branch off at ply 2 with a placement the record did not play
        browser.find_elements(By.CSS_SELECTOR, "#moves li")[1].click()
        board_is(browser, replay.states[2])
        state = replay.states[2]
        other = next(a for a in state.legal_actions() if state.format(a) != replay.tokens[2]
                     and len(action_sites(a)) == 1)
        site = state.board.name(next(iter(action_sites(other))))
        browser.find_element(By.CSS_SELECTOR, f'#board g.site[data-site="{site}"]').click()
        board_is(browser, state.play(other))
        assert browser.find_element(By.ID, "main-line").is_displayed()
        assert browser.find_element(By.ID, "ply").text == "ply 3 of 3"
        # the engine's view of the branch
        browser.find_element(By.ID, "ask").click()
        WebDriverWait(browser, 60).until(lambda d: "winrate" in d.find_element(By.ID, "advice").text)
        advice = browser.find_element(By.ID, "advice").text
        played = advice.split(" plays ")[1].split()[0]
        after = state.play(other)
        first = after.board.names(sum(1 << s for s in action_sites(after.parse(played))))
        labels = browser.execute_script("""return Array.from(document.querySelectorAll('#board text.pv-label'))
            .map(t => [t.parentNode.dataset.site, t.textContent]);""")
        assert labels and all(label == "1" for site, label in labels if site in first)
        assert {site for site, label in labels if label == "1"} == set(first)
        assert "pv " + played in advice
        shot = tmp_path / "analysis-board.png"
        browser.save_screenshot(str(shot))
        print("screenshot:", shot)
        browser.find_element(By.ID, "main-line").click()
        board_is(browser, replay.states[3])
        assert severe(browser) == []
    finally:
        browser.get("about:blank")
        code, _, err = server.stop()
        assert code == 130 and "Traceback" not in err, err


def test_a_server_gone_is_said_and_the_question_stops_thinking(browser):
    server = start_server(["analyse", "spelde 3 w .../..../..b../..../... variant=nopie ply=1", "--engine", "random"])
    try:
        browser.get(server.url)
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "ask").is_displayed())
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err
    browser.find_element(By.ID, "ask").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "message").text
                                     == "the server cannot be reached (it stopped?): start it again, then reload the page")
    assert browser.find_element(By.ID, "advice").text == ""         # not "random is thinking…"
    browser.get("about:blank")
