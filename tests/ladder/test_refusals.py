"""Logins the server refuses: the bridge exits 2 with the reason, no traceback on either side,
and the server logs the refusal with the peer's address."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from hexarena.ladder.config import loads
from hexarena.referee.tournament.config_check import ConfigError
from tests.support.ladder import FAKE, HEXARENA, Bridge, Server, add_account, journal, pool_toml, until


def test_a_wrong_token_and_an_unknown_account_are_refused(tmp_path, procs):
    data = tmp_path / "data"
    add_account(data, "real")
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    for account, token in (("real", "not-its-token"), ("ghost", "whatever")):
        bridge = Bridge(tmp_path, server.ws, account, token, ["random"])
        procs.append(bridge)
        assert bridge.wait() == 2
        out = bridge.output()
        assert "refused by the server: unknown account or wrong token" in out and "Traceback" not in out
        assert "the one `hexarena ladder account add` printed" in out
        until(lambda: f"refused {account!r} from 127.0.0.1:" in server.stderr(), "the refusal in the log")
    assert "Traceback" not in server.stderr()


def test_a_revoked_account_is_refused(tmp_path, procs):
    data = tmp_path / "data"
    token = add_account(data, "gone")
    subprocess.run([*HEXARENA, "ladder", "account", "revoke", "gone", "--data", str(data)], check=True,
                   capture_output=True, timeout=60)
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    bridge = Bridge(tmp_path, server.ws, "gone", token, ["random"])
    procs.append(bridge)
    assert bridge.wait() == 2 and "unknown account or wrong token" in bridge.output()


def test_connect_takes_no_token_on_its_command_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "HEXARENA_LADDER_TOKEN"}
    proc = subprocess.run([*HEXARENA, "connect", "ws://127.0.0.1:9/ladder/ws", "--account", "a", "--", "random"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 1 and "no token: set HEXARENA_LADDER_TOKEN or give --token-file" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_account_add_prints_the_token_alone_and_refuses_a_taken_name(tmp_path):
    data = tmp_path / "data"
    token = add_account(data, "x")
    assert len(token) >= 40 and " " not in token
    again = subprocess.run([*HEXARENA, "ladder", "account", "add", "x", "--data", str(data)],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "account 'x' exists" in again.stderr and again.stdout == ""
    bad = subprocess.run([*HEXARENA, "ladder", "account", "add", "../x", "--data", str(data)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "is not an account name" in bad.stderr
    for anchor in ("random", "mcts:200"):       # an anchor's name: its login would be refused in every pool
        taken = subprocess.run([*HEXARENA, "ladder", "account", "add", anchor, "--data", str(data)],
                               capture_output=True, text=True, timeout=60)
        assert taken.returncode == 2 and "is a built-in player's name" in taken.stderr, taken.stderr


def test_a_bad_config_names_file_key_and_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(pool_toml().replace('game = "spelde"', 'game = "chess"'))
    proc = subprocess.run([*HEXARENA, "ladder", "serve", str(path), "--data", str(tmp_path / "d")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and f"{path}:6: pools[0].game:" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("game, komi, error", [
    ("spelde", 2, ":7: pools[0].komi: spelde has no komi setting"),
    ("anda", 38, ":7: pools[0].komi: expected an integer in 0..37 (the sites of a board of size 4), got 38"),
])
def test_a_pool_komi_is_one_the_game_and_board_take(game, komi, error):
    text = pool_toml().replace('game = "spelde"', f'game = "{game}"\nkomi = {komi}')
    with pytest.raises(ConfigError) as info:
        loads(text, "pool.toml")
    assert str(info.value).startswith("pool.toml") and error in str(info.value), str(info.value)


def test_a_pool_komi_up_to_the_board_sites_is_taken():
    text = pool_toml().replace('game = "spelde"', 'game = "anda"\nvariant = "nopie"\nkomi = 37')
    assert loads(text).pools[0].komi == 37


def test_revoking_an_account_ends_its_connection_and_loses_its_game_in_hand(tmp_path, procs):
    """`account revoke` then `account add` (a new token) while the account's bridge plays: within
    seconds the bridge is refused (exit 2, saying why), its game in hand is lost by it, and no
    game is paired on the old token afterwards; the new token logs in and plays."""
    data = tmp_path / "data"
    token = add_account(data, "alice")
    server = Server(tmp_path, pool_toml(move=5.0, size=5), data)
    procs.append(server)
    live = data / "p" / "live"
    bridge = Bridge(tmp_path, server.ws, "alice", token, [sys.executable, FAKE, "0", "slow", "0.3"])
    procs.append(bridge)

    def mid_game():
        files = list(live.glob("p-*.jsonl")) if live.exists() else []
        return files and len(files[0].read_text().splitlines()) >= 3 and files[0]
    game = until(mid_game, "a game a few plies in").stem
    for step in ("revoke", "add"):
        subprocess.run([*HEXARENA, "ladder", "account", step, "alice", "--data", str(data)], check=True,
                       capture_output=True, timeout=60)
    revoked = time.monotonic()
    assert bridge.wait(30) == 2, bridge.output()
    assert time.monotonic() - revoked < 10
    assert "refused by the server: account 'alice' was revoked" in bridge.output()
    record = until(lambda: next((r for r in journal(data / "p") if r["id"] == game), None), "the game's record")
    assert record["faulty"] == "alice" and "revoked" in record["reason"], record
    time.sleep(1.5)                          # a few rounds: none pairs the old token
    assert [r["id"] for r in journal(data / "p")] == [game]
    assert "was revoked" in server.stderr() and "Traceback" not in server.stderr()


def test_a_new_token_after_a_revocation_plays(tmp_path, procs):
    data = tmp_path / "data"
    add_account(data, "alice")
    subprocess.run([*HEXARENA, "ladder", "account", "revoke", "alice", "--data", str(data)], check=True,
                   capture_output=True, timeout=60)
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    bridge = Bridge(tmp_path, server.ws, "alice", add_account(data, "alice"), ["random"], "--games", "1")
    procs.append(bridge)
    assert bridge.wait() == 0, bridge.output()
