"""The analysis board over HTTP: positions replayed by the rules, clicks, an attached engine's
analysis (a real built-in engine process), refusals naming the reason, the command's usage."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hexarena.engine import registry
from hexarena.results.record.game import GameRecord
from hexarena.results.record.moves import moves_of_lists
from hexarena.results.record.sgf import sgf_text
from tests.support.web import Server, start_server

pytestmark = pytest.mark.slow
TOKENS = ["c3", "swap", "d5"]


@pytest.fixture
def sgf(tmp_path) -> Path:
    """A Spelde record of 3 actions on a 4-board, written by the project's SGF writer."""
    record = GameRecord(id="x/0001", game="spelde", size=4, variant="pie", first="a", second="b", black="b",
                        white="a", winner="a", result="W+R", termination="resign", plies=3, reason="",
                        faulty=None, started="2026-01-01T00:00:00Z", seconds=1.0, opening=0,
                        moves=moves_of_lists(TOKENS, colours="BWW"))
    path = tmp_path / "game.sgf"
    path.write_text(sgf_text(record, registry.get("spelde").sgf_number), encoding="utf-8")
    return path


def post(server: Server, path: str, body: dict) -> tuple[int, dict]:
    answer = server.request(path, "POST", {"Origin": f"http://127.0.0.1:{server.port}",
                                           "content-type": "application/json"}, body=json.dumps(body).encode())
    return answer.status, json.loads(answer.body)


def test_positions_clicks_and_the_engines_analysis(sgf):
    server = start_server(["analyse", str(sgf), "--engine", "mcts:200"])
    try:
        assert server.request("/", cookie=False).status == 403
        page = server.request("/")
        assert page.status == 200 and json.dumps(TOKENS, separators=(",", ":")) in page.body
        status, pos = post(server, "/analyse/position", {"tokens": TOKENS[:1]})
        assert status == 200 and pos["stones"] == {"c3": "b"} and pos["build"]["words"] == ["swap", "resign"]
        status, pos = post(server, "/analyse/position", {"tokens": ["c3", "c3"]})
        assert status == 400 and "c3 is occupied" in pos["refused"]
        status, step = post(server, "/analyse/click", {"tokens": TOKENS, "clicks": [], "site": "d5"})
        assert step == {"refused": "d5 is occupied"}
        status, advice = post(server, "/analyse/ask", {"tokens": TOKENS})
        assert status == 200 and advice["command"] == "genmove_analyze", advice
        [info] = advice["info"]
        assert 0 <= info["winrate"] <= 1 and info["pv"][0] == advice["action"]
        assert len(info["pv_sites"]) == len(info["pv"])
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err


def test_without_an_engine_asking_is_refused(sgf):
    server = start_server(["analyse", str(sgf)])
    try:
        status, answer = post(server, "/analyse/ask", {"tokens": []})
        assert status == 409 and "--engine" in answer["refused"]
    finally:
        server.stop()


def test_usage(sgf, tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "hexarena", *args], capture_output=True, text=True, timeout=60)
    pointed = run("serve", "--analyse", str(sgf))
    assert pointed.returncode == 2 and "hexarena analyse FILE.sgf" in pointed.stderr
    assert "give DIR" in run("serve", "--engine", "random").stderr
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]SZ[4])", encoding="utf-8")
    answer = run("analyse", str(bad))
    assert answer.returncode == 1 and "no XG[game id]" in answer.stderr
    neither = run("analyse", "no-such-file.sgf")
    assert neither.returncode == 1 and "no such file, nor a position string" in neither.stderr


def test_an_engine_without_set_position_gets_the_line_replayed(sgf, tmp_path):
    seen = tmp_path / "seen.txt"
    engine = f"{sys.executable} {Path(__file__).with_name('replay_only_engine.py')} {seen}"
    server = start_server(["analyse", str(sgf), "--engine", engine])
    try:
        status, advice = post(server, "/analyse/ask", {"tokens": TOKENS})
        assert status == 200 and advice["command"] == "genmove_analyze" and advice["info"] == [], advice
    finally:
        server.stop()
    lines = [line.split(None, 1)[1].strip() for line in seen.read_text(encoding="utf-8").splitlines()]
    assert "set_position" not in " ".join(lines)
    start = lines.index("clear_board")
    assert lines[start + 1:start + 4] == ["play black c3", "play white swap", "play white d5"]
    assert lines[start + 4] == "genmove_analyze black"


def test_a_position_string(tmp_path):
    position = "spelde 3 w .../..../..b../..../... variant=nopie ply=1"
    server = start_server(["analyse", position, "--engine", "mcts:100"])
    try:
        status, pos = post(server, "/analyse/position", {"tokens": []})
        assert status == 200 and pos["to_move"] == "w" and len(pos["stones"]) == 1, pos
        status, advice = post(server, "/analyse/ask", {"tokens": []})
        assert status == 200 and advice["info"] and advice["info"][0]["pv"][0] == advice["action"]
    finally:
        server.stop()
    engine = f"{sys.executable} {Path(__file__).with_name('replay_only_engine.py')} {tmp_path / 'seen.txt'}"
    server = start_server(["analyse", position, "--engine", engine])
    try:
        status, answer = post(server, "/analyse/ask", {"tokens": []})
        assert status == 502 and "does not list set_position" in answer["refused"]
    finally:
        server.stop()


def test_the_board_data_carries_the_keys_the_game_shows():
    server = start_server(["analyse", "anda-prison 3 w .../..../..b../..../... prison=2,1"])
    try:
        status, pos = post(server, "/analyse/position", {"tokens": []})
        assert status == 200 and pos["shown"] == "prison: 2 black, 1 white", pos
    finally:
        server.stop()
    spelde = start_server(["analyse", "spelde 3 w .../..../..b../..../... variant=nopie ply=1"])
    try:
        assert post(spelde, "/analyse/position", {"tokens": []})[1]["shown"] == ""
    finally:
        spelde.stop()


def test_the_engines_log_folder_is_kept_only_for_a_log_worth_reading(sgf, tmp_path):
    import os
    import shlex
    import socket
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    silent = shlex.join([sys.executable, "-c", "pass"])                     # exits at once, says nothing
    server = start_server(["analyse", str(sgf), "--engine", f"quiet={silent}"], env=env)
    try:
        status, answer = post(server, "/analyse/ask", {"tokens": TOKENS})
        assert status == 502 and answer["refused"].startswith("quiet: ") and "log:" not in answer["refused"], answer
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err and list(tmp.iterdir()) == [], (err, list(tmp.iterdir()))
    with socket.socket() as busy:                                             # a port in use: nothing left either
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        run = subprocess.run([sys.executable, "-m", "hexarena", "serve", str(tmp_path), "--engine", "random",
                              "--port", str(busy.getsockname()[1])], capture_output=True, text=True, env=env,
                             timeout=60)
    assert run.returncode == 1 and "cannot listen" in run.stderr and list(tmp.iterdir()) == [], run.stderr
    loud = shlex.join([sys.executable, "-c", "import sys; sys.stderr.write('no luck here\\n')"])
    server = start_server(["analyse", str(sgf), "--engine", f"loud={loud}"], env=env)
    try:
        status, answer = post(server, "/analyse/ask", {"tokens": TOKENS})
        [folder] = tmp.iterdir()
        log = folder / "loud.log"
        assert status == 502 and f"(log: {log})" in answer["refused"], answer
    finally:
        code, _, err = server.stop()
    assert code == 130 and f"the engine's stderr is kept in {log}" in err and "no luck here\n" in log.read_text()
