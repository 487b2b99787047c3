"""Headless Chromium through Selenium for the browser tests of the web server's pages (play,
analysis board): the driver, its severe console entries, and the reason to skip without one."""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
MISSING = ("no headless browser: install Debian's chromium and chromium-driver "
           "(apt-get install chromium chromium-driver), as .ci/run does")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1300,1000")


def chromium() -> Iterator:
    """A Chrome webdriver on a fresh profile, quit and removed afterwards (a fixture's body)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="hexarena-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = CHROMIUM or ""
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def severe(driver) -> list[dict]:
    """The console's SEVERE entries since the last call."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
