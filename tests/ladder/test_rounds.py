"""Four accounts' bridges play rounds in one pool against a real server, over 127.0.0.1."""
from __future__ import annotations

import json
import subprocess
import sqlite3
import sys
import time
from contextlib import closing

from tests.support.ladder import FAKE, HEXARENA, Bridge, Server, add_account, journal, pool_toml, until


def test_four_bridges_play_rounds_and_the_pool_is_a_tournament_folder(tmp_path, procs):
    data = tmp_path / "data"
    tokens = {name: add_account(data, name) for name in ("ann", "bo", "cy", "di")}
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    engines = {"ann": ["random"], "bo": ["greedy"], "cy": ["random"], "di": ["greedy"]}
    bridges = [Bridge(tmp_path, server.ws, n, t, engines[n], "--games", "3") for n, t in tokens.items()]
    procs.extend(bridges)
    for b in bridges:
        assert b.wait() == 0, b.output()
    records = journal(data / "p")
    played = [r for r in records if r["termination"] != "void"]
    for name, bridge in zip(tokens, bridges):
        mine = [r for r in played if name in (r["first"], r["second"])]
        assert len(mine) >= 3, (name, bridge.output())
        # one line per game on the bridge's stdout, and the game's SGF kept locally
        lines = [line for line in bridge.output().splitlines() if line.startswith("p-")]
        assert len(lines) == 3, bridge.output()
        assert len(list((bridge.out / "games").glob("p-*.sgf"))) == 3
    assert len({r["id"] for r in records}) == len(records)
    # each record names the account and the engine identity per side
    for r in played:
        for seat, name in enumerate((r["first"], r["second"])):
            if name in tokens:
                assert r["identities"][seat][0] == f"hexarena-{engines[name][0]}"
    # the standings page and `hexarena ratings` agree (once the last games are fitted)
    until(lambda: sum(s["games"] for s in server.standings()["standings"]) == 2 * len(played), "the last fit")
    standings = server.standings()["standings"]
    rated = subprocess.run([*HEXARENA, "ratings", str(data / "p"), "--pooled", "--anchor", "random=0",
                            "--format", "json"], capture_output=True, text=True, timeout=120, check=True)
    table = json.loads(rated.stdout)["tables"][0]["ratings"]
    assert {s["name"]: round(s["elo"], 6) for s in standings} == {r["player"]: round(r["elo"], 6) for r in table}
    assert {s["name"]: s["games"] for s in standings} == {r["player"]: r["games"] for r in table}
    assert all(s["provisional"] == (s["games"] < 3 and not s["anchor"]) for s in standings)
    # the folder reads as a tournament's
    status = subprocess.run([*HEXARENA, "status", str(data / "p")], capture_output=True, text=True, timeout=120)
    assert status.returncode == 0 and "engines (name and version they answered)" in status.stdout, status.stderr
    # pages: the pool, a player, a record
    page = server.get("pool/p").decode()
    assert 'id="standings"' in page and "ann" in page
    assert "hexarena-random" in server.get("pool/p/player/ann").decode()
    assert server.get(f"pool/p/game/{played[0]['id']}.sgf").startswith(b"(;")
    assert "Traceback" not in server.stderr()
    # the server keeps only salted hashes of the tokens
    db = sqlite3.connect(data / "ladder.sqlite")
    stored = b"".join(row[0] for row in db.execute("SELECT hash FROM accounts"))
    assert all(t.encode() not in stored for t in tokens.values())
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_lone_bridge_meets_the_anchors(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "solo")
    server = Server(tmp_path, pool_toml(anchors=("random", "greedy")), data)
    procs.append(server)
    bridge = Bridge(tmp_path, server.ws, "solo", token, ["random"], "--games", "2")
    procs.append(bridge)
    assert bridge.wait() == 0, bridge.output()
    opponents = {r["second"] if r["first"] == "solo" else r["first"] for r in journal(data / "p")}
    assert opponents <= {"random", "greedy"} and opponents


def test_an_account_plays_one_game_of_a_pool_at_a_time_however_many_connections_it_has(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "twin")
    server = Server(tmp_path, pool_toml(interval=0.2), data)
    procs.append(server)
    slow = [sys.executable, FAKE, "0", "slow", "0.05"]
    bridges = [Bridge(tmp_path, server.ws, "twin", token, slow, "--games", "2", tag=f"-{i}") for i in (1, 2)]
    procs.extend(bridges)
    most = 0
    ledger = data / "ladder.sqlite"
    while any(b.proc.poll() is None for b in bridges):
        if ledger.exists():
            with closing(sqlite3.connect(ledger, timeout=5)) as db:
                playing = db.execute("SELECT COUNT(*) FROM games WHERE state = 'playing' "
                                     "AND (first = 'twin' OR second = 'twin')").fetchone()[0]
            most = max(most, playing)
        time.sleep(0.05)
    for b in bridges:
        assert b.wait() == 0, b.output()
    records = [r for r in journal(data / "p") if "twin" in (r["first"], r["second"])]
    assert len(records) == 4 and all(r["faulty"] is None for r in records), records
    assert most == 1, most
