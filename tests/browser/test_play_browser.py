"""`hexarena play` in a real browser: a person plays whole games against the built-in `random`
engine by clicks, in each of the five games, until every action form of the game was played
by the person; an illegal click changes nothing and says why.

The test's person picks its actions with the rules (replaying the page's list of actions),
preferring a form it has not played yet, and makes them as a person does: clicking the sites
in the token's order, the buttons, the komi field. At every turn the board in the page must be
the rules' position. Each game goes to the journal and SGF of --out like any other.
Screenshots are saved under the test's tmp folder (paths printed; `pytest -s` shows them);
docs/img/play.png is play-refused.png.
"""
from __future__ import annotations

import random
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import WORDS, Komi, Resign
from hexarena.engine.game import GameState
from hexarena.results.record.journal import read_journal
from tests.support.chromium import CHROMIUM, DRIVER, MISSING, READ_BOARD, board_is, chromium, severe
from tests.support.fakes12 import fake12_argv
from tests.support.web import Server, start_server

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                                                        reason=MISSING)]
SIZE = 3
MAX_GAMES = 8           # per game id, to use every form
CAP = 60                # plies after which the person resigns (Vaxandis need not end)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with chromium("1300,1000") as driver:
        yield driver


def tokens_in_page(driver) -> list[str]:
    return driver.execute_script("return Array.from(document.querySelectorAll('#moves li')).map(li => li.textContent);")


def replayed(game: str, tokens: list[str], size: int = SIZE) -> GameState:
    info = registry.get(game)
    state = info.new_game(info.variant(size), 0)
    for token in tokens:
        state = state.play(state.parse(token))
    return state


def wait_turn(driver, timeout: float = 60) -> bool:
    """Wait for the person's turn (True) or the end of the game (False)."""
    def ready(d):
        if d.find_element(By.ID, "result").text.startswith("Game over"):
            return "over"
        return "turn" if d.find_element(By.ID, "turn").text.startswith("Your turn") else None
    return WebDriverWait(driver, timeout).until(ready) == "turn"


def wait_sent(driver, before: int) -> None:
    """Wait until the page lists more than `before` actions, or the game is over."""
    WebDriverWait(driver, 60).until(lambda d: len(tokens_in_page(d)) > before
                                    or d.find_element(By.ID, "result").text.startswith("Game over"))


def form(state: GameState, token: str) -> type:
    return type(state.parse(token))


def choose(state: GameState, used: set[type], rng: random.Random, others_done: bool) -> str:
    """A legal action, preferring a form not played yet; `resign` once every other form was."""
    if others_done:
        return "resign"
    actions = list(state.legal_actions())
    fresh = [a for a in actions if type(a) not in used]
    pool = fresh or actions
    komi = [a for a in pool if isinstance(a, Komi)]
    if komi:                                        # offer a little komi: passes and releases follow
        return state.format(min(komi, key=lambda a: abs(a.k - 2)))
    return state.format(rng.choice(pool))


def perform(driver, state: GameState, token: str, shots: Path, shot_done: set[str]) -> None:
    """Make `token` as a person: a button, the komi field, or its sites clicked in token order."""
    before = len(tokens_in_page(driver))
    action = state.parse(token)
    if isinstance(action, Komi):
        field = driver.find_element(By.ID, "komi-value")
        field.clear()
        field.send_keys(str(action.k))
        driver.find_element(By.ID, "komi-offer").click()
    elif token == "resign":                 # two clicks: the second confirms
        driver.find_element(By.CSS_SELECTOR, '#buttons button[data-word="resign"]').click()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, '#buttons button[data-word="resign"]')
                                        .text == "resign: click again to confirm")
        driver.find_element(By.CSS_SELECTOR, '#buttons button[data-word="resign"]').click()
    elif token in WORDS:
        driver.find_element(By.CSS_SELECTOR, f'#buttons button[data-word="{token}"]').click()
    else:
        names = [n for n in token.replace("/", ",").replace("-", ",").replace(":", ",").split(",")]
        for i, name in enumerate(names):
            driver.find_element(By.CSS_SELECTOR, f'#board g.site[data-site="{name}"]').click()
            if i + 1 < len(names):
                WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board g.site[data-pick]"))
                                                == i + 1)
            if i == 0 and len(names) >= 2 and state.info.id not in shot_done:
                shot_done.add(state.info.id)
                path = shots / f"play-{state.info.id}-building.png"
                driver.save_screenshot(str(path))
                print("screenshot:", path)
        def done(d):
            if len(tokens_in_page(d)) > before or d.find_element(By.ID, "result").text.startswith("Game over"):
                return "sent"
            button = d.find_element(By.ID, "play-built")
            return "button" if button.is_displayed() and button.text == f"play {token}" else None
        if WebDriverWait(driver, 20).until(done) == "button":
            driver.find_element(By.ID, "play-built").click()
    wait_sent(driver, before)


