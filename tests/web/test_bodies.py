"""Request bodies of the analysis board, bounded: a declared length past the limit is refused
before any of the body is read, a streamed body as soon as it passes the limit, deep nesting
and positions outside the boards are refusals, never a server error (a real server)."""
from __future__ import annotations

import socket

import pytest

from hexarena.engine import registry
from hexarena.results.record.game import GameRecord
from hexarena.results.record.moves import Move
from hexarena.results.record.sgf import sgf_text
from tests.support.web import Server, start_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    record = GameRecord(id="x/0001", game="spelde", size=4, variant="pie", first="a", second="b", black="b",
                        white="a", winner="a", result="W+R", termination="resign", plies=1, reason="",
                        faulty=None, started="2026-01-01T00:00:00Z", seconds=1.0, opening=0,
                        moves=(Move("c3", "B"),))
    path = tmp_path_factory.mktemp("bodies") / "game.sgf"
    path.write_text(sgf_text(record, registry.get("spelde").sgf_number), encoding="utf-8")
    running = start_server(["analyse", str(path)])
    yield running
    code, _, err = running.stop()
    assert code == 130 and "Traceback" not in err, err[-3000:]


def _raw(server: Server, head: str, body: bytes = b"") -> str:
    """The status line of the answer to a request written by hand."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head.encode() + body)
        answer = b""
        while b"\r\n" not in answer:
            answer += sock.recv(200)
        sock.settimeout(5)
        try:                                    # the whole answer, as a browser would read it
            while sock.recv(65536):
                pass
        except (TimeoutError, ConnectionError):
            pass
        return answer.split(b"\r\n", 1)[0].decode()


def _head(server: Server, extra: str) -> str:
    return (f"POST /analyse/position HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Cookie: hexarena-{server.port}={server.token}\r\nOrigin: http://127.0.0.1:{server.port}\r\n"
            f"Content-Type: application/json\r\n{extra}\r\n")


def test_a_declared_length_past_the_limit_is_refused_before_the_body(server):
    assert " 400 " in _raw(server, _head(server, "Content-Length: 300000000\r\n"), b'{"tokens": [')


def test_a_streamed_body_is_refused_once_it_passes_the_limit(server):
    chunk = b"x" * 65536
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(17))     # 1.1 MB, never ended
    assert " 400 " in _raw(server, _head(server, "Transfer-Encoding: chunked\r\n"), body)


def test_deep_nesting_is_a_refusal(server):
    body = b'{"tokens": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    answer = server.request("/analyse/position", "POST", {"Origin": f"http://127.0.0.1:{server.port}",
                                                          "content-type": "application/json"}, body=body)
    assert answer.status == 400 and "nested" in answer.body


@pytest.mark.parametrize("size", ["14", "30", "1", "0", "%C2%B2", "9" * 5000, "+5"])
def test_boards_outside_the_range_are_not_found(server, size):
    assert server.request(f"/board/spelde-{size}.svg").status == 404


@pytest.mark.parametrize("cookie", [True, False])
def test_a_body_left_unread_leaves_no_connection_open(server, cookie):
    """Found by tests/fuzz/test_web_routes.py: a body refused while or before it is read (past the
    limit, or without the token) filled hypercorn's queue for the app, and the answer's last send
    waited forever: the connection stayed open for good after the answer. It closes now."""
    body = b'{"tokens": ["' + b"x" * (3 << 20) + b'"]}'      # more than ten messages left unread
    head = _head(server, f"Content-Length: {len(body)}\r\nConnection: close\r\n")
    if not cookie:
        head = head.replace(f"Cookie: hexarena-{server.port}={server.token}\r\n", "")
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(head.encode() + body)
        answer = b""
        while chunk := sock.recv(65536):          # to the server's close (a TimeoutError: never)
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400 " if cookie else b"HTTP/1.1 403 "), answer[:100]


@pytest.mark.parametrize("body", [b"", b"{}", b'{"clicks": []}'])
def test_a_body_without_tokens_is_a_refusal(server, body):
    """Found by tests/fuzz/test_web_routes.py (HEXARENA_FUZZ=long): an empty body or one without
    `tokens` answered 500 (KeyError)."""
    for route in ("position", "click"):
        answer = server.request(f"/analyse/{route}", "POST", {"Origin": f"http://127.0.0.1:{server.port}",
                                                               "content-type": "application/json"}, body=body)
        assert answer.status == 400 and "tokens" in answer.body, (route, answer)
