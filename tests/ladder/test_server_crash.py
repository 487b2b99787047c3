"""kill -9 of the server mid-round, then a restart with the same --data: nothing lost, nothing
doubled, games in flight void and unrated, bridges back by themselves."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.ladder import FAKE, HEXARENA, Bridge, Server, add_account, journal, pool_toml, until


@pytest.mark.slow
def test_kill_9_of_the_server_loses_and_doubles_nothing(tmp_path, procs):
    data = tmp_path / "data"
    tokens = {n: add_account(data, n) for n in ("red", "blue")}
    config = pool_toml(move=3.0)
    server = Server(tmp_path, config, data)
    procs.append(server)
    slow = [sys.executable, FAKE, "0", "slow", "0.05"]
    bridges = [Bridge(tmp_path, server.ws, n, t, slow, "--games", "6") for n, t in tokens.items()]
    procs.extend(bridges)
    live = data / "p" / "live"
    until(lambda: len(journal(data / "p")) >= 2 and live.exists() and list(live.glob("*.jsonl")),
          "two games journaled and one in flight")
    server.kill()
    before = journal(data / "p")
    server = Server(tmp_path, config, data, port=server.port, ws_port=server.ws_port)
    procs.append(server)
    for b in bridges:
        assert b.wait() == 0, b.output()
        assert "lost" in b.output()       # the bridge saw the server go and came back
    records = journal(data / "p")
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids)), ids
    assert records[:len(before)] == before
    voided = [r for r in records[len(before):] if r["termination"] == "void"]
    assert voided and all("server stopped" in r["reason"] for r in voided)
    played = [r for r in records if r["termination"] != "void"]
    assert len(played) > len([r for r in before if r["termination"] != "void"])
    rated = subprocess.run([*HEXARENA, "ratings", str(data / "p"), "--pooled", "--format", "json"],
                           capture_output=True, text=True, timeout=120, check=True)
    table = json.loads(rated.stdout)["tables"][0]
    assert table["games"] == len(played)
    assert "Traceback" not in server.stderr()
