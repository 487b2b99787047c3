"""Hostile clients of the bridges' endpoint: each bound refuses clearly, and the server goes on
(an honest bridge still plays afterwards, no traceback)."""
from __future__ import annotations

import json

import pytest
import trio
from trio_websocket import ConnectionClosed, open_websocket_url

from tests.support.flood import flood_argv
from tests.support.ladder import Bridge, Server, add_account, journal, pool_toml, until

BOUNDS = ("[bounds]\nmessage_bytes = 4096\nmessages_per_second = 20\nburst = 10\nper_account = 1\n"
          "connections = 3\nlogin_seconds = 1\n")


async def _exchange(url: str, messages: list[str], wait: float = 5.0) -> tuple[list[dict], int | None]:
    """Send `messages`, then read until the server closes: (JSON messages received, close code)."""
    got: list[dict] = []
    async with open_websocket_url(url) as ws:
        try:
            for m in messages:
                await ws.send_message(m)
            with trio.fail_after(wait):
                while True:
                    got.append(json.loads(await ws.get_message()))
        except ConnectionClosed as exc:
            return got, exc.reason.code
    return got, None


def _login(account: str, token: str, pools: tuple[str, ...] | list[str] = (),
           games: tuple[str, ...] | list[str] = ("spelde",)) -> str:
    return json.dumps({"t": "login", "version": 1, "account": account, "token": token, "pools": list(pools),
                       "games": list(games), "name": "x", "engine_version": "1"})


def test_hostile_clients_are_refused_and_the_server_goes_on(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "mal")
    honest = add_account(data, "ok")
    server = Server(tmp_path, pool_toml(extra=BOUNDS), data)
    procs.append(server)
    url = server.ws

    async def main() -> None:
        got, code = await _exchange(url, ["GET / HTTP/1.0 garbage"])
        assert code == 4001 and "the first message must be a login" in got[-1]["reason"]
        got, code = await _exchange(url, [])                                 # silent: the login time runs out
        assert code == 4001 and "no login within 1 s" in got[-1]["reason"]
        got, code = await _exchange(url, ["x" * 10_000])                     # over message_bytes
        assert code == 1009
        got, code = await _exchange(url, [_login("mal", token)] + [json.dumps({"t": "ping"})] * 40)
        assert code == 4008 and "more than 20 messages a second" in got[-1]["reason"]
        got, code = await _exchange(url, [_login("mal", token), json.dumps({"t": "rm -rf"})])
        assert code == 4008 and "unknown message" in got[-1]["reason"]
        # one connection an account; three in all
        async with open_websocket_url(url) as first:
            await first.send_message(_login("mal", token))
            assert json.loads(await first.get_message())["t"] == "welcome"
            got, code = await _exchange(url, [_login("mal", token)])
            assert code == 4001 and "already has 1 connection" in got[-1]["reason"]
            async with open_websocket_url(url) as a, open_websocket_url(url) as b:
                got, code = await _exchange(url, [])
                assert code == 4008 and "its most connections (3)" in got[-1]["reason"]
                del a, b
    trio.run(main)
    bridge = Bridge(tmp_path, server.ws, "ok", honest, ["random"], "--games", "1")
    procs.append(bridge)
    assert bridge.wait() == 0, bridge.output()
    assert [r for r in journal(data / "p") if "ok" in (r["first"], r["second"])]
    log = server.stderr()
    assert "Traceback" not in log and "from 127.0.0.1:" in log


@pytest.mark.slow
def test_a_flood_beside_honest_games_costs_them_no_time(tmp_path, procs):
    """While a logged-in client floods the endpoint (and logs in again each time it is cut off),
    two honest bridges play on a fast clock: none of their games is lost on time or by a fault."""
    data = tmp_path / "data"
    mal = add_account(data, "mal")
    honest = {n: add_account(data, n) for n in ("h1", "h2")}
    elsewhere = '[[pools]]\nname = "q"\ngame = "vaxandis"\nsize = 4\n[pools.time]\nmove = 1\n'
    server = Server(tmp_path, pool_toml(move=0.3, anchors=(), extra=elsewhere), data)  # the flooder plays in q, alone
    procs.append(server)
    bridges = [Bridge(tmp_path, server.ws, n, t, ["random"], "--games", "4", "--pools", "p")
               for n, t in honest.items()]
    procs.extend(bridges)
    junk = json.dumps({"t": "ping", "pad": "x" * 3000})

    async def flood() -> int:
        cut = 0
        while any(b.proc.poll() is None for b in bridges):
            try:
                async with open_websocket_url(server.ws) as ws:
                    await ws.send_message(_login("mal", mal, ["q"], ["vaxandis"]))
                    while True:
                        await ws.send_message(junk)
            except ConnectionClosed:
                cut += 1
        return cut
    cut = trio.run(flood)
    assert cut >= 1
    for b in bridges:
        assert b.wait() == 0, b.output()
    games = [r for r in journal(data / "p") if r["termination"] != "void"]
    assert len(games) >= 4 and all(r["faulty"] is None for r in games), games
    assert "Traceback" not in server.stderr()


