"""The HTML report in a real browser: headless Chromium driven by Selenium.

A small real tournament (built-in players and a hostile engine, run by the
referee as processes) writes DIR/report.html; the page must load without
console errors, replay games step by step (keyboard, buttons, slider) with
the board's DOM equal to the position the rules give after that many
actions, and show every engine-supplied string as text. Screenshots are
saved under the test's tmp folder (paths printed; `pytest -s` shows them).

Skips, saying why, where no Chromium and chromedriver are installed
(Debian: `apt-get install chromium chromium-driver`; .ci/run installs them).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.results.record.journal import read_journal
from hexarena.results.page.replay import replay_record

from tests.support.page_check import static_markup_problems

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from tests.support.browser import MARKS, browser, open_game, severe  # noqa: E402,F401

pytestmark = MARKS
HOSTILE = Path(__file__).with_name("markup_engine.py")
READ_BOARD = """return Array.from(document.querySelectorAll('#v-board g.site')).map(
    g => [g.dataset.site, g.getAttribute('data-stone'), g.getAttribute('data-height'), g.hasAttribute('data-last')]);"""


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> Path:
    """A real tournament: random, greedy and a hostile engine; Spelde 4 and Vaxandis 3."""
    out = tmp_path_factory.mktemp("tournament")
    config = out.parent / "browser.toml"
    config.write_text(f"""seed = 3
