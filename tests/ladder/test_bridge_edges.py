"""The bridge at the edges: a server full for now (it tries again, and plays), a record it cannot
save (said on the game's line, the bridge goes on), the server's answer to a ping, and what of a
server's message it refuses to act on."""
from __future__ import annotations

import json

import trio
from trio_websocket import open_websocket_url

from hexarena.ladder import wire
from tests.support.ladder import Bridge, Server, add_account, journal, pool_toml, until


def test_a_server_full_for_now_is_tried_again(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "patient")
    server = Server(tmp_path, pool_toml(extra="[bounds]\nconnections = 1\nlogin_seconds = 2\n"), data)
    procs.append(server)

    async def hold_the_only_slot() -> None:
        async with open_websocket_url(server.ws):                 # no login: refused after 2 s
            bridge = Bridge(tmp_path, server.ws, "patient", token, ["random"], "--games", "1")
            procs.append(bridge)
            await trio.to_thread.run_sync(until, lambda: "try later" in bridge.output(), "the bridge to be refused")
            await trio.sleep(3)
        return bridge
    bridge = trio.run(hold_the_only_slot)
    assert bridge.wait() == 0, bridge.output()
    out = bridge.output()
    assert "lost (the server holds its most connections (1); try later); again in" in out
    assert "connected as patient" in out and len(journal(data / "p")) == 1


def test_a_record_the_bridge_cannot_save_is_said_on_its_line(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "full")
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    (tmp_path / "bridge-full").mkdir()
    (tmp_path / "bridge-full" / "games").write_text("a file where the games' folder would be")
    bridge = Bridge(tmp_path, server.ws, "full", token, ["random"], "--games", "2")
    procs.append(bridge)
    assert bridge.wait() == 0, bridge.output()
    lines = [line for line in bridge.output().splitlines() if line.startswith("p-")]
    assert len(lines) == 2 and all("(its record not saved: " in line for line in lines), bridge.output()
    assert "lost" not in bridge.output()                # not taken for a lost connection


def test_the_server_answers_a_ping(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "pinger")
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)

    async def main() -> None:
        async with open_websocket_url(server.ws) as ws:
            await ws.send_message(json.dumps({"t": "login", "version": 1, "account": "pinger", "token": token,
                                              "pools": [], "games": ["spelde"], "name": "x", "engine_version": "1"}))
            with trio.fail_after(10):
                assert json.loads(await ws.get_message())["t"] == "welcome"
                await ws.send_message(wire.dump("ping"))
                while (got := json.loads(await ws.get_message()))["t"] != "pong":
                    assert got["t"] in ("game", "command", "end"), got
    trio.run(main)


def test_what_the_bridge_reads_of_a_refusal_and_a_game_id():
    assert wire.from_server({"t": "refused", "reason": "full", "retry": True})["retry"] is True
    assert wire.from_server({"t": "refused", "reason": "no", "retry": "yes"})["retry"] is False
    assert wire.from_server({"t": "refused", "reason": "no"})["retry"] is False
    assert wire.safe_id("p-000001") and not wire.safe_id("\u00e9" * 100) and not wire.safe_id("..x")


def test_an_address_that_is_no_ladders_stops_the_bridge_with_the_servers_words(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "lost")
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    wrong = server.ws.replace("/ladder/ws", "/wrong")
    bridge = Bridge(tmp_path, wrong, "lost", token, ["random"], "--games", "1")
    procs.append(bridge)
    assert bridge.wait(30) == 2, bridge.output()
    out = bridge.output()
    assert f"error: {wrong} is no ladder's address for bridges (HTTP 404" in out, out
    assert "/ladder/ws" in out and "again in" not in out