def test_an_engine_flooding_analysis_beside_honest_games_costs_them_no_time(tmp_path, procs):
    """One account's engine answers every `genmove_analyze` with 8 info lines of maximal legal pvs
    on a Vaxandis board of side 13 (the costliest for the referee to check), in one pool, while two
    honest bridges play in another pool of the same server on a fast clock with almost no network
    allowance: the server reads the flood off its event loop (docs/tournament.md, "Clocks"), so no
    honest game is lost on time or by any fault."""
    data = tmp_path / "data"
    mal = add_account(data, "mal")
    honest = {n: add_account(data, n) for n in ("h1", "h2")}
    flooded = ('[[pools]]\nname = "q"\ngame = "vaxandis"\nsize = 13\nanchors = ["random"]\n'
               '[pools.time]\nmove = 5\n')
    server = Server(tmp_path, pool_toml(move=0.3, anchors=(), network=0.05, extra=flooded), data)
    procs.append(server)
    signal = tmp_path / "flooded"
    signal.write_bytes(b"")
    flooder = Bridge(tmp_path, server.ws, "mal", mal, flood_argv(signal), "--pools", "q")
    procs.append(flooder)
    until(lambda: signal.stat().st_size > 0, "the flooding engine's first answer")
    bridges = [Bridge(tmp_path, server.ws, n, t, ["random"], "--games", "4", "--pools", "p")
               for n, t in honest.items()]
    procs.extend(bridges)
    for b in bridges:
        assert b.wait() == 0, b.output()
    floods = signal.stat().st_size
    assert floods >= 2, "the flooding engine answered too few times to test anything"
    games = [r for r in journal(data / "p") if r["termination"] != "void"]
    assert len(games) >= 4 and all(r["faulty"] is None for r in games), games
    assert "Traceback" not in server.stderr()


def _served(server: Server) -> bool:
    """Whether the pages answer (not 429: their rate bound)."""
    import urllib.error
    try:
        return server.standings()["pool"] == "p"
    except urllib.error.HTTPError:
        return False


def test_a_flood_of_page_requests_meets_the_pages_rate_bound(tmp_path, procs):
    """The pages share the loop that reads the engines' answers: past `pages_per_second` (over a
    burst of `pages_burst`) each request is answered 429 at once, and the pages serve again after."""
    import urllib.error
    import urllib.request
    data = tmp_path / "data"
    server = Server(tmp_path, pool_toml(extra="[bounds]\npages_per_second = 2\npages_burst = 5\n"), data)
    procs.append(server)
    codes, retry = [], set()
    for _ in range(20):
        try:
            with urllib.request.urlopen(server.url + "pool/p", timeout=30) as answer:
                codes.append(answer.status)
        except urllib.error.HTTPError as exc:
            codes.append(exc.code)
            retry.add(exc.headers.get("retry-after"))
    assert codes[:5] == [200] * 5 and codes.count(429) >= 12, codes
    assert retry == {"1"}
    until(lambda: _served(server), "a page after the flood", timeout=10, every=0.6)
    assert "Traceback" not in server.stderr()


def test_clients_ending_their_side_under_an_answer_leave_the_pages_served(tmp_path, procs):
    """The pages' server (hypercorn) closes a connection whose client ended its side while an
    answer is being written; that ended the whole server after a few such requests (found by
    tests/fuzz/test_web_routes.py against `hexarena serve`, which runs the same server)."""
    import socket
    from contextlib import suppress
    server = Server(tmp_path, pool_toml(), tmp_path / "data")
    procs.append(server)
    for _ in range(200):
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
            sock.sendall(f"GET /pool/p HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Length: 300000000\r\n\r\n"
                         .encode())
            sock.shutdown(socket.SHUT_WR)
            with suppress(ConnectionResetError):
                while sock.recv(65536):
                    pass
    until(lambda: _served(server), "a page after the requests (past the pages' rate bound: 429 a while)",
          timeout=10, every=0.6)
    assert server.proc.poll() is None
    assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