games_per_pair = 2
[engines.random]
player = "random"
[engines.greedy]
player = "greedy"
[engines.hostile]
cmd = ["{{python}}", {json.dumps(str(HOSTILE))}, "hostile", "{{seed}}"]
[[games]]
game = "spelde"
size = 4
[[games]]
game = "vaxandis"
size = 3
""", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out),
                          "-j", "2", "-q"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr + run.stdout
    assert (out / "report.html").is_file(), "the tournament did not write its report"
    return out


def board_in_page(driver) -> tuple[dict[str, tuple[str, str]], set[str]]:
    sites = driver.execute_script(READ_BOARD)
    stones = {name: (stone, height) for name, stone, height, _ in sites if stone}
    return stones, {name for name, _, _, last in sites if last}


def board_by_rules(state, action) -> tuple[dict[str, tuple[str, str]], set[str]]:
    from hexarena.results.page.board_svg import action_sites
    pos, board = state.to_position(), state.board
    stones = {board.name(b): (c.value, str(h)) for b, (c, h) in pos.stacks.items()}
    return stones, {board.name(b) for b in action_sites(action)}


def test_the_page_loads_without_console_errors(tournament, browser, tmp_path):
    browser.get((tournament / "report.html").as_uri())
    assert severe(browser) == []
    assert browser.find_element(By.CSS_SELECTOR, ".elo-chart")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#game-list tbody tr")) == 12
    shot = tmp_path / "report.png"
    browser.save_screenshot(str(shot))
    print("screenshot:", shot)


@pytest.mark.parametrize("game", ["spelde", "vaxandis"])
def test_stepping_through_a_game_shows_the_positions_the_rules_give(tournament, browser, tmp_path, game):
    records = [r for r in read_journal(tournament / "journal.jsonl") if r.game == game and r.sgf]
    record = max(records, key=lambda r: r.plies)
    assert record.plies >= 10, "the longest game is too short to step through"
    replay = replay_record((tournament / record.sgf).read_text(encoding="utf-8"))
    expected = [board_by_rules(s, replay.actions[i - 1] if i else None) for i, s in enumerate(replay.states)]
    open_game(browser, tournament / "report.html", record.id)
    assert board_in_page(browser) == expected[-1]               # opens on the final position
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert board_in_page(browser) == expected[0]
    for ply in range(1, len(expected)):                         # forward: arrow key and button in turn
        if ply % 2:
            body.send_keys(Keys.ARROW_RIGHT)
        else:
            browser.find_element(By.ID, "v-next").click()
        assert board_in_page(browser) == expected[ply], f"ply {ply}"
    assert browser.find_element(By.ID, "v-ply").text == f"ply {record.plies} of {record.plies}"
    for ply in range(len(expected) - 2, len(expected) - 6, -1):  # back: button and arrow key
        if ply % 2:
            browser.find_element(By.ID, "v-prev").click()
        else:
            body.send_keys(Keys.ARROW_LEFT)
        assert board_in_page(browser) == expected[ply], f"back to ply {ply}"
    middle = len(expected) // 2
    browser.execute_script("const s = document.getElementById('v-slider'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('input'));", middle)
    assert board_in_page(browser) == expected[middle]
    browser.find_elements(By.CSS_SELECTOR, "#v-moves li")[2].click()
    assert board_in_page(browser) == expected[3]
    assert record.result in browser.find_element(By.ID, "v-result").text
    assert severe(browser) == []
    shot = tmp_path / f"replay-{game}.png"
    browser.find_element(By.ID, "viewer").screenshot(str(shot))
    print("screenshot:", shot)


def test_engine_strings_are_text_not_markup(tournament, browser):
    html = (tournament / "report.html").read_text(encoding="utf-8")
    assert static_markup_problems(html) == []
    hostile = [r for r in read_journal(tournament / "journal.jsonl") if r.faulty == "hostile"]
    assert hostile and "<img src=x" in hostile[0].reason          # the situation checked occurred
    open_game(browser, tournament / "report.html", hostile[0].id)
    shown = browser.find_element(By.ID, "v-result").text
    assert "<img src=x onerror=alert(2)>" in shown                 # shown as text...
    assert browser.find_elements(By.TAG_NAME, "img") == []         # ...never as an element
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2  # the data island and the viewer
    assert severe(browser) == []


def test_games_without_a_replay_say_why_and_the_controls_stay_quiet(browser, tmp_path):
    from hexarena.results.page.html_report import write_report
    from hexarena.results.record.game import GameRecord
    from hexarena.results.record.journal import JournalWriter
    common = dict(game="spelde", size=4, variant="pie", first="a", second="b", black="a", white="b")
    with JournalWriter(tmp_path / "journal.jsonl") as journal:
        journal.append(GameRecord(id="g/0", winner=None, result="Void", termination="void", plies=0,
                                  reason="a failed to start", faulty="a", **common))
        journal.append(GameRecord(id="g/1", winner="a", result="B+", termination="no-moves", plies=3,
                                  sgf="games/missing.sgf", **common))
    page = write_report(tmp_path)[0]
    for game_id, says in (("g/0", "void"), ("g/1", "missing")):
        open_game(browser, page, game_id)
        for button in ("v-first", "v-prev", "v-next", "v-last"):
            browser.find_element(By.ID, button).click()
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        assert says in browser.find_element(By.ID, "v-ply").text
        assert severe(browser) == []


def test_the_games_list_filters_by_game_size_engine_and_result(tournament, browser):
    from selenium.webdriver.support.ui import Select
    records = read_journal(tournament / "journal.jsonl")
    browser.get((tournament / "report.html").as_uri())

    def shown() -> set[str]:
        rows = browser.find_elements(By.CSS_SELECTOR, "#game-list tbody tr")
        return {r.find_element(By.CSS_SELECTOR, "td").text for r in rows if r.is_displayed()}

    assert shown() == {r.id for r in records}
    Select(browser.find_element(By.ID, "f-engine")).select_by_value("hostile")
    assert shown() == {r.id for r in records if "hostile" in (r.first, r.second)}
    Select(browser.find_element(By.ID, "f-game")).select_by_value("vaxandis")
    Select(browser.find_element(By.ID, "f-size")).select_by_value("3")
    assert shown() == {r.id for r in records if "hostile" in (r.first, r.second) and r.game == "vaxandis"}
    Select(browser.find_element(By.ID, "f-engine")).select_by_value("")
    Select(browser.find_element(By.ID, "f-result")).select_by_value("W+F")
    want = {r.id for r in records if r.game == "vaxandis" and r.result == "W+F"}
    assert shown() == want and want
    assert browser.find_element(By.ID, "f-count").text == f"{len(want)} of {len(records)} games"
