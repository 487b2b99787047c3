"""The web server as a real process on 127.0.0.1: its address, the token, the Origin check, the
security headers, and Ctrl-C; the guard's Host and Origin checks against a real hypercorn."""
from __future__ import annotations

import signal
import subprocess
import sys
from functools import partial

import pytest
import trio
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from hexarena.web.app import CSP, build_app, new_token
from hexarena.web.server import serve, url

from tests.support.web import start_server


@pytest.fixture
def server(tmp_path):
    """`hexarena serve` of two folders: its `/` is their index."""
    running = start_server(["serve", str(tmp_path / "one"), str(tmp_path / "two")])
    yield running
    running.stop(signal.SIGKILL)


def test_one_folder_served_opens_on_its_page(tmp_path):
    running = start_server(["serve", str(tmp_path / "t1")])
    try:
        answer = running.request("/")
        assert answer.status == 303 and answer.headers["location"] == "/t/t1/"
        page = running.request("/t/t1/")
        assert page.status == 200 and "Games in flight" in page.body
    finally:
        running.stop(signal.SIGKILL)


def test_the_first_line_is_the_address_with_a_fresh_token(tmp_path):
    first, second = start_server(["serve", str(tmp_path)]), start_server(["serve", str(tmp_path)])
    try:
        assert first.token != second.token and first.port != second.port
    finally:
        first.stop(signal.SIGKILL), second.stop(signal.SIGKILL)


def test_a_request_without_the_token_gets_403(server):
    for path in ("/", "/static/site.css", "/assets/replay.js", "/no/such/page"):
        answer = server.request(path, cookie=False)
        assert answer.status == 403, path
        assert "token" in answer.body
    assert server.request("/?token=not-" + server.token, cookie=False).status == 403
    assert server.request("/", cookie=False, headers={"Cookie": f"hexarena-{server.port}=x{server.token}"}).status == 403


def test_the_token_in_the_address_sets_the_cookie_and_leaves_the_address(server):
    answer = server.request(f"/?token={server.token}", cookie=False)
    assert answer.status == 303 and answer.headers["location"] == "/"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"hexarena-{server.port}={server.token};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert server.request("/", cookie=False, headers={"Authorization": f"Bearer {server.token}"}).status == 200


def test_every_answer_carries_the_content_security_policy(server):
    for path, status in (("/", 200), ("/static/site.css", 200), ("/assets/board.css", 200), ("/nothing", 404)):
        answer = server.request(path)
        assert answer.status == status, path
        assert answer.headers["content-security-policy"] == CSP
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP and "connect-src 'self'" in CSP


def test_a_foreign_host_gets_403(server):
    """DNS rebinding: a page of evil.example resolving to 127.0.0.1 sends its own Host."""
    assert server.request("/", headers={"Host": f"evil.example:{server.port}"}).status == 403
    assert server.request("/", headers={"Host": f"localhost:{server.port}"}).status == 200


def test_ctrl_c_stops_the_server_with_exit_130_and_no_traceback(server):
    assert server.request("/").status == 200
    code, out, err = server.stop(signal.SIGINT)
    assert code == 130
    assert "Traceback" not in err and "Traceback" not in out
    assert out.strip() == ""                   # nothing after the address (read by start_server)


def test_sigterm_stops_it_likewise(server):
    code, _, err = server.stop(signal.SIGTERM)
    assert code == 130 and "Traceback" not in err


