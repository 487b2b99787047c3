"""Hostile sockets below the messages: openings never finished, from one address and from many;
floods of frames that are no message (empty fragments, pings); frames the WebSocket layer closes
a connection for. Each is bounded from the accept on, closed with a code and a reason the log
says, and honest bridges play on beside them."""
from __future__ import annotations

import json
import os
import socket
import struct
import time

import trio
from trio_websocket import ConnectionClosed, open_websocket_url

from hexarena.ladder import wire
from tests.support.ladder import Bridge, Server, add_account, journal, pool_toml, until, upgraded


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _half_opening(port: int, source: str) -> socket.socket | None:
    """A socket that began an opening handshake and never ends it (None: refused at the connect)."""
    try:
        sock = _connect(port, source)
        sock.sendall(b"GET /ladder/ws HTTP/1.1\r\nHost: x\r\n")
    except OSError:
        return None
    return sock


def _closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closed `sock` within `within` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(4096) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def _frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    """One masked frame (a client's)."""
    mask = os.urandom(4)
    assert len(payload) < 126
    return (struct.pack("!BB", (0x80 if fin else 0) | opcode, 0x80 | len(payload)) + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def _close_code(sock: socket.socket, within: float = 5.0) -> int | None:
    """The code of the close frame the server sends (None: the socket closed without one)."""
    sock.settimeout(within)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        raise AssertionError(f"not closed within {within:g} s") from None
    except OSError:
        pass
    at = 0
    while at + 2 <= len(data):                  # the server's frames: unmasked
        opcode, size = data[at] & 0x0F, data[at + 1] & 0x7F
        head = 2
        if size == 126:
            size, head = struct.unpack("!H", data[at + 2:at + 4])[0], 4
        if opcode == 0x8:
            return struct.unpack("!H", data[at + head:at + head + 2])[0] if size >= 2 else None
        at += head + size
    return None


def _flood(sock: socket.socket, frames: list[bytes], times: int = 4) -> None:
    """Send `frames` `times` over (ten times the budget of the server's config below), stopping
    when the server closes the socket (then it does not read them: the test reads its close frame)."""
    try:
        for _ in range(times):
            sock.sendall(b"".join(frames))
    except OSError:
        pass


def _login(account: str, token: str) -> bytes:
    return json.dumps({"t": "login", "version": 1, "account": account, "token": token, "pools": [],
                       "games": ["spelde"], "name": "x", "engine_version": "1"}).encode()


def _logged_in(port: int, account: str, token: str) -> socket.socket:
    sock = upgraded(port, wire.PATH)
    message = _login(account, token)
    mask = os.urandom(4)
    sock.sendall(struct.pack("!BBH", 0x81, 0x80 | 126, len(message)) + mask
                 + bytes(b ^ mask[i % 4] for i, b in enumerate(message)))
    sock.settimeout(10)
    assert b"welcome" in sock.recv(4096)
    return sock


def test_openings_never_finished_are_bounded_from_the_accept_and_games_go_on(tmp_path, procs):
    """With 256 files (the server fits its bound of connections under them and says so), one
    address opens 60 handshakes it never finishes, then 80 addresses 4 each, over and over: the
    server holds 8 of one address and its bound in all, closes the rest at once, says so in a
    line every 10 s (no traceback, no EMFILE), and an honest bridge's games go on unharmed."""
    data = tmp_path / "data"
    token = add_account(data, "ok")
    server = Server(tmp_path, pool_toml(), data, files=256)
    procs.append(server)
    assert "RLIMIT_NOFILE" in server.stderr() and "at most 21 connections at once, not 200" in server.stderr()
    bridge = Bridge(tmp_path, server.ws, "ok", token, ["random"])
    procs.append(bridge)
    until(lambda: len(journal(data / "p")) >= 2, "two games of the honest bridge")

    one = [_half_opening(server.ws_port, "127.0.0.2") for _ in range(60)]
    held = [s for s in one if s is not None and not _closed(s, 0.05)]
    assert len(held) == 8, len(held)                # bounds.per_address
    before = len(journal(data / "p"))
    sockets: list[socket.socket] = []
    end = time.monotonic() + 8
    while time.monotonic() < end:                   # again and again, as sockets are closed
        for k in range(80):
            sock = _half_opening(server.ws_port, f"127.0.1.{k + 1}")
            if sock is not None:
                sockets.append(sock)
        time.sleep(0.5)
        alive = [s for s in sockets if not _closed(s, 0.001)]
        for s in set(sockets) - set(alive):
            s.close()
        sockets = alive
        assert len(alive) <= 21 + 16, len(alive)        # connections (fitted) + SPARE, the bridge and the held ones among them
        page = time.monotonic()
        server.get("/")
        assert time.monotonic() - page < 2
    for s in sockets + held:
        s.close()
    until(lambda: len(journal(data / "p")) >= before + 3, "the honest bridge's games during the flood")
    records = journal(data / "p")
    assert not [r for r in records if r["void_cause"] or r["faulty"]], records
    log = server.stderr()
    assert "Traceback" not in log and "EMFILE" not in log and "failed to play" not in log, log[-3000:]
    lines = [line for line in log.splitlines() if "closed at the accept" in line]
    assert 1 <= len(lines) <= 3 and "bounds.per_address" in log, lines
    assert "lost" not in bridge.output(), bridge.output()          # the honest bridge was never cut off


def test_frames_that_are_no_message_are_bounded_per_address_and_per_account(tmp_path, procs):
    """Endless empty fragments of a message never finished, or pings, before or after the login:
    the connection is closed with 1008 saying why; the next connection of the same address (or
    account) starts with the budget the last one left, so reconnecting does not help."""
    data = tmp_path / "data"
    token = add_account(data, "eve")
    server = Server(tmp_path, pool_toml(extra="[bounds]\nmessages_per_second = 1\nburst = 20\n"), data)
    procs.append(server)
    fragments = [_frame(0x1, b"", fin=False)] + [_frame(0x0, b"", fin=False)] * 50
    for source, frames in (("127.0.0.2", fragments), ("127.0.0.3", [_frame(0x9, b"x")] * 50)):
        sock = upgraded(server.ws_port, wire.PATH, source)
        _flood(sock, frames)
        assert _close_code(sock) == 1008
        again = upgraded(server.ws_port, wire.PATH, source)           # at once: the budget is still spent
        again.sendall(frames[0])              # one: a close with no unread data behind it
        assert _close_code(again) == 1008
    sock = _logged_in(server.ws_port, "eve", token)
    _flood(sock, fragments)
    assert _close_code(sock) == 1008
    again = _logged_in(server.ws_port, "eve", token)       # the account's budget, whatever the address
    again.sendall(fragments[0])
    assert _close_code(again) == 1008
    log = server.stderr()
    assert "closed a connection from 127.0.0.2:" in log and "closed 'eve' from 127.0.0.1:" in log
    assert "more than 1 frames a second that are not a whole message (fragments, pings, pongs) (closed with 1008)" in log
    assert "Traceback" not in log


def test_the_websocket_layers_closes_say_why_and_send_a_close_frame(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "eve")
    server = Server(tmp_path, pool_toml(extra="[bounds]\nmessage_bytes = 4096\n"), data)
    procs.append(server)
    sock = _logged_in(server.ws_port, "eve", token)
    sock.sendall(_frame(0x1, b'{"t": "ping", "x": "\xff\xfe"}'))       # not UTF-8
    assert _close_code(sock) == 1007

    async def huge() -> int | None:
        async with open_websocket_url(server.ws) as ws:
            await ws.send_message(_login("eve", token).decode())
            await ws.get_message()
            await ws.send_message("x" * 10_000)
            try:
                with trio.fail_after(5):
                    await ws.get_message()
            except ConnectionClosed as exc:
                return exc.reason.code
        return None
    assert trio.run(huge) == 1009
    log = until(lambda: server.stderr().count("closed 'eve' from") >= 2 and server.stderr(), "two closes logged")
    assert "(closed with 1007)" in log and "a message over 4096 bytes (closed with 1009)" in log, log
    assert "Traceback" not in log
