"""Fuzz a real `hexarena serve` (a process on 127.0.0.1, one module-wide server of a tournament
folder, its analysis boards asking the built-in `random` engine) with hostile HTTP requests written byte by byte: every route (the folder's page, its event
stream, games, their data, finished games by page, the boards, each game's analysis board and its
POST requests, static files and assets) with odd paths and query strings, nested or huge JSON
bodies, bodies past the 1 MB bound (declared, streamed or chunked), board sizes and variants
outside the range, bad and contradicting headers, with and without the token. The contract: no
answer is a server error (5xx); each request is answered or its connection closed within
:data:`ANSWER_SECONDS` (a bound against a hang, not a speed); the process lives on, logs no
traceback, and answers an honest request after each example. (501 Not Implemented is HTTP's
answer to a transfer coding the server does not speak, `Transfer-Encoding: gzip`: a refusal.)"""
from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.results.record.journal import read_journal

from tests.support.folders import build_folder
from tests.support.fuzz_games import tokens
from tests.support.fuzz_texts import HUGE, OTHER_DIGITS, fragments, numbers
from tests.support.web import Server, start_server

#: Seconds a request may go unanswered (its connection neither answered nor closed): a hang.
ANSWER_SECONDS = 60
#: The bound of a POST body (hexarena/web/analysis_board.py) and a little past it.
PAST_THE_BOUND = (1 << 20) + 100
GAMES = registry.playable()
KEY = "t1"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("served")
    build_folder(tmp / KEY, 5, cap=30)
    ids = tuple(r.id for r in read_journal(tmp / KEY))
    log = open(tmp / "serve.err", "w+b")
    server = start_server(["serve", str(tmp / KEY), "--engine", "random"], stderr=log)
    for _ in range(600):                 # until the watch has read the journal
        if server.request(f"/t/{KEY}/data/{ids[0]}").status == 200:
            break
        time.sleep(0.1)
    yield server, log, ids
    server.stop()
    log.seek(0)
    assert b"Traceback" not in log.read()


#: True about four times in five (Hypothesis draws the first of a sampled tuple more often than the rest).
MOSTLY = st.sampled_from((True, True, True, False))

#: The routes, KEY, ID and BOARD standing for their parts.
ROUTES = ("/", "/t/KEY/", "/t/KEY/events", "/t/KEY/game/ID", "/t/KEY/data/ID", "/t/KEY/finished",
          "/board/BOARD.svg", "/t/KEY/analyse/ID", "/t/KEY/analyse/ID/position", "/t/KEY/analyse/ID/click",
          "/t/KEY/analyse/ID/ask", "/static/site.css", "/static/ID", "/assets/replay.js", "/assets/ID")
ODD = ("..", "../..", "%2e%2e", "%00", "%ff", "%", "%%", "/", "//", "\\", "?", "#", ";", "a" * 5000, "é", "\u202e",
       "t1/../t1", ".", "~", "%2F")
WORDS = (KEY, *GAMES, *ODD, *HUGE[1:], *OTHER_DIGITS, "spelde-4", "-", "0", "-1", "14", "30", "1", "2", "13")


def _part(raw: str, encode: bool) -> str:
    return quote(raw, safe="/%") if encode else raw


@st.composite
def targets(draw, ids: tuple[str, ...]) -> tuple[str, str]:
    """(the route drawn, the request target: its path with parts real or hostile, and a query)."""
    route = draw(st.sampled_from(ROUTES))
    encode = draw(MOSTLY)
    real = draw(MOSTLY)                                  # mostly real parts: the handlers are reached
    parts = {"KEY": KEY if real else draw(st.sampled_from(ODD) | fragments(WORDS, 3)),
             "ID": draw(st.sampled_from(ids) if real else st.sampled_from(ODD) | fragments(WORDS, 3)),
             "BOARD": "-".join(draw(st.tuples(st.sampled_from(GAMES) | fragments(WORDS, 2), numbers | st.sampled_from(
                 ("14", "30", "0", "1", "-1", "2", "13", "04", "4.0", " 4", "+4")))))}
    path = route
    for name, value in parts.items():
        path = path.replace(name, _part(value, encode))
    query = draw(st.lists(st.tuples(st.sampled_from(("before", "game", "token", "x", "before", "")),
                                    numbers | st.sampled_from(ids) | fragments(WORDS, 3)), max_size=3))
    if query:
        path += "?" + "&".join(f"{_part(k, encode)}={_part(v, encode)}" for k, v in query)
    return route, path


