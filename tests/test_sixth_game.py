"""A game kept outside engine/ (tests/support/tiny_game.py), added by ``HEXARENA_GAMES``, goes
through everything a built-in game does: a tournament between built-in players (random, and
heuristic with the knowledge the game declares) as engine processes, its ending by the goal
of its rules (`goal`) in the live lines, journal, SGF, HTML report and the cluster's replay
check, `hexarena show` and a `hexarena serve` page; and no product folder above the rules
names a game.
"""
from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.cluster_check import refusal
from hexarena.engine import registry
from hexarena.engine.errors import UnknownGame
from hexarena.players.games import MissingKnowledge, knowledge_for
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.schedule import schedule
from hexarena.results.record.journal import read_journal
from tests.support.folders import build_folder
from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)
from tests.support.web import start_server

ROOT = Path(__file__).resolve().parents[1]
TINY = "tests.support.tiny_game:RULES"
FAULTY = "tests.support.tiny_faults:RULES"
#: Tiny's rules under another id, in a module without KNOWLEDGE.
PLAIN = "tests.support.plain_game:RULES"

#: The folders above the rules, where no game may be named: what a game draws, shows and
#: replays is declared by the game itself (GameInfo.drawing, GameInfo.shown_keys).
ABOVE_THE_RULES = ("results", "protocol", "referee", "hexarena")


@pytest.fixture
def tiny(monkeypatch):
    """HEXARENA_GAMES names Tiny for this process and every process it starts (the engines,
    the server), which find tests/ on PYTHONPATH."""
    monkeypatch.setenv(registry.GAMES_SETTING, TINY)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return registry.get("tiny")


def test_no_folder_above_the_rules_names_a_game():
    ids = [*registry.GAME_MODULES, *registry.GAME_MODULES.values()]
    word = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
                      + r")(?![\w-])", re.IGNORECASE)
    found = []
    for folder in ABOVE_THE_RULES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".js", ".j2", ".html", ".css", ".toml", ".md"):
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    found += [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}" for m in word.finditer(line)]
    assert found == []


def test_the_setting_adds_the_game_after_the_built_in_ones(tiny):
    assert registry.playable() == [*registry.GAME_MODULES, "tiny"]
    assert registry.from_position("tiny 3 w b../..../...../..../... ply=1").ply == 1


@pytest.mark.parametrize("value, message", [
    ("tests.support.tiny_game", "expected MODULE:ATTR"),
    ("tests.support.no_such_module:RULES", "cannot import tests.support.no_such_module: ModuleNotFoundError"),
    ("tests.support.raising_game:RULES", "cannot import tests.support.raising_game: RuntimeError: a bug in the "
                                        "game's module (tests/support/raising_game.py:5)"),
    ("tests.support.tiny_game:Phase", "has no GameInfo named Phase"),
    ("tests.support.tiny_faults:UPPER", "game id 'Tiny-Upper' is not a valid id: lower-case letters"),
    (f"{TINY},{TINY}", "game id 'tiny' is taken"),
])
def test_a_bad_entry_adds_no_game_and_is_named_with_its_entry(monkeypatch, value, message):
    monkeypatch.setenv(registry.GAMES_SETTING, value)
    assert registry.playable()[:len(registry.GAME_MODULES)] == list(registry.GAME_MODULES)
    [problem] = registry.setting_problems()
    assert problem.startswith(f"HEXARENA_GAMES entry {value.split(',')[-1]!r}: ") and message in problem
    with pytest.raises(UnknownGame, match=re.escape(message)):
        registry.get("tiny-upper")


def test_an_unknown_game_says_the_setting_it_may_need(monkeypatch):
    monkeypatch.delenv(registry.GAMES_SETTING, raising=False)
    with pytest.raises(UnknownGame, match=re.escape("a game added by HEXARENA_GAMES needs that setting: "
                                                    "it is not set here")):
        registry.get("tiny")
    monkeypatch.setenv(registry.GAMES_SETTING, "tests.support.tiny_faults:RULES")
    with pytest.raises(UnknownGame, match=re.escape("it is 'tests.support.tiny_faults:RULES' here")):
        registry.get("tiny")
    hint = "a game added by HEXARENA_GAMES needs that setting: it is 'tests.support.tiny_faults:RULES' here"
    with pytest.raises(MissingKnowledge, match=re.escape(hint)):
        knowledge_for("tiny")
    result = invoke("check", "--game", "tiny", "--", sys.executable, "-c", "pass")
    assert result.exit_code == 2 and hint in result.stderr