def play_one(driver, game: str, colour: str, seed: int, out: Path, used: set[type], shots: Path,
             shot_done: set[str]) -> list[str]:
    """One whole game through the page; the person's forms are added to `used`. Returns the actions."""
    server: Server = start_server(["play", "--engine", "random", "--game", game, "--size", str(SIZE),
                                   "--colour", colour, "--seed", str(seed), "--out", str(out)])
    rng = random.Random(seed)
    forms = set(registry.get(game).forms) | {Resign}
    try:
        driver.get(server.url)
        severe(driver)                      # forget the previous pages' entries
        while wait_turn(driver):
            tokens = tokens_in_page(driver)
            state = replayed(game, tokens)
            board_is(driver, state)
            others_done = forms - {Resign} <= used or len(tokens) >= CAP
            token = choose(state, used, rng, others_done)
            perform(driver, state, token, shots, shot_done)
            used.add(Resign if token == "resign" else form(state, token))
        assert "recorded in" in driver.find_element(By.ID, "recorded").text
        server.process.wait(timeout=20)     # the page has the final state: the server stops by itself
        assert severe(driver) == []
        driver.save_screenshot(str(shots / f"play-{game}.png"))
        return tokens_in_page(driver)
    finally:
        driver.get("about:blank")
        code, said, err = server.stop()
    assert code == 0 and "Traceback" not in err and "recorded in" in said, err


@pytest.mark.parametrize("game", registry.playable())
def test_a_person_plays_whole_games_using_every_action_form(browser, tmp_path, game):
    out = tmp_path / "out"
    used: set[type] = set()
    forms = set(registry.get(game).forms) | {Resign}
    played = []
    for n in range(MAX_GAMES):
        played.append(play_one(browser, game, ("black", "white")[n % 2], 11 + n, out, used, tmp_path, set()))
        if used >= forms:
            break
    assert used >= forms, f"forms never played by the person: {sorted(f.__name__ for f in forms - used)}"
    records = read_journal(out)
    assert [r.tokens for r in records] == played
    assert all("person" in (r.black, r.white) and "random" in (r.black, r.white) for r in records)
    assert all((out / r.sgf).is_file() for r in records if r.sgf)
    print("screenshot:", tmp_path / f"play-{game}.png", f"(the last of {len(played)} games)")


POST_ACTION = """const done = arguments[arguments.length - 1];
fetch('/play/action', {method: 'POST', headers: {'content-type': 'application/json'},
                       body: JSON.stringify({token: arguments[0]})})
  .then(r => r.json().then(body => done([r.status, body])));"""


def test_an_illegal_click_changes_nothing_and_says_why(browser, tmp_path):
    """Clicks the rules refuse leave the board, the actions and the clicks as they were and show
    the rules' reason; an action sent while the engine thinks is refused (409) and changes nothing."""
    server = start_server(["play", "--engine", "mcts:2s", "--game", "spelde", "--size", "4", "--variant", "nopie",
                           "--out", str(tmp_path / "out")])
    try:
        browser.get(server.url)
        assert wait_turn(browser)
        browser.find_element(By.CSS_SELECTOR, '#board g.site[data-site="d4"]').click()
        WebDriverWait(browser, 10).until(lambda d: tokens_in_page(d) == ["d4"])      # sent: the engine thinks
        status, body = browser.execute_async_script(POST_ACTION, "a1")
        assert status == 409 and "not your turn" in body["refused"]
        assert wait_turn(browser, 60)
        tokens = tokens_in_page(browser)
        assert len(tokens) == 2
        board = dict(browser.execute_script(READ_BOARD))
        info = registry.get("spelde")
        state = info.new_game(info.variant(4, ["nopie"]), 0)
        for token in tokens:
            state = state.play(state.parse(token))
        reply = state.board.names(state.white)[0]
        for site, reason in (("d4", "d4 is occupied"), (reply, f"{reply} is occupied")):
            browser.find_element(By.CSS_SELECTOR, f'#board g.site[data-site="{site}"]').click()
            WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "message").text == reason)
            assert dict(browser.execute_script(READ_BOARD)) == board
            assert tokens_in_page(browser) == tokens
            assert browser.find_elements(By.CSS_SELECTOR, "#board g.site[data-pick]") == []
        status, body = browser.execute_async_script(POST_ACTION, "d4")
        assert status == 409 and "d4 is occupied" in body["refused"]
        shot = tmp_path / "play-refused.png"
        browser.save_screenshot(str(shot))
        print("screenshot:", shot)
        assert tokens_in_page(browser) == tokens and dict(browser.execute_script(READ_BOARD)) == board
        assert [e for e in severe(browser) if "status of 409" not in e["message"]] == []     # the two refusals
    finally:
        browser.get("about:blank")
        code, _, err = server.stop()
        assert code == 130 and "Traceback" not in err, err


