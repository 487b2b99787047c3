"""The ladder's accounts and its bookkeeping, in SQLite (WAL) at DIR/ladder.sqlite.

A token is shown once, when its account is made; the store keeps only a salted scrypt hash
and compares in constant time (:func:`hmac.compare_digest`). Checking an unknown account costs
the same hash as a known one, so a refusal's timing does not tell which it was.

Tables: ``accounts`` (name, salt, hash, made), ``connections`` (each accepted login:
account, peer, when, how it ended; refusals go to the server's log only), ``games`` (each game a pool started: its players and its state,
``playing`` until it is journaled or voided).
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import time
from pathlib import Path

DB_NAME = "ladder.sqlite"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
#: scrypt's cost: 16 MiB and ~50 ms a check; run off the event loop (the server does).
SCRYPT = dict(n=1 << 14, r=8, p=1, dklen=32)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (name TEXT PRIMARY KEY, salt BLOB NOT NULL, hash BLOB NOT NULL,
    made REAL NOT NULL);
CREATE TABLE IF NOT EXISTS connections (id INTEGER PRIMARY KEY, account TEXT, peer TEXT NOT NULL,
    opened REAL NOT NULL, closed REAL, how TEXT);
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, pool TEXT NOT NULL, first TEXT NOT NULL,
    second TEXT NOT NULL, started REAL NOT NULL, state TEXT NOT NULL);
"""


class AccountError(ValueError):
    """An account cannot be made or changed as asked (the message says why)."""


def _hash(token: str, salt: bytes) -> bytes:
    return hashlib.scrypt(token.encode(), salt=salt, **SCRYPT)


_DUMMY_SALT = secrets.token_bytes(16)


class Store:
    """The ladder's SQLite file under `data` (created with its tables when missing)."""

    def __init__(self, data: Path):
        data.mkdir(parents=True, exist_ok=True)
        self.path = data / DB_NAME
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    # -- accounts ---------------------------------------------------------------------------

    def add(self, name: str) -> str:
        """Make account `name` and return its fresh token; AccountError for a bad or taken name."""
        if not NAME.fullmatch(name):
            raise AccountError(f"{name!r} is not an account name (1-40 letters, digits, _ . -; "
                               "a letter or digit first)")
        token = secrets.token_urlsafe(32)
        salt = secrets.token_bytes(16)
        try:
            self.db.execute("INSERT INTO accounts VALUES (?, ?, ?, ?)",
                            (name, salt, _hash(token, salt), time.time()))
        except sqlite3.IntegrityError:
            raise AccountError(f"account {name!r} exists (revoke it first to give it a new token)") from None
        return token

    def revoke(self, name: str) -> None:
        """Delete account `name` (its games stay in the journals); AccountError if there is none."""
        if self.db.execute("DELETE FROM accounts WHERE name = ?", (name,)).rowcount == 0:
            raise AccountError(f"no account {name!r}")

    def names(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM accounts ORDER BY name")]

    def salted(self, name: str) -> tuple[bytes, bytes] | None:
        """The salt and hash of account `name`, None when there is none (read on the event loop)."""
        row = self.db.execute("SELECT salt, hash FROM accounts WHERE name = ?", (name,)).fetchone()
        return None if row is None else (row[0], row[1])


def token_matches(salted: tuple[bytes, bytes] | None, token: str) -> bool:
    """Whether `token` is the account's (`salted`: from :meth:`Store.salted`); an unknown account
    (None) costs the same hash and is never a match. CPU-bound: call it in a thread."""
    salt, stored = salted if salted is not None else (_DUMMY_SALT, b"")
    digest = _hash(token, salt)
    return hmac.compare_digest(digest, stored) and salted is not None


class Ledger:
    """The ``connections`` and ``games`` tables (the server's bookkeeping beside the journals)."""

    def __init__(self, store: Store):
        self.db = store.db

    def opened(self, account: str, peer: str) -> int:
        return int(self.db.execute("INSERT INTO connections (account, peer, opened) VALUES (?, ?, ?)",
                                   (account, peer, time.time())).lastrowid or 0)

    def closed(self, row: int, how: str) -> None:
        self.db.execute("UPDATE connections SET closed = ?, how = ? WHERE id = ?", (time.time(), how[:200], row))

    def started(self, game: str, pool: str, first: str, second: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, 'playing')",
                        (game, pool, first, second, time.time()))

    def ended(self, game: str, state: str) -> None:
        self.db.execute("UPDATE games SET state = ? WHERE id = ?", (state, game))

    def orphans(self) -> list[tuple[str, str]]:
        """(game id, pool) of every game still marked playing: in flight when the server stopped."""
        return list(self.db.execute("SELECT id, pool FROM games WHERE state = 'playing'"))

    def count(self, pool: str) -> int:
        """How many games the pool has started (the next game's number)."""
        return int(self.db.execute("SELECT COUNT(*) FROM games WHERE pool = ?", (pool,)).fetchone()[0])
