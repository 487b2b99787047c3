"""`hexarena play` over HTTP (the browser's requests without a browser): a whole game against the
built-in `random` through /play/click and /play/action, recorded in the journal and as SGF;
the guard's token and Origin checks; refusals that change nothing."""
from __future__ import annotations

import http.client
import json
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hexarena.commands_play import GRACE, engine_table, free_id
from hexarena.engine import registry
from hexarena.results.record.journal import JournalWriter, read_journal
from hexarena.results.page.replay import replay_record
from tests.support.records import record as a_record
from tests.support.web import Server, start_server

pytestmark = pytest.mark.slow


def post(server: Server, path: str, body: dict, origin: str | None = "self") -> tuple[int, dict]:
    headers = {"content-type": "application/json"}
    if origin is not None:
        headers["Origin"] = f"http://127.0.0.1:{server.port}" if origin == "self" else origin
    answer = server.request(path, "POST", headers, body=json.dumps(body).encode())
    return answer.status, json.loads(answer.body) if answer.body.startswith("{") else {"text": answer.body}


def state(server: Server) -> dict:
    answer = server.request("/play/state")
    assert answer.status == 200, answer.body
    return json.loads(answer.body)


def first_event(server: Server) -> dict:
    """The first snapshot /play/events sends, read as a page reads it."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("GET", "/play/events", headers={"Host": f"127.0.0.1:{server.port}",
                                                           "Cookie": f"hexarena-{server.port}={server.token}"})
        answer = connection.getresponse()
        assert answer.status == 200
        line = answer.readline()
        while not line.startswith(b"data: "):
            line = answer.readline()
        return json.loads(line[len(b"data: "):])
    finally:
        connection.close()


def wait_turn(server: Server, timeout: float = 60, until_over: bool = False) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        now = state(server)
        if now["your_turn"] and not until_over or now["result"]:
            return now
        time.sleep(0.05)
    raise AssertionError("the person's turn never came")


def test_a_whole_game_by_requests_is_journaled_with_its_sgf(tmp_path):
    out = tmp_path / "out"
    server = start_server(["play", "--engine", "random", "--game", "marbanta", "--size", "3", "--colour", "white",
                           "--out", str(out)])
    try:
        assert server.request("/play/state", cookie=False).status == 403
        assert post(server, "/play/action", {"token": "keep"}, origin="http://evil.example")[0] == 403
        mine = []
        now = wait_turn(server)
        while not now["result"]:
            assert now["you"] == now["to_move"]
            if now["build"]["targets"]:
                clicks: list[str] = []
                step = {"targets": now["build"]["targets"], "token": None, "more": True}
                while step["token"] is None or step["more"] and step["targets"]:
                    status, step = post(server, "/play/click", {"clicks": clicks, "site": step["targets"][0]})
                    assert status == 200 and "refused" not in step, step
                    clicks = step["clicks"]
                token = step["token"]
            else:
                token = now["build"]["words"][0]
            status, answer = post(server, "/play/action", {"token": token})
            assert status == 200, answer
            mine.append(answer["played"])
            now = wait_turn(server)
        status, answer = post(server, "/play/action", {"token": "resign"})
        assert status == 409 and answer["refused"] == "the game is over"
        assert now["analysis"] is None              # random answers genmove_analyze with no info line
        assert first_event(server)["result"] == now["result"]
        started = time.monotonic()
        server.process.wait(timeout=20)             # a page had the final state: the server stops
        assert time.monotonic() - started < GRACE
    finally:
        code, said, err = server.stop()
    assert code == 0 and "Traceback" not in err, err
    [record] = read_journal(out)
    assert f"recorded in {out / str(record.sgf)}" in said
    assert record.first == "random" and record.second == "person" and record.plies == len(now["tokens"])
    assert record.tokens == now["tokens"] and set(mine) <= set(record.tokens)
    assert replay_record((out / record.sgf).read_text(encoding="utf-8")).tokens == record.tokens
    assert list((out / "live").rglob("*.jsonl")) == []      # journaled: no longer in flight for `serve`


def test_the_engines_analysis_is_shown_and_the_server_stops_after_the_game(tmp_path):
    out = tmp_path / "out"
    server = start_server(["play", "--engine", "mcts:100", "--game", "spelde", "--size", "3", "--variant", "nopie",
                           "--colour", "white", "--out", str(out)])
    try:
        now = wait_turn(server)
        analysis = now["analysis"]
        assert analysis["name"] == "mcts-100" and analysis["ply"] == 1, analysis
        row = analysis["row"]                       # the engine holds Black: its winrate is Black's
        assert 0 <= row["w"] <= 1 and row["h"] == "B" and row["pv"][0] == now["tokens"][0] and row["v"] >= 100
        started = time.monotonic()
        assert post(server, "/play/action", {"token": "resign"}) == (200, {"played": "resign"})
        server.process.wait(timeout=GRACE + 20)
        assert time.monotonic() - started >= GRACE - 1      # no page had the final state: the grace period
    finally:
        code, said, err = server.stop()
    assert code == 0 and "Traceback" not in err, err
    [record] = read_journal(out)
    assert record.result == "B+R" and f"recorded in {out / str(record.sgf)}" in said


def test_refusals_change_nothing(tmp_path):
    server = start_server(["play", "--engine", "mcts:2s", "--game", "vaxandis", "--size", "3", "--variant", "nopie",
                           "--out", str(tmp_path / "out")])
    try:
        before = wait_turn(server)
        status, answer = post(server, "/play/action", {"token": "a1-a2"})
        assert status == 409 and "a1" in answer["refused"]
        status, answer = post(server, "/play/action", {"token": "e8-e6"})
        assert status == 409 and answer["refused"].startswith("e8-e6: ")
        status, answer = post(server, "/play/click", {"clicks": [], "site": "zz"})
        assert status == 200 and answer["refused"]
        assert state(server)["tokens"] == before["tokens"] == []
        assert post(server, "/play/action", {"token": "c3"}) == (200, {"played": "c3"})
        status, answer = post(server, "/play/action", {"token": "a1"})        # the engine thinks 2 s
        assert status == 409 and "not your turn" in answer["refused"]
        assert state(server)["tokens"] == ["c3"]
        page = server.request("/")
        assert page.status == 200 and 'href="/play/rules"' in page.body and "The rules of vaxandis" in page.body
        rules = server.request("/play/rules")
        assert rules.status == 200 and rules.body.startswith("# Vaxandis")
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err


def test_every_game_is_offered():
    assert registry.playable() == ["anda", "anda-prison", "spelde", "vaxandis", "marbanta"]


def marker_engine(marker) -> str:
    """An engine command that only leaves `marker` behind when it is started."""
    return shlex.join([sys.executable, "-c", f"open({str(marker)!r}, 'w')"])


def play(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hexarena", "play", *args], capture_output=True, text=True,
                          timeout=120)


def test_a_second_play_into_a_folder_in_use_is_refused_before_its_engine_starts(tmp_path):
    out = tmp_path / "out"
    server = start_server(["play", "--engine", "random", "--game", "spelde", "--size", "3", "--out", str(out)])
    try:
        wait_turn(server)
        marker = tmp_path / "started"
        second = play("--engine", marker_engine(marker), "--out", str(out))
        assert second.returncode == 1 and "in use by another hexarena run" in second.stderr, second.stderr
        assert not marker.exists() and second.stdout == ""
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err


def test_a_game_id_taken_in_the_journal_gets_a_suffix(tmp_path):
    with JournalWriter(tmp_path / "journal.jsonl") as writer:
        writer.append(a_record("spelde-3-pie/play-20260101-120000", "person", "random", "person"))
        writer.append(a_record("spelde-3-pie/play-20260101-120000-2", "person", "random", "person"))
    assert free_id(tmp_path, "spelde-3-pie/play-20260101-120000") == "spelde-3-pie/play-20260101-120000-3"
    assert free_id(tmp_path, "spelde-3-pie/play-20260101-120001") == "spelde-3-pie/play-20260101-120001"


def test_a_port_in_use_is_refused_before_the_engine_starts_or_a_folder_is_made(tmp_path):
    marker = tmp_path / "started"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = play("--engine", marker_engine(marker), "--port", str(port), "--out", str(tmp_path / "new" / "out"))
    assert run.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in run.stderr, run.stderr
    assert not marker.exists() and not (tmp_path / "new").exists()


def test_a_loss_on_time_shows_the_losers_clock_run_out(tmp_path):
    out = tmp_path / "out"
    server = start_server(["play", "--engine", "random", "--game", "spelde", "--size", "3", "--main-time", "1",
                           "--out", str(out)])
    try:
        now = wait_turn(server)
        assert now["your_turn"] and now["you"] == "b"
        now = wait_turn(server, until_over=True)
        assert now["result"] and "(time" in now["result"]["detail"], now["result"]
        assert now["clocks"]["b"] == 0.0 and now["clocks"]["w"] == 1.0 and now["running"] is None
        server.process.wait(timeout=GRACE + 20)
    finally:
        code, _, err = server.stop()
    assert code == 0 and "Traceback" not in err, err
    [record] = read_journal(out)
    assert record.termination == "time" and record.faulty == "person"


def test_name_equals_cmd_names_the_engine():
    assert engine_table("ann=mcts:50") == ("ann", {"player": "mcts:50"})
    assert engine_table("mcts:50") == ("mcts-50", {"player": "mcts:50"})
    assert engine_table(f"mine={sys.executable} /x/engine.py --level 3") == (
        "mine", {"cmd": [sys.executable, "/x/engine.py", "--level", "3"]})
    assert engine_table(f"{sys.executable} -c 'x=1'")[0] == Path(sys.executable).name     # an `=` later on
