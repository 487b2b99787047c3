"""The analysis board's engine: restarted after a crash, and the questions waiting for it
bounded (a real server and a real engine process)."""
from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hexarena.web.adviser import WAITING
from tests.support.web import Server, start_server

pytestmark = pytest.mark.slow
POSITION = "spelde 3 w .../..../..b../..../... variant=nopie ply=1"


def _ask(server: Server) -> tuple[int, dict]:
    answer = server.request("/analyse/ask", "POST", {"Origin": f"http://127.0.0.1:{server.port}",
                                                     "content-type": "application/json"}, body=b'{"tokens": []}')
    return answer.status, json.loads(answer.body)


def _server(tmp_path: Path, pause: float) -> Server:
    engine = f"{sys.executable} {Path(__file__).with_name('flaky_engine.py')} {tmp_path / 'crashed'} {pause}"
    return start_server(["analyse", POSITION, "--engine", engine])


def test_a_crashed_engine_is_started_again(tmp_path):
    server = _server(tmp_path, 0.0)
    try:
        status, answer = _ask(server)
        assert status == 502 and "exit" in answer["refused"].lower(), answer
        for _ in range(30):                          # the restart takes a start-up
            status, answer = _ask(server)
            if status == 200:
                break
            time.sleep(0.5)
        assert status == 200 and answer["action"], answer
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err


def test_questions_past_the_bound_are_refused_as_busy(tmp_path):
    (tmp_path / "crashed").touch()                   # no crash: each answer takes 2 s
    server = _server(tmp_path, 2.0)
    try:
        with ThreadPoolExecutor(WAITING + 4) as pool:
            answers = list(pool.map(lambda _: _ask(server), range(WAITING + 4)))
        busy = [a for s, a in answers if s == 503 and "busy" in a.get("refused", "")]
        assert busy and sum(s == 200 for s, _ in answers) >= WAITING, answers
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err