def test_a_port_in_use_is_a_clear_error(server, tmp_path):
    run = subprocess.run([sys.executable, "-m", "hexarena", "serve", str(tmp_path), "--port", str(server.port)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert f"cannot listen on 127.0.0.1:{server.port}" in run.stderr and "Traceback" not in run.stderr


def test_a_host_beyond_the_loopback_is_warned_about(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "hexarena", "serve", str(tmp_path), "--host", "0.0.0.0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("http://0.0.0.0:")
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert "warning: listening on 0.0.0.0, beyond this machine's loopback" in err


# -- the guard in-process: a real hypercorn on 127.0.0.1 with a state-changing route ------------

def exchange(port: int, method: str, path: str, headers: dict[str, str]) -> int:
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, headers={"Host": f"127.0.0.1:{port}", **headers})
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_state_changing_request_needs_the_servers_own_origin():
    token = new_token()
    pokes: list[str] = []

    async def poke(request: Request) -> PlainTextResponse:
        pokes.append(request.method)
        return PlainTextResponse("poked")

    app = build_app([Route("/poke", poke, methods=["GET", "POST"])], token)
    statuses: dict[str, int] = {}

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, app, "127.0.0.1", 0)
            assert url("127.0.0.1", port, token) == f"http://127.0.0.1:{port}/?token={token}"
            cookie = {"Cookie": f"hexarena-{port}={token}"}
            ask = partial(trio.to_thread.run_sync, exchange, port)
            statuses["other origin"] = await ask("POST", "/poke", {**cookie, "Origin": "http://evil.example"})
            statuses["other port"] = await ask("POST", "/poke", {**cookie, "Origin": f"http://127.0.0.1:{port + 1}"})
            statuses["no origin"] = await ask("POST", "/poke", cookie)
            statuses["no token"] = await ask("POST", "/poke", {"Origin": f"http://127.0.0.1:{port}"})
            statuses["own origin"] = await ask("POST", "/poke", {**cookie, "Origin": f"http://127.0.0.1:{port}"})
            statuses["get"] = await ask("GET", "/poke", cookie)
            nursery.cancel_scope.cancel()

    trio.run(main)
    assert statuses == {"other origin": 403, "other port": 403, "no origin": 403, "no token": 403,
                        "own origin": 200, "get": 200}
    assert pokes == ["POST", "GET"]


def test_a_client_that_ends_its_side_under_the_answer_gets_no_traceback(tmp_path):
    """Found by tests/fuzz/test_web_routes.py: a request whose body ends short of its declared
    length (the client shuts its side) makes hypercorn close the connection while an answer is
    being written, which ended the whole server (nothing listened any more) after a few such
    requests. Each answer is dropped; the server still answers, logs no error, stops with 130."""
    import socket
    from contextlib import suppress
    log = open(tmp_path / "serve.err", "w+b")
    running = start_server(["serve", str(tmp_path / "t1")], stderr=log)
    try:
        for _ in range(200):
            with socket.create_connection(("127.0.0.1", running.port), timeout=60) as sock:
                sock.sendall(f"GET /t/t1/ HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\nCookie: hexarena-"
                             f"{running.port}={running.token}\r\nContent-Length: 300000000\r\n\r\n".encode())
                sock.shutdown(socket.SHUT_WR)
                with suppress(ConnectionResetError):
                    while sock.recv(65536):
                        pass
        assert running.request("/t/t1/").status == 200
    finally:
        code, _, _ = running.stop()
    log.seek(0)
    said = log.read().decode("utf-8", "replace")
    assert code == 130 and "Traceback" not in said, said[-3000:]


def test_a_websocket_opening_needs_the_token_and_the_servers_own_origin():
    """No route of the pages takes a WebSocket; one added later gets the guard's checks all the
    same (a browser opens any site's WebSocket to any address with the cookie): the token and
    the server's own Origin, else the opening is refused with 403 before the route sees it."""
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket
    from trio_websocket import ConnectionRejected, open_websocket

    token = new_token()
    opened: list[str] = []

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        opened.append(await ws.receive_text())
        await ws.send_text("echo")
        await ws.close()

    app = build_app([WebSocketRoute("/ws", echo)], token)
    outcomes: dict[str, object] = {}

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, app, "127.0.0.1", 0)
            own, cookie = f"http://127.0.0.1:{port}", (b"cookie", f"hexarena-{port}={token}".encode())
            tries = {"no token": [(b"origin", own.encode())],
                     "wrong token": [(b"origin", own.encode()), (b"cookie", f"hexarena-{port}=x{token}".encode())],
                     "other origin": [cookie, (b"origin", b"http://evil.example")],
                     "no origin": [cookie],
                     "own origin": [cookie, (b"origin", own.encode())]}
            for name, headers in tries.items():
                try:
                    with trio.fail_after(30):
                        async with open_websocket("127.0.0.1", port, "/ws", use_ssl=False,
                                                  extra_headers=headers) as ws:
                            await ws.send_message(name)
                            outcomes[name] = await ws.get_message()
                except ConnectionRejected as exc:
                    outcomes[name] = exc.status_code
            nursery.cancel_scope.cancel()

    trio.run(main)
    assert outcomes == {"no token": 403, "wrong token": 403, "other origin": 403, "no origin": 403,
                        "own origin": "echo"}
    assert opened == ["own origin"]