JSON_LEAVES = st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.floats() | st.text(max_size=8)


@st.composite
def bodies(draw) -> bytes:
    """A POST body: the analysis board's JSON object with real tokens, clicks and sites or
    hostile values, deep nesting, a body past the bound, bytes that are not JSON."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return b'{"tokens": ' + b"[" * draw(st.integers(1, 200_000)) + b"]"
    if kind == 1:
        return b'{"tokens": ["' + b"x" * PAST_THE_BOUND + b'"]}'
    if kind == 2:
        return draw(st.binary(max_size=40))
    game = draw(st.sampled_from(GAMES))
    token = st.sampled_from(tokens(game)) | fragments(WORDS, 2)
    data: dict = {"tokens": draw(st.lists(token, max_size=12) | st.recursive(JSON_LEAVES, lambda inner: st.lists(
        inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6))}
    if draw(st.booleans()):
        data["clicks"] = draw(st.lists(token, max_size=4) | JSON_LEAVES)
        data["site"] = draw(token | JSON_LEAVES)
    if kind == 3:
        data = draw(st.sampled_from(([data], "tokens", 7, None, {})))
    return json.dumps(data, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")


#: Headers that contradict the body or the framing, or are odd on their own.
HOSTILE_HEADERS = (("Content-Length", "300000000"), ("Content-Length", "-1"), ("Content-Length", "1e3"),
                   ("Content-Length", "\u00b2"), ("Content-Length", "9" * 40), ("Content-Length", "0"),
                   ("Content-Length", "5, 5"), ("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "gzip"),
                   ("Content-Type", "text/plain"), ("Content-Type", "application/json; charset=latin-1"),
                   ("Host", "evil.example"), ("Host", ""), ("Origin", "null"), ("Origin", "http://evil.example"),
                   ("Cookie", "hexarena-0=x; " * 100), ("Authorization", "Bearer " + "x" * 10_000),
                   ("Authorization", "Basic"), ("X-Long", "x" * 70_000), ("X-Bad\x01Name", "1"),
                   ("X-Bytes", "\udcff\udcfe"), ("Range", "bytes=-1"), ("Range", "bytes=0-0,1-1,2-2"),
                   ("If-None-Match", "*"), ("Accept-Encoding", "gzip;q=" + "9" * 100), ("Expect", "100-continue"),
                   ("Connection", "keep-alive, Upgrade"), ("Upgrade", "websocket"))


@st.composite
def requests(draw, ids: tuple[str, ...]) -> dict:
    """One request's parts; the server's Host, cookie and Origin are filled in when it is sent."""
    route, target = draw(targets(ids))
    post = route.endswith(("/position", "/click", "/ask"))
    method = draw(st.sampled_from(("POST",) * 6 + ("GET", "PUT", "HEAD", "OPTIONS", "DELETE", "BREW", "G\x00T"))
                  if post else st.sampled_from(("GET",) * 6 + ("HEAD", "POST", "OPTIONS", "TRACE")))
    return {"route": route, "method": method, "target": target, "body": draw(bodies()) if method != "GET" else b"",
            "token": draw(MOSTLY), "origin": draw(MOSTLY), "chunked": not draw(MOSTLY), "length": draw(MOSTLY),
            "headers": [] if draw(MOSTLY) else draw(st.lists(st.sampled_from(HOSTILE_HEADERS), min_size=1, max_size=3))}


def _wire(server: Server, request: dict) -> bytes:
    """The request's bytes as sent: request line, headers, then the body (chunked or with its length)."""
    host = f"127.0.0.1:{server.port}"
    headers = [("Host", host)]
    if request["token"]:
        headers.append(("Cookie", f"hexarena-{server.port}={server.token}"))
    if request["origin"]:
        headers.append(("Origin", f"http://{host}"))
    body = request["body"]
    if request["chunked"] and body:
        headers.append(("Transfer-Encoding", "chunked"))
        body = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 65536]), body[i:i + 65536])
                        for i in range(0, len(body), 65536)) + b"0\r\n\r\n"
    elif body and request["length"]:
        headers.append(("Content-Length", str(len(body))))
    headers += [*request["headers"], ("Content-Type", "application/json"), ("Connection", "close")]
    head = f"{request['method']} {request['target']} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    return (head + "\r\n").encode("utf-8", "surrogateescape") + body


