"""Faults of engines and of connections: a crash or an illegal answer forfeits that game only; a
bridge killed mid-game and started again within its time, or one whose network drops, continues
the game; Ctrl-C on a bridge."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.ladder import FAKE, Bridge, Server, add_account, journal, pool_toml, until

PROXY = str(Path(__file__).parents[1] / "support" / "ladder_proxy.py")


def test_an_engine_that_crashes_or_answers_illegally_forfeits_and_the_rest_goes_on(tmp_path, procs):
    data = tmp_path / "data"
    names = ("crasher", "cheat", "honest")
    tokens = {n: add_account(data, n) for n in names}
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    engines = {"crasher": [sys.executable, FAKE, "2", "crash"], "cheat": [sys.executable, FAKE, "2", "illegal"],
               "honest": ["random"]}
    bridges = {n: Bridge(tmp_path, server.ws, n, tokens[n], engines[n], "--games", "3") for n in names}
    procs.extend(bridges.values())
    for b in bridges.values():
        assert b.wait() == 0, b.output()
    records = journal(data / "p")
    crashed = [r for r in records if r.get("faulty") == "crasher"]
    illegal = [r for r in records if r.get("faulty") == "cheat"]
    assert crashed and all(r["termination"] == "forfeit" or r.get("forfeit") == "crash" for r in crashed), crashed
    # the record says what the bridge saw: the engine's exit status
    assert all("its bridge said the engine failed" in r["reason"] and "status 3" in r["reason"]
               for r in crashed), [r["reason"] for r in crashed]
    assert illegal and all(r.get("forfeit") in ("illegal", "malformed") for r in illegal), illegal
    assert not [r for r in records if r.get("faulty") == "honest"]
    # the crasher's bridge started a fresh engine and played its other games
    assert "starting a fresh engine" in bridges["crasher"].output()
    assert len([r for r in records if "crasher" in (r["first"], r["second"])]) >= 3
    assert "Traceback" not in server.stderr()


def _slow_pool(tmp_path, procs, account: str, move: float, pause: float, extra: str = ""):
    """A server whose pool has `move` seconds a move (and the config's lines `extra`), an account,
    and the command of an engine taking `pause` seconds a move: (data folder, server, token,
    engine, live folder)."""
    data = tmp_path / "data"
    token = add_account(data, account)
    server = Server(tmp_path, pool_toml(move=move, size=5, extra=extra), data)
    procs.append(server)
    return data, server, token, [sys.executable, FAKE, "0", "slow", str(pause)], data / "p" / "live"


def test_a_bridge_killed_mid_game_and_restarted_continues_that_game(tmp_path, procs):
    # moves of 0.2 s each against an anchor; 8 s a move leaves time for a restart
    data, server, token, slow, live = _slow_pool(tmp_path, procs, "phoenix", 8.0, 0.2)
    first = Bridge(tmp_path, server.ws, "phoenix", token, slow, "--games", "1", tag="-1")
    procs.append(first)

    def mid_game():
        files = list(live.glob("p-*.jsonl")) if live.exists() else []
        return files and len(files[0].read_text().splitlines()) >= 5 and files[0]
    path = until(mid_game, "the game to be a few plies in")
    first.kill()
    game = path.stem
    second = Bridge(tmp_path, server.ws, "phoenix", token, slow, "--games", "1", tag="-2")
    procs.append(second)
    assert second.wait() == 0, second.output()
    record = next(r for r in journal(data / "p") if r["id"] == game)
    assert record["faulty"] is None and record["reason"] in ("ended by the rules",) or \
        record["reason"].startswith("ply cap"), record
    assert f"{game}: resuming" in second.output()
    assert f"phoenix resumes {game}" in server.stderr()


@pytest.mark.parametrize("per_account", [4, 1])
def test_a_bridge_started_again_takes_over_the_game_of_one_that_froze(tmp_path, procs, per_account):
    """The server still holds the frozen bridge's connection (no close came): the new one's
    login finds it not answering a ping and takes its game over; the frozen one is dropped, and
    only it: no later round pairs it, no void closes the new one. Also when the account may hold
    one connection only: the frozen one makes room."""
    data, server, token, slow, live = _slow_pool(tmp_path, procs, "sleeper", 8.0, 0.2,
                                                 extra=f"[bounds]\nper_account = {per_account}\n")
    first = Bridge(tmp_path, server.ws, "sleeper", token, slow, tag="-1")
    procs.append(first)

    def mid_game():
        files = list(live.glob("p-*.jsonl")) if live.exists() else []
        return files and len(files[0].read_text().splitlines()) >= 5 and files[0]
    game = until(mid_game, "the game to be a few plies in").stem
    first.proc.send_signal(signal.SIGSTOP)          # frozen: its socket stays open, nothing answers on it
    second = Bridge(tmp_path, server.ws, "sleeper", token, slow, "--games", "2", tag="-2")
    procs.append(second)
    assert second.wait() == 0, second.output()
    records = {r["id"]: r for r in journal(data / "p")}
    assert records[game]["faulty"] is None, records[game]
    assert f"{game}: resuming" in second.output()
    assert ("takes over" if per_account > 1 else "takes its place") in server.stderr()
    assert f"sleeper resumes {game}" in server.stderr()
    assert not [r for r in records.values() if r["faulty"] == "sleeper"], records


def test_ctrl_c_finishes_the_game_in_hand_and_twice_stops_at_once(tmp_path, procs):
    data, server, token, slow, live = _slow_pool(tmp_path, procs, "calm", 5.0, 0.1)

    def in_game():
        return live.exists() and [p for p in live.glob("p-*.jsonl") if len(p.read_text().splitlines()) >= 3]
    bridge = Bridge(tmp_path, server.ws, "calm", token, slow)
    procs.append(bridge)
    [path] = until(in_game, "a game under way")
    bridge.proc.send_signal(signal.SIGINT)
    assert bridge.wait() == 0, bridge.output()
    records = journal(data / "p")
    assert [r["id"] for r in records] == [path.stem] and records[0]["faulty"] is None, records
    assert "finishing the game in hand" in bridge.output()

    again = Bridge(tmp_path, server.ws, "calm", token, slow, tag="-2")
    procs.append(again)
    [path] = until(lambda: [p for p in (in_game() or []) if p.stem != records[0]["id"]], "a second game under way")
    again.proc.send_signal(signal.SIGINT)
    time.sleep(0.3)
    again.proc.send_signal(signal.SIGINT)
    assert again.wait() == 130, again.output()
    assert "stopping now" in again.output() and "Traceback" not in again.output()


def test_a_bridge_that_loses_the_network_mid_game_comes_back_and_finishes_it(tmp_path, procs):
    data, server, token, slow, live = _slow_pool(tmp_path, procs, "roamer", 8.0, 0.2)
    proxy = subprocess.Popen([sys.executable, PROXY, str(server.ws_port)], stdout=subprocess.PIPE, text=True)
    try:
        port = int(proxy.stdout.readline())
        bridge = Bridge(tmp_path, f"ws://127.0.0.1:{port}/ladder/ws", "roamer", token, slow, "--games", "1")
        procs.append(bridge)

        def mid_game():
            files = list(live.glob("p-*.jsonl")) if live.exists() else []
            return files and len(files[0].read_text().splitlines()) >= 5 and files[0]
        path = until(mid_game, "the game to be a few plies in")
        page = server.get("pool/p").decode()              # the game in flight, on a live board
        assert "In flight (1)" in page and f"{path.stem}: " in page and "<svg" in page
        proxy.send_signal(signal.SIGUSR1)                 # the network drops; the bridge lives on
        assert bridge.wait() == 0, bridge.output()
    finally:
        proxy.kill()
        proxy.wait(30)
    record = next(r for r in journal(data / "p") if r["id"] == path.stem)
    assert record["faulty"] is None, (record["reason"], bridge.output())
    out = bridge.output()
    assert "lost" in out and f"{path.stem}: resuming" in out
    assert f"roamer resumes {path.stem}" in server.stderr()


def test_an_engine_that_hangs_loses_that_game_only_and_its_bridge_plays_on_at_once(tmp_path, procs):
    # the bridge sees the game's end while its engine still thinks: it starts a fresh engine then,
    # and the server pairs the connection only once the bridge says the engine runs (its ping)
    data = tmp_path / "data"
    token = add_account(data, "sleepy")
    server = Server(tmp_path, pool_toml(move=0.5, interval=0.2, network=0.2), data)
    procs.append(server)
    engine = [sys.executable, FAKE, "3", "hang", str(tmp_path / "hung")]
    bridge = Bridge(tmp_path, server.ws, "sleepy", token, engine, "--games", "3")
    procs.append(bridge)
    assert bridge.wait(60) == 0, bridge.output()
    records = journal(data / "p")
    assert len(records) == 3, records
    hung, *after = records
    assert hung["faulty"] == "sleepy" and hung["forfeit"] == "time", hung
    assert all(r["faulty"] is None and not r.get("void_cause") for r in after), after
    out = bridge.output()
    assert "still busy with genmove" in out and "did not relay" not in out, out
    assert "Traceback" not in server.stderr()


def test_a_stop_request_while_the_server_is_gone_stops_the_bridge_at_once(tmp_path, procs):
    """The server dies mid-game: no game can be finished, so one SIGTERM stops the bridge within
    seconds (its engine with it), not after it is welcomed back."""
    data, server, token, slow, live = _slow_pool(tmp_path, procs, "orphan", 5.0, 0.2)
    bridge = Bridge(tmp_path, server.ws, "orphan", token, slow)
    procs.append(bridge)
    until(lambda: live.exists() and [p for p in live.glob("p-*.jsonl") if len(p.read_text().splitlines()) >= 3],
          "a game under way")
    server.kill()
    until(lambda: "lost" in bridge.output(), "the bridge to see the connection lost")
    bridge.proc.send_signal(signal.SIGTERM)
    assert bridge.wait(10) == 130, bridge.output()
    assert "not connected: stopping now" in bridge.output() and "Traceback" not in bridge.output()