def test_a_bad_entry_is_one_warning_and_commands_about_other_games_run(monkeypatch):
    monkeypatch.setenv(registry.GAMES_SETTING, f"tests.support.raising_game:RULES,{TINY}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = invoke("show", "spelde 2 b ../.../..")
    assert result.exit_code == 0 and "spelde" in result.output
    assert result.stderr.count("warning: HEXARENA_GAMES entry 'tests.support.raising_game:RULES': cannot import "
                               "tests.support.raising_game: RuntimeError: a bug in the game's module "
                               "(tests/support/raising_game.py:5)") == 1
    assert invoke("show", "tiny 3 b .../..../...../..../...").exit_code == 0     # the sound entry's game is there
    result = invoke("show", "nosuch 3 b ../.../..")
    assert result.exit_code == 1 and "HEXARENA_GAMES entry 'tests.support.raising_game:RULES'" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def _folder_with(monkeypatch, folder: Path, setting: str) -> Path:
    """A tournament folder (journal, SGF records, the referee's report cache) of a random game of
    each game, the added ones by `setting` included."""
    monkeypatch.setenv(registry.GAMES_SETTING, setting)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    build_folder(folder, len(registry.playable()), remember=True)
    return folder


@pytest.mark.parametrize("rebuild", [(), ("--rebuild",)])
def test_a_report_of_games_not_known_here_stops_naming_the_game_and_the_setting(monkeypatch, tmp_path, rebuild):
    folder = _folder_with(monkeypatch, tmp_path / "t", TINY)
    cache = (folder / "report-cache.jsonl").read_text()
    monkeypatch.delenv(registry.GAMES_SETTING)
    result = invoke("report", str(folder), "-o", str(tmp_path / "page.html"), *rebuild)
    assert result.exit_code == 1 and "Traceback" not in result.output + result.stderr
    assert "its games of 'tiny' cannot be replayed or drawn: the game is not known here: no game 'tiny'" in result.stderr
    assert "a game added by HEXARENA_GAMES needs that setting: it is not set here" in result.stderr
    assert not (tmp_path / "page.html").exists() and (folder / "report-cache.jsonl").read_text() == cache


def test_an_exception_in_the_rules_is_the_records_error(monkeypatch, tmp_path):
    folder = _folder_with(monkeypatch, tmp_path / "t", FAULTY)
    [sgf] = (folder / "games").glob("tiny-faulty-*.sgf")
    monkeypatch.setenv("TINY_FAULT", "play")
    fault = re.compile(r"ply 3: '[a-z]\d+': the rules raised ZeroDivisionError: division by zero "
                       r"\((\S+/)?tiny_faults\.py:\d+\)")
    result = invoke("show", str(sgf))
    assert result.exit_code == 1 and fault.search(result.stderr) and "Traceback" not in result.stderr
    result = invoke("report", str(folder), "--rebuild")
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    [warning] = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert sgf.name in warning and fault.search(warning)
    assert f"{len(registry.playable())} games" in result.output


def test_check_fails_the_rules_not_the_engine_when_they_raise(monkeypatch):
    monkeypatch.setenv(registry.GAMES_SETTING, FAULTY)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("TINY_FAULT", "play")       # the referee's rules raise; the engine's, without it, do not
    result = invoke("check", "--game", "tiny-faulty", "--size", "3", "--",
                    "env", "-u", "TINY_FAULT", sys.executable, "-m", "hexarena.players", "random")
    assert result.exit_code == 1 and "Traceback" not in result.output + result.stderr
    assert re.search(r"FAIL tiny-faulty rules: the rules of tiny-faulty raised ZeroDivisionError: division by zero "
                     r"\((\S+/)?tiny_faults\.py:\d+\): the engine is not at fault", result.output)
    assert "PASS quit" in result.output


def test_the_pre_flight_says_an_engine_lists_an_added_game_only_with_the_setting(tiny, tmp_path):
    conf = tmp_path / "tiny.toml"
    conf.write_text('[engines.random]\nplayer = "random"\nenv = { HEXARENA_GAMES = "" }\n'
                    '[engines.greedy]\nplayer = "greedy"\n[[games]]\ngame = "tiny"\nsize = 3\n')
    result = invoke("tournament", str(conf), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1 and "Traceback" not in result.output + result.stderr
    assert ("random: does not list tiny in list_games (tiny: not built in; an engine lists a game added by "
            f"HEXARENA_GAMES only when its environment names it; here HEXARENA_GAMES is {TINY!r})") in result.stderr
    assert "greedy: does not list" not in result.stderr


@pytest.mark.slow
def test_a_tournament_of_the_added_game_journals_draws_reports_and_serves_it(tiny, tmp_path):
    conf = tmp_path / "tiny.toml"
    conf.write_text('[engines.random]\nplayer = "random"\n[engines.heuristic]\nplayer = "heuristic"\n'
                    '[[games]]\ngame = "tiny"\nsize = 3\n')
    out = tmp_path / "out"
    ran = invoke("tournament", str(conf), "--out", str(out), "--games-per-pair", "2", "-j", "1")
    assert ran.exit_code == 0, ran.output + ran.stderr
    assert len(re.findall(r"heuristic \(\w+\) beat random \(\w+\): goal, \d+ plies", ran.output)) == 2   # the live lines
    records = read_journal(out)
    assert len(records) == 2 and all(r.game == "tiny" and not r.void for r in records)
    assert all(r.termination == "goal" and r.winner == "heuristic" for r in records)     # a group of 5 stones
    games = {g.id: g for g in schedule(config_mod.load(conf))}
    assert [refusal(r, games[r.id]) for r in records] == [None, None]        # the cluster's replay check agrees
    plies = records[0].plies
    sgf = (out / records[0].sgf).read_text()
    assert "GM[1999]" in sgf and "XG[tiny]" in sgf and len(re.findall(r";[BW]\[", sgf)) == plies
    assert "XR[goal: ended by the rules]" in sgf

    report = (out / "report.html").read_text()
    assert 'data-game="tiny"' in report and "largest: " in report and "<th>ended: goal</th>" in report

    shown = invoke("show", str(out / records[0].sgf))
    assert shown.exit_code == 0, shown.stderr
    assert f"tiny nopie 3, ply {plies}, over" in shown.output
    assert re.search(r"largest: \d+ black, \d+ white", shown.output)

    server = start_server(["serve", str(out)])
    try:
        index = server.request("/")          # one folder served: the index sends the browser on to it
        assert index.status == 303
        folder = index.headers["location"]
        assert re.fullmatch(r"/t/[^/]+/", folder), folder
        page = server.request(f"{folder}game/{records[0].id}")
        assert page.status == 200 and 'data-game="tiny"' in page.body and 'class="point"' in page.body
        data = json.loads(server.request(f"{folder}data/{records[0].id}").body)
        assert data["bd"] == "tiny-3" and data["p"]["0"] == "b play|largest: 0 black, 0 white"
        assert len(data["m"]) == plies
    finally:
        server.stop(signal.SIGKILL)


@pytest.fixture
def plain(monkeypatch):
    monkeypatch.setenv(registry.GAMES_SETTING, f"{TINY},{PLAIN}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return registry.get("plain")


def served(player: str, *lines: str) -> str:
    run = subprocess.run([sys.executable, "-m", "hexarena.players", player], input="\n".join([*lines, "quit"]) + "\n",
                         capture_output=True, text=True, timeout=60)
    return run.stdout


def test_a_player_lists_only_the_added_games_it_can_play(plain):
    heuristic = served("heuristic", "list_games", "game plain")
    assert "tiny" in heuristic and "plain" not in heuristic.split("? ")[0]       # tiny declares KNOWLEDGE, plain none
    assert "? unknown game: hexarena-heuristic does not play 'plain'" in heuristic
    assert "\nplain\n" in served("mcts:20", "list_games") and "\nplain\n" in served("random", "list_games")
    from hexarena.players.serve import make_engine
    assert "plain" not in make_engine("heuristic").handle("list_games")       # in this process too


def test_a_game_without_knowledge_is_refused_by_the_heuristic_player_before_play_and_searched_by_mcts(plain, tmp_path):
    refused = invoke("match", "heuristic", "random", "--game", "plain", "--size", "3", "--games", "1",
                     "--out", str(tmp_path / "h"), "-q")
    assert refused.exit_code != 0 and "heuristic: does not list plain in list_games" in refused.output + refused.stderr
    assert not (tmp_path / "h" / "journal.jsonl").exists()
    ran = invoke("match", "mcts:20", "random", "--game", "plain", "--size", "3", "--games", "2",
                 "--out", str(tmp_path / "m"), "-q")
    assert ran.exit_code == 0, ran.output + ran.stderr
    records = read_journal(tmp_path / "m")
    assert len(records) == 2 and all(r.termination in ("goal", "no-moves") and r.forfeit is None for r in records)


def test_the_added_games_rules_page_is_the_file_its_game_info_names(tiny, plain):
    from hexarena.web.play import rules_page
    assert rules_page("tiny") == ROOT / "tests" / "support" / "tiny_game.md"
    assert rules_page("plain") is None


@pytest.mark.slow
def test_hexarena_play_shows_the_added_games_rules_and_its_goal(tiny, tmp_path):
    import random as _random
    import time

    from hexarena.players import heuristic_bot
    server = start_server(["play", "--engine", "random", "--game", "tiny", "--size", "3", "--colour", "black",
                           "--out", str(tmp_path / "out")])
    try:
        page = server.request("/")
        assert page.status == 200 and 'href="/play/rules"' in page.body
        rules = server.request("/play/rules")
        assert rules.status == 200 and rules.body.startswith("# Tiny") and "n + 2 stones" in rules.body
        end = time.monotonic() + 60
        while time.monotonic() < end:
            now = json.loads(server.request("/play/state").body)
            if now["result"]:
                break
            if not now["your_turn"]:
                time.sleep(0.05)
                continue
            state = tiny.new_game(tiny.variant(3))
            for token in now["tokens"]:
                state = state.play(state.parse(token))
            token = state.format(heuristic_bot(state, _random.Random(len(now["tokens"]))))
            headers = {"content-type": "application/json", "Origin": f"http://127.0.0.1:{server.port}"}
            assert server.request("/play/action", "POST", headers, body=json.dumps({"token": token}).encode()).status == 200
        assert now["result"]["text"] == "You reached the game's goal: you win (B+)", now["result"]
    finally:
        server.stop(signal.SIGKILL)