def _exchange(port: int, data: bytes) -> bytes:
    """Send `data` and end the sending side; the answer (for an event stream, through its headers)."""
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_SECONDS) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:             # refused and closed before the whole request was sent (a broken pipe,
            pass                    # a reset, not connected): what the server said is still read
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                head, blank, _ = answer.partition(b"\r\n\r\n")
                if blank and b"text/event-stream" in head.lower():
                    break
        except ConnectionResetError:
            pass
        except TimeoutError:
            raise AssertionError(f"no answer nor close within {ANSWER_SECONDS} s: {data[:300]!r}") from None
    return answer


_READ: dict[int, int] = {}


def _new_log(log) -> str:
    """What the server wrote to its stderr since the last call."""
    log.seek(_READ.get(id(log), 0))
    text = log.read()
    _READ[id(log)] = log.tell()
    return text.decode("utf-8", "replace")


def _check(served, request: dict) -> str:
    """Send `request` and check the contract; the answer's status ("none": closed without one)."""
    server, log, ids = served
    data = _wire(server, request)
    answer = _exchange(server.port, data)
    while answer.startswith(b"HTTP/1.1 100 "):           # `Expect: 100-continue`: the answer follows
        answer = answer.partition(b"\r\n\r\n")[2]
    status = answer.split(b"\r\n", 1)[0]
    if answer:
        assert status.startswith(b"HTTP/1.1 ") and status[9:12].isdigit(), (status, data[:300])
        assert status[9:12] == b"501" or status[9:10] != b"5", (answer[:600], data[:300])
    assert server.process.poll() is None, data[:300]
    said = _new_log(log)
    assert "Traceback" not in said and "Error" not in said, (said[-3000:], data[:300])
    honest = server.request(f"/t/{KEY}/finished?before=999999")
    assert honest.status == 200 and json.loads(honest.body)["finished"], honest
    assert server.request(f"/t/{KEY}/data/{ids[0]}").status == 200
    return status[9:12].decode() if answer else "none"


def _kept(method: str, target: str, body: bytes = b"", headers: tuple = (), chunked: bool = False) -> dict:
    return {"route": "kept", "method": method, "target": target, "body": body, "token": True, "origin": True, "chunked": chunked,
            "length": not headers, "headers": list(headers)}


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
@example(data=None)
def test_hostile_requests(served, data) -> None:
    if data is None:                     # the kept examples: each once, on every run
        for request in KEPT:
            _check(served, {**request, "target": request["target"].replace("ID", served[2][0])})
        return
    request = data.draw(requests(served[2]), label="request")
    event(f"{request['route']} {_check(served, request)}")         # --hypothesis-show-statistics


#: Requests that once answered 500 or that probe a bound, tried on every run.
KEPT = (
    _kept("GET", "/board/spelde-14.svg"), _kept("GET", "/board/spelde-" + "9" * 5000 + ".svg"),
    _kept("GET", "/board/spelde-\u00b2.svg".encode("utf-8").decode("latin-1")),
    _kept("GET", f"/t/{KEY}/finished?before="), _kept("GET", f"/t/{KEY}/finished?before=" + "9" * 13),
    _kept("GET", f"/t/{KEY}/finished?before=%C2%B2"), _kept("GET", f"/t/{KEY}/finished?before=-1"),
    _kept("POST", f"/t/{KEY}/analyse/ID/position", b'{"tokens": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    _kept("POST", f"/t/{KEY}/analyse/ID/position", b'{"tokens": ["' + b"x" * PAST_THE_BOUND + b'"]}'),
    _kept("POST", f"/t/{KEY}/analyse/ID/click", b'{"tokens": ["' + b"x" * PAST_THE_BOUND + b'"]}',
          chunked=True),
    _kept("POST", f"/t/{KEY}/analyse/ID/position", b'{"tokens": []}', (("Content-Length", "300000000"),)),
    _kept("POST", f"/t/{KEY}/analyse/ID/ask", b'{"tokens": []}'),
    _kept("POST", f"/t/{KEY}/analyse/ID/position"), _kept("POST", f"/t/{KEY}/analyse/ID/click", b"{}"),
)
