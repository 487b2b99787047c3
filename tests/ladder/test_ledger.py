"""The ledger (DIR/ladder.sqlite) against what happens to files on a real host: another process
holding its write lock, a restore from the documented backup, a file of another version or
program, a pool taken out of the config. Real servers, real bridges, real sqlite3 locks."""
from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

from tests.support.ladder import FAKE, HEXARENA, Bridge, Server, add_account, journal, pool_toml, until

#: Holds the write lock of the database argv[1] (BEGIN IMMEDIATE and a write) until the file
#: argv[2] exists, as a sqlite3 shell left in a transaction does.
HOLD = """
import os, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE accounts SET made = made")
print("held", flush=True)
end = time.monotonic() + 150
while not os.path.exists(sys.argv[2]) and time.monotonic() < end:
    time.sleep(0.05)
db.execute("COMMIT")
"""


class Lock:
    """Another process holding the database's write lock until :meth:`release`."""

    def __init__(self, db: Path, tmp: Path):
        self.release_file = tmp / f"release-{id(self)}"
        self.proc = subprocess.Popen([sys.executable, "-c", HOLD, str(db), str(self.release_file)],
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "held"

    def held(self) -> bool:
        return self.proc.poll() is None

    def release(self) -> None:
        self.release_file.touch()
        assert self.proc.wait(30) == 0


def _ledger(data: Path) -> dict[str, str]:
    with closing(sqlite3.connect(data / "ladder.sqlite", timeout=30)) as db:
        return dict(db.execute("SELECT id, state FROM games"))


def _ids_once(data: Path) -> list[dict]:
    records = journal(data / "p")
    twice = [i for i, n in Counter(r["id"] for r in records).items() if n > 1]
    assert not twice, f"ids with two records: {twice}"
    return records


def test_a_locked_database_holds_the_rounds_and_never_the_games_in_flight(tmp_path, procs):
    data = tmp_path / "data"
    tokens = {n: add_account(data, n) for n in ("red", "blue", "green")}
    config = pool_toml(move=1.0, size=5, anchors=())
    server = Server(tmp_path, config, data)
    procs.append(server)
    slow = [sys.executable, FAKE, "0", "slow", "0.2"]
    bridges = [Bridge(tmp_path, server.ws, n, tokens[n], slow) for n in ("red", "blue")]
    procs.extend(bridges)
    live = data / "p" / "live"
    playing = until(lambda: live.exists() and [p.stem for p in live.glob("p-*.jsonl")], "a game in flight")[0]
    lock = Lock(data / "ladder.sqlite", tmp_path)
    try:
        # a login while the file is locked is welcomed at once (its ledger row waits, off the loop)
        green = Bridge(tmp_path, server.ws, "green", tokens["green"], ["random"], "--games", "1")
        procs.append(green)
        until(lambda: "connected as green" in green.output(), "green's welcome", timeout=30)
        server.get("/")
        # the game in flight ends on the board, counts at once and its bridges are told
        until(lambda: playing in {r["id"] for r in journal(data / "p")}, f"{playing} journaled", timeout=60)
        until(lambda: all(f"{playing} " in b.output() for b in bridges), f"{playing} told to its bridges", timeout=30)
        until(lambda: any(s["games"] for s in server.standings()["standings"]), "the standings", timeout=30)
        # the ledger cannot hear of it: the server says so, once, and starts no game meanwhile
        until(lambda: "no game starts until this clears" in server.stderr(), "the pool held", timeout=30)
        assert lock.held(), "the lock ended before the checks: they prove nothing"
        # no game starts while the lock is held
        started = {p.stem for p in live.glob("p-*.jsonl")}
        assert not started - {playing}, started
    finally:
        lock.release()
    assert green.wait() == 0, green.output()
    log = server.stderr()
    assert log.count("no game starts until this clears") == 1, log
    assert "ladder.sqlite is locked by another process" in log and "games start again" in log, log
    assert "void at the next start" not in log and "Traceback" not in log, log
    records = _ids_once(data)
    assert all(r["faulty"] is None for r in records), [(r["id"], r["reason"]) for r in records if r["faulty"]]
    until(lambda: _ledger(data).get(playing) == "done", f"the ledger told that {playing} ended")
    # a restart after a kill -9 numbers past every game ever started: no id comes twice
    server.kill()
    before = len(records)
    server = Server(tmp_path, config, data, port=server.port, ws_port=server.ws_port)
    procs.append(server)
    until(lambda: len(journal(data / "p")) >= before + 3, "three more games")
    _ids_once(data)


def test_a_restore_of_the_documented_backup_reuses_no_id(tmp_path, procs):
    data = tmp_path / "data"
    tokens = {n: add_account(data, n) for n in ("red", "blue")}
    config = pool_toml(anchors=())
    server = Server(tmp_path, config, data)
    procs.append(server)
    bridges = [Bridge(tmp_path, server.ws, n, t, ["random"]) for n, t in tokens.items()]
    procs.extend(bridges)
    until(lambda: len(journal(data / "p")) >= 2, "two games")
    backup = tmp_path / "restore"
    backup.mkdir()
    # the database first (sqlite3's backup, from another process), then the folders
    with closing(sqlite3.connect(data / "ladder.sqlite")) as db, closing(sqlite3.connect(backup / "ladder.sqlite")) as copy:
        db.backup(copy)
    count = len(journal(data / "p"))
    until(lambda: len(journal(data / "p")) >= count + 3, "three games after the database's copy")
    shutil.copytree(data / "p", backup / "p")
    for b in bridges:
        b.kill()
    server.stop()
    copied = len(journal(backup / "p"))
    server = Server(tmp_path, config, backup, port=server.port, ws_port=server.ws_port)
    procs.append(server)
    bridges = [Bridge(tmp_path, server.ws, n, t, ["random"], "--games", "3", tag="-2") for n, t in tokens.items()]
    procs.extend(bridges)
    for b in bridges:
        assert b.wait() == 0, b.output()
    assert len(_ids_once(backup)) > copied
    rated = subprocess.run([*HEXARENA, "ratings", str(backup / "p"), "--pooled"], capture_output=True, text=True,
                           timeout=120)
    assert rated.returncode == 0, rated.stderr


def test_a_full_disk_holds_the_pool_once_and_every_bridge_hears_its_game_end(tmp_path, procs):
    data = tmp_path / "data"
    tokens = {n: add_account(data, n) for n in ("red", "blue")}
    config = pool_toml(anchors=())
    server = Server(tmp_path, config, data)
    procs.append(server)
    bridges = [Bridge(tmp_path, server.ws, n, t, ["random"], "--games", "2") for n, t in tokens.items()]
    procs.extend(bridges)
    for b in bridges:
        assert b.wait() == 0, b.output()
    server.stop()
    # a journal of 200 kB, then a server whose files may not grow past 2 kB more than that
    path = data / "p" / "journal.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[i % len(lines)].replace('"p-00000', f'"x-{i:05d}', 1)
                              for i in range(200_000 // len(lines[0]))) + "\n")
    limit = path.stat().st_size + 2000
    server = Server(tmp_path, config, data, prefix=("prlimit", f"--fsize={limit}", "--"))
    procs.append(server)
    bridges = [Bridge(tmp_path, server.ws, n, t, ["random"], tag="-2") for n, t in tokens.items()]
    procs.extend(bridges)
    until(lambda: "no game starts until this clears" in server.stderr(), "the pool held")
    time.sleep(5)                       # some fifteen rounds
    log = server.stderr()
    assert log.count("no game starts until this clears") == 1, log
    failed = set(re.findall(r"(p-\d{6}): .*the server failed", log))
    assert 1 <= len(failed) <= 2, log
    for game in failed:
        assert all(f"{game} " in b.output() for b in bridges), (game, [b.output() for b in bridges])
    assert "Traceback" not in log, log


def test_a_record_that_cannot_be_written_is_said_for_a_ladder_not_with_the_tournaments_advice(tmp_path, procs):
    """The first game's SGF cannot be written (a file where its folder goes): its void says which file
    and why, not the tournament's "make room, then hexarena tournament --out DIR --resume" (a pool
    is not resumed by hand while its server runs); the pool holds, once."""
    data = tmp_path / "data"
    tokens = {n: add_account(data, n) for n in ("red", "blue")}
    server = Server(tmp_path, pool_toml(anchors=()), data)
    procs.append(server)
    games = data / "p" / "games"
    shutil.rmtree(games, ignore_errors=True)
    games.write_text("not a folder")            # after the start (the ids are numbered): no SGF can be written
    bridges = [Bridge(tmp_path, server.ws, n, t, ["random"]) for n, t in tokens.items()]
    procs.extend(bridges)
    until(lambda: "no game starts until this clears" in server.stderr(), "the pool held")
    log = server.stderr()
    assert re.search(r"clears: p-000000: the server failed: cannot write \S*/p/games: ", log), log
    assert "hexarena tournament" not in log and "Traceback" not in log, log


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*HEXARENA, *args], capture_output=True, text=True, timeout=60)


