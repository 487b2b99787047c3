"""Headless Chromium through Selenium for the browser tests (Debian's chromium and chromium-driver):
where they are, the flags, a driver with the console and network logs on, and what a page
logged as an error."""
from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
MISSING = ("no headless browser: install Debian's chromium and chromium-driver "
           "(apt-get install chromium chromium-driver), as .ci/run does")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
SIZE = "1200,1400"


@contextmanager
def chromium(size: str = SIZE) -> Iterator:
    """A fresh browser (its own profile: no cookies) of window `size` ("W,H") logging the console
    and the network."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for flag in (*FLAGS, f"--window-size={size}"):
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="hexarena-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    assert CHROMIUM is not None and DRIVER is not None, MISSING
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def severe(driver) -> list[dict]:
    """The console's errors since the last call."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def exchanges(driver) -> list[dict]:
    """Every request the browser sent since the last call, as {method, url, status, cookies}: the
    status its answer had (also an answer the page was not allowed to read) and the names of the
    cookies sent with it (the performance log: the DevTools Protocol's Network events)."""
    seen: dict[str, dict] = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        one = seen.setdefault(params.get("requestId", ""), {"method": None, "url": None, "status": None,
                                                           "cookies": []})
        if message.get("method") == "Network.requestWillBeSent":
            one.update(method=params["request"]["method"], url=params["request"]["url"])
        elif message.get("method") == "Network.requestWillBeSentExtraInfo":
            one["cookies"] = [c["cookie"]["name"] for c in params.get("associatedCookies", [])
                              if not c.get("blockedReasons")]
        elif message.get("method") == "Network.responseReceivedExtraInfo":
            one["status"] = params.get("statusCode")
    return [one for key, one in seen.items() if key and one["method"] is not None]


#: The stones a board of `hexarena serve`/`play` shows: [site, colour + height when above 1].
READ_BOARD = """return Array.from(document.querySelectorAll('#board g.site')).filter(g => g.dataset.stone)
    .map(g => [g.dataset.site, g.dataset.stone + (g.dataset.height === '1' ? '' : g.dataset.height)]);"""


def stones_by_rules(state) -> dict[str, str]:
    """What READ_BOARD should read for a rules' `state`."""
    board = state.board
    return {board.name(b): c.value + (str(h) if h > 1 else "") for b, (c, h) in state.to_position().stacks.items()}


def board_is(driver, state, seconds: float = 10) -> None:
    """Wait until the page's board shows the stones of `state`."""
    from selenium.webdriver.support.wait import WebDriverWait
    WebDriverWait(driver, seconds).until(lambda d: dict(d.execute_script(READ_BOARD)) == stones_by_rules(state))
