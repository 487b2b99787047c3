"""Hostile clients at the edges of a connection: a peer gone in the middle of its opening
handshake or right after its login, text that is not Unicode, words that would forge a log
line; and a second process in the server's folders. Each ends its own connection (or is
refused), never the server, and leaves nothing behind."""
from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import time

import pytest
import trio
from trio_websocket import ConnectionClosed, open_websocket_url

from hexarena.ladder import wire
from tests.support.ladder import HEXARENA, Server, add_account, pool_toml, upgrade, upgraded


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset (SO_LINGER 0), as a killed client or a dropped network does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _frame(text: str) -> bytes:
    """One masked text frame (a client's)."""
    payload, mask = text.encode(), os.urandom(4)
    assert len(payload) < 1 << 16
    head = struct.pack("!BB", 0x81, 0x80 | len(payload)) if len(payload) < 126 else \
        struct.pack("!BBH", 0x81, 0x80 | 126, len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _login(account: str, token: str, **fields) -> str:
    data = {"t": "login", "version": 1, "account": account, "token": token, "pools": [], "games": ["spelde"],
            "name": "x", "engine_version": "1"} | fields
    return json.dumps(data)


async def _refusal(url: str, message: str) -> tuple[str, int]:
    """The reason and close code the server answers `message` with."""
    async with open_websocket_url(url) as ws:
        await ws.send_message(message)
        try:
            with trio.fail_after(10):
                while True:
                    got = json.loads(await ws.get_message())
                    if got["t"] == "refused":
                        reason = got["reason"]
        except ConnectionClosed as exc:
            return reason, exc.reason.code
    raise AssertionError("not closed")


async def _welcomed(url: str, account: str, token: str) -> dict:
    async with open_websocket_url(url) as ws:
        await ws.send_message(_login(account, token))
        with trio.fail_after(10):
            return json.loads(await ws.get_message())


def test_peers_gone_in_their_opening_handshake_end_their_connection_only(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "ok")
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    for _ in range(3):
        _reset(upgrade(server.ws_port, wire.PATH))                    # the 101 unsent or unread
        upgrade(server.ws_port, wire.PATH).close()                    # the unread 101 makes the kernel reset it too
        _reset(upgrade(server.ws_port, "/elsewhere"))      # the 404 unsent
        _reset(upgraded(server.ws_port, wire.PATH))                   # gone right after the handshake
    time.sleep(0.5)
    assert server.proc.poll() is None, server.stderr()
    assert trio.run(_welcomed, server.ws, "ok", token)["t"] == "welcome"
    assert "Traceback" not in server.stderr()


def test_text_that_is_not_unicode_or_would_forge_a_log_line_is_refused(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "ok")
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    lone = '"\\ud800"'                                      # a JSON escape of half a surrogate pair

    async def main() -> None:
        for message in (_login("ok", token).replace('"ok"', lone, 1),              # the account
                        _login("ok", token).replace(json.dumps(token), lone, 1),   # the token
                        _login("ok", token, name="a\ud83d\ude00").replace("\\ud83d\\ude00", "\\ud800")):
            reason, code = await _refusal(server.ws, message)
            assert code == wire.REFUSED and "lone UTF-16 surrogate" in reason
        reason, code = await _refusal(server.ws, _login("ok", token, name="x\nladder: ok logged in"))
        assert code == wire.REFUSED and '"name": expected printable characters' in reason
        for version in (True, 1.0, "1"):
            reason, code = await _refusal(server.ws, _login("ok", token, version=version))
            assert code == wire.REFUSED and "version 1 of the wire" in reason
        reason, code = await _refusal(server.ws, _login("ok", token, version=2))      # a newer bridge
        assert "the bridge 2: connect with a hexarena whose bridge speaks version 1" in reason, reason
        assert (await _welcomed(server.ws, "ok", token))["t"] == "welcome"
    trio.run(main)
    log = server.stderr()
    assert "Traceback" not in log
    assert all(line.startswith("ladder: ") for line in log.splitlines())      # no peer starts a line of its own


def test_an_answer_that_is_not_unicode_is_a_bad_message():
    with pytest.raises(wire.WireError, match="lone UTF-16 surrogate"):
        wire.from_bridge(wire.load('{"t": "answer", "game": "p-000001", "text": "= a1\\udfff\\n\\n"}'), 4096)
    pair = wire.load('{"t": "answer", "game": "p-000001", "text": "= \\ud83d\\ude00\\n\\n"}')     # a whole pair is text
    assert wire.from_bridge(pair, 4096)["text"] == "= \U0001F600\n\n"


@pytest.mark.parametrize("message, error", [
    ({"t": "command", "game": "g", "line": "1 name\x00x", "within": 5}, "cannot send 'name\\x00x'"),
    ({"t": "command", "game": "g", "line": "1 play b #", "within": 5}, "cannot send '#'"),
    ({"t": "game", "game": "g", "resume": ["play b a1", "play w \x07"]}, "cannot send '\\x07'"),
])
def test_the_bridge_drops_a_command_no_engine_could_be_sent(message, error):
    with pytest.raises(wire.WireError, match=error.replace("\\", "\\\\")):
        wire.from_server(message)


def test_a_login_gone_before_its_welcome_leaves_no_connection_behind(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "ok")
    server = Server(tmp_path, pool_toml(extra="[bounds]\nper_account = 1\n"), data)
    procs.append(server)
    for _ in range(2):                  # the token's check (~50 ms) ends after the peer is gone
        sock = upgraded(server.ws_port, wire.PATH)
        sock.sendall(_frame(_login("ok", token)))
        sock.close()
        time.sleep(0.5)
    assert trio.run(_welcomed, server.ws, "ok", token)["t"] == "welcome"     # not "already has 1 connection"
    assert "Traceback" not in server.stderr()


def test_a_second_process_in_the_servers_folders_is_refused(tmp_path, procs):
    data = tmp_path / "data"
    server = Server(tmp_path, pool_toml(anchors=("random", "greedy")), data)      # two players: tournament.json
    procs.append(server)
    (tmp_path / "again").mkdir()
    (tmp_path / "again" / "ladder.toml").write_text(pool_toml())
    second = subprocess.run([*HEXARENA, "ladder", "serve", str(tmp_path / "again" / "ladder.toml"), "--data",
                             str(data)], capture_output=True, text=True, timeout=60)
    assert second.returncode == 1
    assert f"is in use by another hexarena process (pid {server.proc.pid})" in second.stderr
    assert "Traceback" not in second.stderr
    repair = subprocess.run([*HEXARENA, "repair", str(data / "p")], capture_output=True, text=True, timeout=60)
    assert repair.returncode == 1 and f"pid {server.proc.pid}" in repair.stderr
    resume = subprocess.run([*HEXARENA, "tournament", "--resume", "--out", str(data / "p"), "-q"],
                            capture_output=True, text=True, timeout=60)
    assert resume.returncode == 1 and "in use by another hexarena run" in resume.stderr
    assert server.proc.poll() is None
