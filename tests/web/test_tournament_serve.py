"""`hexarena tournament --serve`: the web server inside the run, watched by a client, leaves the
journal exactly as a run without it (seeded built-in players: the same actions, move for move)."""
from __future__ import annotations

import http.client
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hexarena.results.record.journal import read_journal

pytestmark = pytest.mark.slow

CONFIG = """seed = 11
games_per_pair = 4
[engines.random]
player = "random"
[engines.mcts]
player = "mcts:40"
[[games]]
game = "spelde"
size = 4
[[games]]
game = "vaxandis"
size = 3
"""
SAME = ("game", "size", "variant", "first", "second", "black", "white", "winner", "result", "termination",
        "plies", "tokens", "opening", "reason")


def listen(port: int, token: str, key: str, heard: list[bytes]) -> None:
    """Read the folder's event stream until the server goes away."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", f"/t/{key}/events", headers={"Cookie": f"hexarena-{port}={token}"})
    answer = connection.getresponse()
    heard.append(f"status {answer.status}".encode())
    try:
        while chunk := answer.read1(65536):
            heard.append(chunk)
    except (OSError, http.client.HTTPException):
        pass
    finally:
        connection.close()


def test_the_journal_is_the_same_with_the_server_and_a_watching_client(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(CONFIG, encoding="utf-8")
    plain = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out",
                            str(tmp_path / "plain"), "-j", "2", "-q"], capture_output=True, text=True, timeout=600)
    assert plain.returncode == 0, plain.stderr
    served = subprocess.Popen([sys.executable, "-m", "hexarena", "tournament", str(config), "--out",
                               str(tmp_path / "served"), "-j", "2", "-q", "--serve"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert served.stderr is not None
    heard: list[bytes] = []
    listener = None
    for line in served.stderr:
        found = re.match(r"serving: http://127\.0\.0\.1:(\d+)/\?token=(\S+)$", line.strip())
        if found:
            listener = threading.Thread(target=listen, args=(int(found.group(1)), found.group(2), "served", heard))
            listener.start()
            break
    assert listener is not None, "no `serving:` line"
    out, err = served.communicate(timeout=600)
    listener.join(timeout=60)
    assert served.returncode == 0, err
    assert "Traceback" not in err
    stream = b"".join(heard[1:])
    assert heard[0] == b"status 200" and stream.startswith(b"event: snapshot\n")
    a = {r.id: r for r in read_journal(tmp_path / "plain" / "journal.jsonl")}
    b = {r.id: r for r in read_journal(tmp_path / "served" / "journal.jsonl")}
    assert set(a) == set(b) and len(a) == 8
    for game_id in a:
        assert {k: getattr(a[game_id], k) for k in SAME} == {k: getattr(b[game_id], k) for k in SAME}, game_id
        assert [m.colour for m in a[game_id].moves] == [m.colour for m in b[game_id].moves], game_id
    assert not (tmp_path / "served" / "live").exists()
