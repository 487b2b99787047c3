"""The report's winrate chart and principal variation in a real browser (headless Chromium, Selenium).

Two small real tournaments: MCTS against an analysing engine whose info lines carry markup
(`markup_engine.py analysing`), and two engines with `analysis = false`. The viewer must draw one line
per engine at the Black winrates the journal gives, show each action's pv and info values as
text, and show no chart for the game without analysis.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.results.record.journal import read_journal

from tests.support.page_check import static_markup_problems

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from tests.support.browser import MARKS, browser, open_game, severe  # noqa: E402,F401

pytestmark = MARKS
ANALYSING = Path(__file__).with_name("markup_engine.py")
NOTE = "<img/src=x/onerror=alert(4)>"       # markup_engine.py's note
READ_DOTS = """return Array.from(document.querySelectorAll('#v-analysis circle.wr-dot')).map(
    c => [c.classList.contains('wr-seat-0') ? 0 : 1, Number(c.dataset.ply), Number(c.dataset.black)]);"""


def play(folder: Path, engines: str) -> Path:
    config = folder / "t.toml"
    config.write_text(f"""seed = 5
games_per_pair = 2
{engines}
[[games]]
game = "spelde"
size = 4
""", encoding="utf-8")
    out = folder / "out"
    run = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out), "-q"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr + run.stdout
    return out


@pytest.fixture(scope="module")
def analysed(tmp_path_factory) -> Path:
    return play(tmp_path_factory.mktemp("analysed"), f"""[engines.mcts]
player = "mcts:40"
[engines.marked]
cmd = ["{{python}}", {json.dumps(str(ANALYSING))}, "analysing", "{{seed}}"]
""")


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Path:
    return play(tmp_path_factory.mktemp("plain"), """[engines.mcts]
player = "mcts:40"
analysis = false
[engines.greedy]
player = "greedy"
analysis = false
""")


def black_winrates(record) -> dict[int, tuple[int, float]]:
    """{ply: (seat of the mover, Black's chance to win)} from the journal, computed here: the mover's
    first winrate, turned to Black's side when the mover holds White after its action."""
    holders, out = {"B": 0, "W": 1}, {}
    for ply, move in enumerate(record.moves, 1):
        seat, infos = holders[move.colour], move.analysis
        if move.action == "swap":
            holders = {"B": holders["W"], "W": holders["B"]}
        held = next(c for c, s in holders.items() if s == seat)
        winrate = next((i["winrate"] for i in infos or [] if "winrate" in i), None)
        if winrate is not None:
            out[ply] = (seat, winrate if held == "B" else 1 - winrate)
    return out


def test_the_chart_draws_each_engines_winrate_and_each_ply_its_pv(analysed, browser, tmp_path):
    records = read_journal(analysed / "journal.jsonl")
    record = max(records, key=lambda r: r.plies)
    expected = black_winrates(record)
    assert {seat for seat, _ in expected.values()} == {0, 1}      # both engines analysed
    open_game(browser, analysed / "report.html", record.id)
    assert browser.find_element(By.ID, "v-analysis").is_displayed()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#v-analysis polyline.wr-line")) == 2
    dots = browser.execute_script(READ_DOTS)
    assert {ply: (seat, pytest.approx(b, abs=1e-4)) for seat, ply, b in dots} == expected
    legend = browser.find_element(By.CSS_SELECTOR, "#v-analysis .wr-legend").text
    assert record.first in legend and record.second in legend
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    for ply in range(1, record.plies + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        detail = browser.find_element(By.CSS_SELECTOR, "#v-analysis .wr-detail").text
        infos = record.moves[ply - 1].analysis
        pv = next((i["pv"] for i in infos or [] if "pv" in i), None)
        shown = [s.text for s in browser.find_elements(By.CSS_SELECTOR, "#v-analysis .pv-action")]
        assert shown == [f"{ply + k}. {t}" for k, t in enumerate(pv[:12])] if pv else shown == [], f"ply {ply}"
        assert f"ply {ply}" in detail
        if infos and any("note" in i.get("other", {}) for i in infos):
            assert f"note {NOTE}" in detail                        # an engine's markup, as text
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert severe(browser) == []
    assert static_markup_problems((analysed / "report.html").read_text(encoding="utf-8")) == []
    shot = tmp_path / "analysis.png"
    browser.find_element(By.ID, "viewer").screenshot(str(shot))
    print("screenshot:", shot)


def test_a_game_without_analysis_has_no_chart(plain, browser):
    records = read_journal(plain / "journal.jsonl")
    assert records and all(m.analysis is None for r in records for m in r.moves)     # analysis = false: never asked
    open_game(browser, plain / "report.html", records[0].id)
    assert not browser.find_element(By.ID, "v-analysis").is_displayed()
    assert browser.find_elements(By.CSS_SELECTOR, ".wr-chart") == []
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert severe(browser) == []


def test_the_engines_section_names_each_identity(analysed, browser):
    browser.get((analysed / "report.html").as_uri())
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in browser.find_elements(By.CSS_SELECTOR, "#engines table tr")[1:]]
    identities = {}
    for r in read_journal(analysed / "journal.jsonl"):
        for seat, name in enumerate((r.first, r.second)):
            identities[name] = " ".join(w for w in r.identities[seat] if w)
    assert sorted(rows) == sorted([name, identity, "2"] for name, identity in identities.items())
