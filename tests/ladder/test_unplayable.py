"""A bridge whose engine cannot play a pool costs its opponents one void game, not one a round:
an engine that refuses the pool's board size is not paired in the pool again while it runs the
same engine (and its connection, left with no pool, is closed with the reason); a bridge that
does not relay its engine's start is closed. Real server and bridges over 127.0.0.1."""
from __future__ import annotations

import sys
import time

from tests.support.ladder import FAKE, Bridge, Server, add_account, journal, pool_toml

START = "start = 2\n"


def _voids_by(folder, account: str) -> list[dict]:
    return [r for r in journal(folder) if r.get("void_cause") and r.get("faulty") == account]


def test_an_engine_refusing_the_board_size_is_dropped_from_the_pool(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "picky")
    server = Server(tmp_path, pool_toml(interval=0.2), data)
    procs.append(server)
    engine = [sys.executable, FAKE, "0", "nosize"]
    bridge = Bridge(tmp_path, server.ws, "picky", token, engine)
    procs.append(bridge)
    assert bridge.wait() == 2
    out = bridge.output()
    assert "refused by the server: the engine cannot play pool 'p'" in out and "unacceptable size" in out, out
    assert "Traceback" not in out
    voids = _voids_by(data / "p", "picky")
    assert len(voids) == 1 and voids[0]["void_cause"] == "unsupported", voids
    # The same engine again, by the game it lists and by the pool's name: refused at login, no game.
    for extra in ((), ("--pools", "p")):
        again = Bridge(tmp_path, server.ws, "picky", token, engine, *extra, tag=f"-again{len(extra)}")
        procs.append(again)
        assert again.wait() == 2
        assert "pool 'p': this engine could not play it (" in again.output(), again.output()
    time.sleep(1.0)                                         # rounds of 0.2 s: none pairs it
    assert len(_voids_by(data / "p", "picky")) == 1
    assert "Traceback" not in server.stderr()
    assert "picky: not paired in p again with fake-nosize" in server.stderr()


def test_a_bridge_that_does_not_relay_its_engines_start_is_closed(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "mute")
    config = pool_toml(interval=0.2).replace("[pools.time]\n", "[pools.time]\n" + START)
    server = Server(tmp_path, config, data)
    procs.append(server)
    bridge = Bridge(tmp_path, server.ws, "mute", token, [sys.executable, FAKE, "0", "mute"])
    procs.append(bridge)
    assert bridge.wait() == 2
    out = bridge.output()
    assert "refused by the server: " in out and "the bridge did not relay its engine's start" in out, out
    voids = _voids_by(data / "p", "mute")
    assert len(voids) == 1 and voids[0]["void_cause"] == "start", voids
    assert "Traceback" not in server.stderr() and "Traceback" not in out