def test_a_database_of_another_kind_is_refused_naming_the_file(tmp_path):
    config = tmp_path / "ladder.toml"
    config.write_text(pool_toml())
    made = tmp_path / "made"
    add_account(made, "red")
    whole = (made / "ladder.sqlite").read_bytes()
    cases = {
        "garbage": (b"\x93not sqlite at all\x00" * 400, "is not a ladder database or is damaged"),
        "truncated": (whole[:len(whole) // 2] if len(whole) > 8192 else whole[:4096] + b"\xff" * 4096,
                      "is not a ladder database or is damaged"),
    }
    for name, (content, said) in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "ladder.sqlite").write_bytes(content)
    foreign = {
        "older": ("CREATE TABLE games (id TEXT PRIMARY KEY, pool TEXT NOT NULL, first TEXT NOT NULL, "
                  "second TEXT NOT NULL, started REAL NOT NULL)", "does not hold this hexarena's tables"),
        "wider": ("CREATE TABLE accounts (name TEXT PRIMARY KEY, salt BLOB NOT NULL, hash BLOB NOT NULL, "
                  "made REAL NOT NULL, email TEXT)", "does not hold this hexarena's tables"),
        "newer": ("PRAGMA user_version = 9", "is of a newer hexarena (its schema version 9"),
    }
    for name, (sql, said) in foreign.items():
        folder = tmp_path / name
        folder.mkdir()
        with closing(sqlite3.connect(folder / "ladder.sqlite")) as db:
            db.execute(sql)
            db.commit()
        cases[name] = (b"", said)
    for name, (_, said) in cases.items():
        db = tmp_path / name / "ladder.sqlite"
        before = db.read_bytes()
        for args in (("ladder", "account", "add", "blue", "--data", str(db.parent)),
                     ("ladder", "account", "list", "--data", str(db.parent)),
                     ("ladder", "serve", str(config), "--data", str(db.parent))):
            proc = _run(*args)
            assert proc.returncode == 1, (name, args, proc.stdout, proc.stderr)
            assert str(db) in proc.stderr and said in proc.stderr, (name, args, proc.stderr)
            assert "Traceback" not in proc.stderr, proc.stderr
        assert db.read_bytes() == before, name
    # a database of this version's tables without a version (as written before the version was
    # kept) is this version's; a new database is written with it
    with closing(sqlite3.connect(made / "ladder.sqlite")) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        db.execute("PRAGMA user_version = 0")
        db.commit()
    assert _run("ladder", "account", "list", "--data", str(made)).stdout.split() == ["red"]
    with closing(sqlite3.connect(made / "ladder.sqlite")) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_a_game_left_playing_in_a_pool_no_longer_configured_is_voided(tmp_path, procs):
    data = tmp_path / "data"
    add_account(data, "red")
    with closing(sqlite3.connect(data / "ladder.sqlite")) as db:
        db.execute("INSERT INTO games VALUES ('gone-000003', 'gone', 'red', 'random', 0, 'playing')")
        db.commit()
    server = Server(tmp_path, pool_toml(), data)
    procs.append(server)
    assert _ledger(data)["gone-000003"] == "void"
    assert "gone-000003 (red - random) was in flight at the last stop in pool 'gone'" in server.stderr()
    server.stop()
    again = Server(tmp_path, pool_toml(), data)
    procs.append(again)
    assert "gone-000003" not in again.stderr()
