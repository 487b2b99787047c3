"""`hexarena serve` in a real browser (headless Chromium, Selenium) while a real tournament runs in
another process: the folder page shows every game in flight, each board the rules' position at
the ply it shows, updating without a reload; a game page follows its game to the end in the
report's viewer; the token and the Origin check hold against the browser's own requests.
Screenshots (serve-folder.png, serve-game.png, which docs/browser.md shows) go to the folder
$HEXARENA_SCREENSHOTS names (docs/img to refresh the docs' pictures), else to a temporary one.

Skips, saying why, where no Chromium and chromedriver are installed.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from hexarena.engine import registry
from hexarena.results.page.board_svg import action_sites
from hexarena.results.record.journal import read_journal

from tests.support.chromium import CHROMIUM, DRIVER, MISSING, chromium, exchanges, severe
from tests.support.web import start_server

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                                                        reason=MISSING)]
IMAGES = Path(os.environ.get("HEXARENA_SCREENSHOTS") or tempfile.mkdtemp(prefix="hexarena-shots-"))
CONFIG = """seed = 7
games_per_pair = 4
[engines.mcts]
player = "mcts:0.3s"
[engines.greedy]
player = "greedy"
[[games]]
game = "spelde"
size = 4
[[games]]
game = "vaxandis"
size = 3
"""
#: One action's analysis, as every page says it (results/page/templates/analysis.js, describe).
ANALYSIS = re.compile(r"ply \d+, (mcts|greedy) \((Black|White)\): \2 \d+\.\d% to win(, visits \d+)?, depth \d+\n+"
                      r"pv: \d+\. \S+")
#: The analysis text of every card of the folder page that has some.
READ_INFO = "return Array.from(document.querySelectorAll('.live-game .info')).map(e => e.innerText).filter(t => t);"
#: Every card of the folder page: its game, the ply its board shows, and the board's sites.
READ_CARDS = """return Array.from(document.querySelectorAll('#live-games .live-game')).map(card => {
  const svg = card.querySelector('svg.hexboard');
  return [card.dataset.game, svg ? svg.getAttribute('data-ply') : null, svg ? Array.from(svg.querySelectorAll('g.site')).map(
    g => [g.dataset.site, g.getAttribute('data-stone'), g.getAttribute('data-height'), g.hasAttribute('data-last')]) : []];
});"""
#: Records, in the page, every board the folder page paints: its game, its ply, its sites.
RECORD_CARDS = """window.painted = [];
const paint = (svg) => window.painted.push([svg.closest('.live-game').dataset.game, svg.getAttribute('data-ply'),
  Array.from(svg.querySelectorAll('g.site')).map(
    g => [g.dataset.site, g.getAttribute('data-stone'), g.getAttribute('data-height'), g.hasAttribute('data-last')])]);
document.querySelectorAll('#live-games svg.hexboard[data-ply]').forEach(paint);
new MutationObserver((changes) => changes.forEach((c) => {
  if (c.type === 'attributes' && c.target.matches('svg.hexboard')) paint(c.target);
  c.addedNodes.forEach((n) => { if (n.matches && n.matches('svg.hexboard[data-ply]')) paint(n); });
})).observe(document.getElementById('live-games'), {attributes: true, attributeFilter: ['data-ply'], subtree: true, childList: true});"""
#: Records, in the page, the viewer's ply, board and winrate chart's points at every change of its ply line.
RECORD_VIEWER = """window.seen = [];
const record = () => window.seen.push([document.getElementById('v-slider').value,
  Array.from(document.querySelectorAll('#v-board g.site')).map(
    g => [g.dataset.site, g.getAttribute('data-stone'), g.getAttribute('data-height'), g.hasAttribute('data-last')]),
  document.querySelectorAll('#v-analysis circle.wr-dot').length]);
