"""Fuzz a real ladder server (`hexarena ladder serve` on 127.0.0.1) with hostile bridges: each
example opens a connection, sends a few generated messages (the first often a real login) and
reads until the server closes it or goes quiet. The contract: every close is a refusal with its
code (4001 at the login, 4008 a bound, 1009 too large) after a `refused` message saying why, the
process lives on and logs no traceback, and an honest login is still welcomed afterwards."""
from __future__ import annotations

import json

import pytest
import trio
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from trio_websocket import ConnectionClosed, open_websocket_url

from tests.support.fuzz_shared import messages
from tests.support.ladder import Server, add_account, pool_toml

BOUNDS = ("[bounds]\nmessage_bytes = 65536\nmessages_per_second = 1000\nburst = 1000\nper_account = 100\n"
          "connections = 100\nlogin_seconds = 1\n")
#: Each example costs two connections, two token checks (~50 ms of scrypt each) and a quiet wait:
#: a tenth of the other targets' count.
SERVER_EXAMPLES = max(5, settings().max_examples // 10)
QUIET = 0.5           # seconds without a word from the server after which a connection is left open


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ladder")
    token = add_account(tmp / "data", "fuzz")
    server = Server(tmp, pool_toml(extra=BOUNDS, anchors=()), tmp / "data")
    yield server, token
    server.stop()
    assert "Traceback" not in server.stderr(), server.stderr()[-3000:]


def _login(token: str) -> str:
    return json.dumps({"t": "login", "version": 1, "account": "fuzz", "token": token, "pools": [],
                       "games": ["spelde"], "name": "fuzz", "engine_version": "1"})


async def _exchange(url: str, sent: list[str]) -> tuple[list[str], int | None]:
    """Send `sent`, then read until the server closes (its messages, the close code) or is quiet."""
    got: list[str] = []
    async with open_websocket_url(url) as ws:
        try:                                 # a refusal may close the connection while the rest is sent:
            for m in sent:                   # what the server said before is still read below
                await ws.send_message(m)
        except ConnectionClosed:
            pass
        try:
            while True:
                with trio.move_on_after(QUIET) as quiet:
                    got.append(await ws.get_message())
                if quiet.cancelled_caught:
                    return got, None
        except ConnectionClosed as exc:
            return got, exc.reason.code


@settings(max_examples=SERVER_EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(logged_in=st.booleans(), hostile=st.lists(messages(), min_size=1, max_size=4))
@example(logged_in=True, hostile=["[" * 60_000])                 # deeper than json's recursion: refused, 4008
@example(logged_in=False, hostile=["{" * 30_000])
@example(logged_in=False, hostile=['{"account": null}', "{}", '{"t": null}'])   # refused while the rest is sent
def test_hostile_bridges(ladder, logged_in: bool, hostile: list[str]) -> None:
    server, token = ladder
    sent = ([_login(token)] if logged_in else []) + hostile
    got, code = trio.run(_exchange, server.ws, sent)
    assert server.proc.poll() is None, server.stderr()[-3000:]
    assert code in (None, 1009, 4001, 4008), (code, got)
    if code in (4001, 4008):
        last = json.loads(got[-1])
        assert last["t"] == "refused" and last["reason"], got
    assert json.loads(trio.run(_welcome, server.ws, token))["t"] == "welcome"


async def _welcome(url: str, token: str) -> str:
    """The server's answer to an honest login (however long the loaded machine takes)."""
    async with open_websocket_url(url) as ws:
        await ws.send_message(_login(token))
        with trio.fail_after(60):
            return await ws.get_message()