def resign_button(driver):
    return driver.find_element(By.CSS_SELECTOR, '#buttons button[data-word="resign"]')


def buttons(driver) -> str:
    """The texts of the page's action buttons, read at once (they are redrawn at every change)."""
    return driver.execute_script("return Array.from(document.querySelectorAll('#buttons button'))"
                                 ".map(b => b.textContent).join('|');")


def test_the_engines_analysis_beside_the_board_and_resigning_takes_a_confirmation(browser, tmp_path):
    """The engine's latest winrate and principal variation beside the board; resign sends nothing
    until confirmed by a second click (a click elsewhere or "keep playing" disarms it); after the
    game the page shows the result and the server stops by itself, exit 0."""
    out = tmp_path / "out"
    server = start_server(["play", "--engine", "mcts:100", "--game", "spelde", "--size", "3", "--variant", "nopie",
                           "--colour", "white", "--out", str(out)])
    try:
        browser.get(server.url)
        assert wait_turn(browser)
        [first] = tokens_in_page(browser)
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "analysis").is_displayed())
        text = browser.find_element(By.ID, "analysis-text").text
        assert re.match(r"ply 1, mcts-100 \(Black\): Black \d+\.\d% to win, visits \d+, depth \d+\n"
                        rf"pv: 1\. {first}", text), text
        resign_button(browser).click()
        WebDriverWait(browser, 10).until(lambda d: "resign: click again to confirm|keep playing" in buttons(d))
        browser.find_element(By.ID, "resign-cancel").click()
        WebDriverWait(browser, 10).until(lambda d: "resign" in buttons(d).split("|"))
        resign_button(browser).click()
        WebDriverWait(browser, 10).until(lambda d: "resign: click again to confirm|keep playing" in buttons(d))
        shot = tmp_path / "play-resign.png"
        browser.save_screenshot(str(shot))
        print("screenshot:", shot)
        free = next(s.get_attribute("data-site") for s in browser.find_elements(By.CSS_SELECTOR, "#board g.site")
                    if not s.get_attribute("data-stone"))
        browser.find_element(By.CSS_SELECTOR, '#board g.site[data-site="' + free + '"]').click()
        WebDriverWait(browser, 10).until(lambda d: "confirm" not in buttons(d))   # a click elsewhere disarms
        assert browser.find_element(By.ID, "result").text == ""
        assert wait_turn(browser)
        resign_button(browser).click()
        resign_button(browser).click()
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "result").text.startswith("Game over"))
        assert browser.find_element(By.ID, "result").text == "Game over. You resigned: mcts-100 wins (B+R)"
        assert "recorded in" in browser.find_element(By.ID, "recorded").text
        assert board_status(browser) == "game over"
        server.process.wait(timeout=10)     # the page had the final state: the server stops at once
        assert "the server stops" in browser.find_element(By.ID, "connection").text
        assert severe(browser) == []
    finally:
        browser.get("about:blank")
        code, said, err = server.stop()
    assert code == 0 and "Traceback" not in err, err
    [record] = read_journal(out)
    assert record.result == "B+R" and record.termination.value == "resign" and "recorded in" in said


def board_status(driver) -> str:
    return driver.execute_script("return document.querySelector('#board text.status').textContent;")


def test_the_engine_s_swap_and_the_end_are_said_to_the_person(browser, tmp_path):
    """An engine that swaps at once: the page says so and which colour the person plays now; the
    game played out to its end says why it ended and who won, addressed to the person."""
    out = tmp_path / "out"
    server = start_server(["play", "--engine", shlex.join(fake12_argv("v12,swap")), "--game", "spelde",
                           "--size", "2", "--out", str(out)])
    try:
        browser.get(server.url)
        rng = random.Random(3)
        swapped = False
        while wait_turn(browser):
            tokens = tokens_in_page(browser)
            if tokens[-1:] == ["swap"]:
                news = browser.find_element(By.ID, "news").text
                assert news == "python swapped: you now play White", news
                assert browser.find_element(By.ID, "turn").text == "Your turn (White)"
                swapped = True
            state = replayed("spelde", tokens, size=2)
            perform(browser, state, state.format(rng.choice(list(state.legal_actions()))), tmp_path, {"spelde"})
        assert swapped
        result = browser.find_element(By.ID, "result").text
        [record] = read_journal(out)
        winner = "you win" if record.winner == "person" else "python wins"
        assert re.fullmatch(rf"Game over\. (You have|python has) no legal move: {winner} \({re.escape(record.result)}\)",
                            result), result
        assert board_status(browser) == "game over" and severe(browser) == []
    finally:
        browser.get("about:blank")
        server.stop()