new MutationObserver(record).observe(document.getElementById('v-ply'), {childList: true, characterData: true, subtree: true});
record();"""


def rules_board(record, ply: int) -> tuple[dict[str, tuple[str, str]], set[str]]:
    """Stones and the last action's sites after `ply` actions of `record`, by the rules."""
    info = registry.get(record.game)
    state = info.new_game(info.variant(record.size, record.variant.split()))
    action = None
    for token in record.tokens[:ply]:
        action = state.parse(token)
        state = state.play(action)
    board, pos = state.board, state.to_position()
    return ({board.name(b): (c.value, str(h)) for b, (c, h) in pos.stacks.items()},
            {board.name(b) for b in action_sites(action)})


def shown_board(sites: list) -> tuple[dict[str, tuple[str, str]], set[str]]:
    return ({name: (stone, height) for name, stone, height, _ in sites if stone},
            {name for name, _, _, last in sites if last})


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """A tournament in one process and `hexarena serve` of its folder in another."""
    root = tmp_path_factory.mktemp("serve")
    # games long enough (Spelde on side 6) and enough of them that some are still to start once
    # the browser is up, and last while its page opens, on a loaded machine too
    config = CONFIG.replace("games_per_pair = 4", "games_per_pair = 8").replace("size = 4", "size = 6")
    (root / "t.toml").write_text(config, encoding="utf-8")
    out = root / "out"
    tournament = subprocess.Popen([sys.executable, "-m", "hexarena", "tournament", str(root / "t.toml"), "--out",
                                   str(out), "-j", "2", "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    server = start_server(["serve", str(out)])
    yield server, tournament, out
    code, _, err = server.stop(signal.SIGINT)
    assert code == 130 and "Traceback" not in err
    if tournament.poll() is None:
        tournament.send_signal(signal.SIGTERM)
    tournament.communicate(timeout=120)


def wait_until(predicate, what: str, timeout: float = 120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def test_a_game_page_follows_its_game_in_flight_to_its_end(running):
    server, tournament, out = running
    with chromium() as driver:
        driver.get(server.url)
        driver.get(f"http://127.0.0.1:{server.port}/t/out/")
        cards = wait_until(lambda: [c for c in driver.execute_script(READ_CARDS) if c[1] and 1 <= int(c[1]) <= 4],
                           "a game just begun on the folder page")
        game_id = cards[0][0]
        driver.get(f"http://127.0.0.1:{server.port}/t/out/game/{game_id}")
        assert driver.find_element(By.ID, "game-state").get_attribute("data-live") == "1"
        assert driver.find_element(By.ID, "analyse-live").is_displayed()      # the link opens the plies so far
        driver.execute_script(RECORD_VIEWER)
        shot = False
        deadline = time.monotonic() + 300
        clocks: set[str] = set()
        while driver.find_element(By.ID, "game-state").get_attribute("data-live") == "1":
            assert time.monotonic() < deadline, "the game page never saw its game end"
            info = driver.find_element(By.ID, "live-info").text
            assert info == "" or ANALYSIS.match(info), info
            clocks |= set(driver.execute_script(
                "return Array.from(document.querySelectorAll('#live-panel .clock')).map(c => c.textContent).filter(t => t);"))
            if not shot and driver.execute_script("return window.seen.length") >= 4:
                driver.save_screenshot(str(IMAGES / "serve-game.png"))
                shot = True
            time.sleep(0.1)
        record = next(r for r in read_journal(out / "journal.jsonl") if r.id == game_id)
        wait_until(lambda: driver.find_element(By.ID, "v-ply").text == f"ply {record.plies} of {record.plies}",
                   "the finished game's last ply")
        assert record.result in driver.find_element(By.ID, "game-state").text
        assert driver.execute_script("return document.querySelector('#v-board text.status').textContent") == "game over"
        assert not driver.find_element(By.ID, "v-close").is_displayed()     # one game: nothing to close
        assert driver.find_element(By.ID, "analyse").is_displayed()
        assert not driver.find_element(By.ID, "analyse-live").is_displayed()  # ... and the record once it ended
        assert clocks and all(re.fullmatch(r"(Black|White) (\d+:\d\d\.\d|\(.*\))", c) for c in clocks), clocks
        seen = driver.execute_script("return window.seen")         # recorded in the page: no reload
        dots = {d for _, _, d in seen}              # the winrate chart's points at each ply shown
        assert len(dots - {0}) >= 3, f"the chart did not grow while the game was in flight: {dots}"
        assert len({ply for ply, _, _ in seen}) >= 3, "the page did not follow the game"
        for ply, sites, _ in seen:
            assert shown_board(sites) == rules_board(record, int(ply)), f"{game_id} ply {ply}"
        assert severe(driver) == []


def test_a_game_page_whose_record_cannot_be_fetched_still_says_its_game_ended(running):
    """At its game's end the page fetches the journaled game's data; when that fetch fails (the
    network, a server gone) the page still says the game finished, never "in play", and the
    console says why."""
    server, _, _ = running
    with chromium() as driver:
        driver.get(server.url)
        for _ in range(20):             # a game in flight, still in flight once its page is open
            driver.get(f"http://127.0.0.1:{server.port}/t/out/")
            cards = wait_until(lambda: [c for c in driver.execute_script(READ_CARDS) if c[1] and int(c[1]) <= 20],
                               "a game in its first plies on the folder page")
            driver.get(f"http://127.0.0.1:{server.port}/t/out/game/{cards[0][0]}")
            if driver.find_element(By.ID, "game-state").get_attribute("data-live") == "1":
                break
        else:
            raise AssertionError("no game page opened while its game was in flight")
        driver.execute_script("window.fetch = () => Promise.reject(new TypeError('no network (the test)'));")
        wait_until(lambda: driver.find_element(By.ID, "game-state").get_attribute("data-live") == "0",
                   "the page saw its game end", timeout=300)
        assert driver.find_element(By.ID, "game-state").text == \
            "finished (its record could not be loaded: reload the page)"
        assert any("no network (the test)" in e["message"] for e in severe(driver))


def test_the_folder_page_shows_every_game_in_flight_as_the_rules_place_it(tmp_path):
    """The page is open before the tournament starts (its folder does not exist yet): every
    game is seen from its first action to its end."""
    (tmp_path / "t.toml").write_text(CONFIG.replace("games_per_pair = 4", "games_per_pair = 2"), encoding="utf-8")
    out = tmp_path / "out"
    server = start_server(["serve", str(out)])
    try:
        with chromium() as driver:
            driver.get(server.url)
            driver.get(f"http://127.0.0.1:{server.port}/t/out/")
            driver.execute_script(RECORD_CARDS)
            tournament = subprocess.Popen([sys.executable, "-m", "hexarena", "tournament", str(tmp_path / "t.toml"),
                                           "--out", str(out), "-j", "2", "-q"], stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE)
            shot = False
            said: set[str] = set()              # the games' analysis, as the cards say it
            while tournament.poll() is None:
                said |= set(driver.execute_script(READ_INFO))
                if not shot and len(driver.execute_script(READ_CARDS)) >= 2:
                    driver.save_screenshot(str(IMAGES / "serve-folder.png"))
                    shot = True
                time.sleep(0.2)
            assert tournament.returncode == 0, tournament.communicate()[1]
            assert said and all(ANALYSIS.match(text) for text in said), said
            records = {r.id: r for r in read_journal(out / "journal.jsonl")}
            wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#finished-list tbody tr")) == len(records),
                       "every game in the finished list")
            wait_until(lambda: driver.execute_script(READ_CARDS) == [], "no game left in flight")
            observed = driver.execute_script("return window.painted")      # recorded in the page: no reload
            plies: dict[str, set[int]] = {}
            for game, ply, sites in observed:
                assert shown_board(sites) == rules_board(records[game], int(ply)), f"{game} at ply {ply}"
                plies.setdefault(game, set()).add(int(ply))
            assert set(plies) == set(records) and len(records) == 4
            assert all(len(p) >= 3 for p in plies.values()), plies            # each board followed its game
            standings = driver.find_element(By.ID, "standings-tables").text
            assert "mcts" in standings and "greedy" in standings
            assert severe(driver) == []
    finally:
        server.stop(signal.SIGKILL)


def test_without_the_token_the_browser_gets_403_and_a_foreign_origin_cannot_post(running, tmp_path):
    server, _, _ = running
    (tmp_path / "index.html").write_text("<!DOCTYPE html><title>another site</title>", encoding="utf-8")
    other = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1"], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert other.stdout is not None
        port = int(re.search(r"port (\d+)", other.stdout.readline()).group(1))       # "Serving HTTP on ... port N"
        with chromium() as driver:
            driver.get(f"http://127.0.0.1:{server.port}/t/out/")
            assert "403 Forbidden" in driver.find_element(By.TAG_NAME, "body").text
            assert {e["url"]: e["status"] for e in exchanges(driver)}[f"http://127.0.0.1:{server.port}/t/out/"] == 403
            driver.get(server.url)                          # now the browser holds the token's cookie
            driver.get(f"http://127.0.0.1:{port}/")         # a page of another origin (same site: it gets sent)
            post = ("fetch(arguments[0], {method: 'POST', credentials: 'include', mode: 'no-cors', body: 'x'})"
                    ".then(() => arguments[1]('sent'), e => arguments[1](String(e)));")
            sent = driver.execute_async_script(post, f"http://127.0.0.1:{server.port}/t/out/")
            # the answer reaches the network log; the page itself may not read it (cross-origin-resource-policy)
            assert sent in ("sent", "TypeError: Failed to fetch")
            driver.get(f"http://127.0.0.1:{server.port}/t/out/")       # the same from the server's own page
            assert driver.execute_async_script(post, f"http://127.0.0.1:{server.port}/t/out/") == "sent"
            posts = [(e["status"], e["cookies"]) for e in exchanges(driver) if e["method"] == "POST"]
            cookie = [f"hexarena-{server.port}"]       # the token went with both: the Origin decides
            assert posts == [(403, cookie), (405, cookie)]   # refused by the Origin check; past it (no POST route)
    finally:
        other.kill()
        other.communicate()


def test_each_page_keeps_the_content_security_policy(running):
    server, _, _ = running
    for path, status in (("/", 303), ("/t/out/", 200), ("/static/folder.js", 200), ("/assets/replay.js", 200),
                         ("/board/spelde-4.svg", 200)):
        answer = server.request(path)
        assert answer.status == status, path
        assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert "<script>" not in server.request("/t/out/").body            # no inline script


def test_a_stopped_run_and_a_restarted_server_are_said_on_the_folder_page(tmp_path):
    """A game in flight whose folder no process holds (its run was killed) is shown stopped, its
    clocks standing still; a page whose server was started again (the same port, a new token)
    says to open the new address instead of reconnecting for ever."""
    import json
    import socket
    out = tmp_path / "out"
    (out / "live" / "spelde-4").mkdir(parents=True)
    clock = {"control": "fischer", "main": 60.0, "increment": 0.0, "text": "60 s + 0 s"}
    lines = [{"live": 1, "id": "spelde-4/0001", "game": "spelde", "size": 4, "variant": "pie", "first": "a",
              "second": "b", "opening": [], "clocks": [clock, clock], "at": time.time() - 5},
             {"ply": 1, "c": "B", "a": "d4", "at": time.time() - 4, "t": 1.0, "l": 59.0}]
    (out / "live" / "spelde-4" / "0001.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    server = start_server(["serve", str(out), "--port", str(port)])
    try:
        with chromium() as driver:
            driver.get(server.url)
            card = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".live-game.stopped"), "a stopped card",
                              timeout=30)[0]
            assert "; stopped: the run that played it ended (no process holds the folder)" in card.text
            assert driver.find_elements(By.CSS_SELECTOR, ".live-game .clock.running") == []
            wait_until(lambda: driver.find_element(By.ID, "connection").text.startswith("live"), "the stream open")
            code, _, _ = server.stop()
            assert code == 130
            server = start_server(["serve", str(out), "--port", str(port)])
            wait_until(lambda: driver.find_element(By.ID, "connection").text == "the server no longer accepts this "
                       "page's token (it was restarted): open the address it printed", "the token refused", timeout=60)
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err
