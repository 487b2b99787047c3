"""The ladder's accounts and its bookkeeping, in SQLite (WAL) at DIR/ladder.sqlite.

A token is shown once, when its account is made; the store keeps only a salted scrypt hash
and compares in constant time (:func:`hmac.compare_digest`). Checking an unknown account costs
the same hash as a known one, so a refusal's timing does not tell which it was.

Tables: ``accounts`` (name, salt, hash, made), ``connections`` (each accepted login:
account, peer, when, how it ended; refusals go to the server's log only), ``games`` (each game a pool started: its players and its state,
``playing`` until it is journaled or voided). ``PRAGMA user_version`` holds the schema's version
(:data:`SCHEMA_VERSION`): a new file gets it; a file without it whose tables are this version's
is this version; any other file (not SQLite, damaged, another version's or program's tables) is
refused with a :class:`StoreError` naming it and saying what to do.

Every statement waits at most :data:`BUSY_SECONDS` for another process's lock; then it fails
with :class:`LedgerBusy`. Every database error is a :class:`StoreError` naming the file.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

DB_NAME = "ladder.sqlite"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
#: scrypt's cost: 16 MiB and ~50 ms a check; run off the event loop (the server does).
SCRYPT = dict(n=1 << 14, r=8, p=1, dklen=32)
#: The schema's version, in ``PRAGMA user_version``.
SCHEMA_VERSION = 1
#: Seconds a statement waits for another process's lock on the file before it fails.
BUSY_SECONDS = 5.0
T = TypeVar("T")

_TABLES = {
    "accounts": "name TEXT PRIMARY KEY, salt BLOB NOT NULL, hash BLOB NOT NULL, made REAL NOT NULL",
    "connections": "id INTEGER PRIMARY KEY, account TEXT, peer TEXT NOT NULL, opened REAL NOT NULL, closed REAL, how TEXT",
    "games": "id TEXT PRIMARY KEY, pool TEXT NOT NULL, first TEXT NOT NULL, second TEXT NOT NULL, "
             "started REAL NOT NULL, state TEXT NOT NULL",
}


class StoreError(Exception):
    """The ladder's database cannot be used or written as asked (the message names the file and
    says why)."""


class LedgerBusy(StoreError):
    """Another process holds a lock on the database longer than :data:`BUSY_SECONDS`."""


def _failure(path: Path, exc: sqlite3.Error) -> StoreError:
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return LedgerBusy(f"{path} is locked by another process (no answer within {BUSY_SECONDS:g} s: "
                          f"sqlite3: {text}): end that process's transaction (a sqlite3 shell left in "
                          "BEGIN, a long backup)")
    if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        return StoreError(f"{path} is not a ladder database or is damaged (sqlite3: {text}): restore it "
                          "from a backup, or move it away to start with no accounts and no ledger")
    return StoreError(f"{path}: sqlite3: {text}")


@contextmanager
def _named(path: Path) -> Iterator[None]:
    """Turn a sqlite3 error into a StoreError naming `path`."""
    try:
        yield
    except sqlite3.Error as exc:
        raise _failure(path, exc) from None


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)


def _columns(db: sqlite3.Connection) -> dict[str, list[str]]:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                      "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    return {n: [r[1] for r in db.execute(f"PRAGMA table_info(\"{n}\")")] for n in names}


def _check_schema(path: Path, db: sqlite3.Connection) -> None:
    """Make a new file's tables, or check an existing file's (StoreError when they are not this
    version's)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path} is of a newer hexarena (its schema version {version}, this one's "
                         f"{SCHEMA_VERSION}): run the hexarena that wrote it, or give --data a folder of "
                         "this version's")
    expected = {n: [c.split()[0] for c in cols.split(", ")] for n, cols in _TABLES.items()}
    found = _columns(db)
    if version == 0 and not found:
        db.executescript("BEGIN IMMEDIATE;"
                         + "".join(f"CREATE TABLE {n} ({cols});" for n, cols in _TABLES.items())
                         + f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
        return
    if found != expected:
        differ = "; ".join(f"table {n}: {', '.join(found[n]) if n in found else 'missing'}"
                           for n in sorted(set(found) | set(expected)) if found.get(n) != expected.get(n))
        want = "; ".join(f"{n} ({', '.join(cols)})" for n, cols in expected.items())
        raise StoreError(f"{path} does not hold this hexarena's tables ({differ}; this version has {want}): "
                         "a database of another version or another program; run the hexarena that wrote "
                         "it, or give --data a folder of this version's")
    if version == 0:                    # this version's tables, written before the version was kept
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def open_db(path: Path) -> sqlite3.Connection:
    """A connection to the ladder's database at `path` (made with its tables when missing, in WAL
    mode); StoreError naming the file when it is not this version's ladder database."""
    db: sqlite3.Connection | None = None
    try:
        with _named(path):
            db = _connect(path)
            _check_schema(path, db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            return db
    except BaseException:
        if db is not None:
            db.close()
        raise


class AccountError(ValueError):
    """An account cannot be made or changed as asked (the message says why)."""


def _hash(token: str, salt: bytes) -> bytes:
    return hashlib.scrypt(token.encode(), salt=salt, **SCRYPT)


_DUMMY_SALT = secrets.token_bytes(16)


class Store:
    """The ladder's SQLite file under `data` (created with its tables when missing); StoreError
    naming the file when it cannot be used."""

    def __init__(self, data: Path):
        data.mkdir(parents=True, exist_ok=True)
        self.path = data / DB_NAME
        self.db = open_db(self.path)

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
            with _named(self.path):
                self.db.execute("INSERT INTO accounts VALUES (?, ?, ?, ?)",
                                (name, salt, _hash(token, salt), time.time()))
        except StoreError as exc:
            if "UNIQUE" not in str(exc):
                raise
            raise AccountError(f"account {name!r} exists (revoke it first to give it a new token)") from None
        return token

    def revoke(self, name: str) -> None:
        """Delete account `name` (its games stay in the journals); AccountError if there is none."""
        with _named(self.path):
            if self.db.execute("DELETE FROM accounts WHERE name = ?", (name,)).rowcount == 0:
                raise AccountError(f"no account {name!r}")

    def names(self) -> list[str]:
        with _named(self.path):
            return [r[0] for r in self.db.execute("SELECT name FROM accounts ORDER BY name")]

    def salted(self, name: str) -> tuple[bytes, bytes] | None:
        """The salt and hash of account `name`, None when there is none (read on the event loop:
        a read waits for no writer in WAL mode)."""
        with _named(self.path):
            row = self.db.execute("SELECT salt, hash FROM accounts WHERE name = ?", (name,)).fetchone()
        return None if row is None else (row[0], row[1])


def token_matches(salted: tuple[bytes, bytes] | None, token: str) -> bool:
    """Whether `token` is the account's (`salted`: from :meth:`Store.salted`); an unknown account
    (None) costs the same hash and is never a match. CPU-bound: call it in a thread."""
    salt, stored = salted if salted is not None else (_DUMMY_SALT, b"")
    digest = _hash(token, salt)
    return hmac.compare_digest(digest, stored) and salted is not None


class Ledger:
    """The ``connections`` and ``games`` tables (the server's bookkeeping beside the journals), on
    a connection of their own. In the server every statement runs off the event loop through
    :meth:`call`, one at a time in the order asked; the methods themselves block (up to
    :data:`BUSY_SECONDS` on another process's lock) and raise StoreError naming the file."""

    def __init__(self, path: Path):
        self.path = path
        self.db = open_db(path)
        self.locked_at: float | None = None   # when the last statement found the file locked
        self._turn: Any = None        # a trio.Lock, made at the first call

    def close(self) -> None:
        self.db.close()

    async def call(self, method: Callable[..., T], *args: Any, wait: bool = True) -> T:
        """`method(*args)` in a worker thread, after every call asked before it. With `wait`
        False (bookkeeping that may be skipped), LedgerBusy at once when a statement found the file
        locked less than :data:`BUSY_SECONDS` ago."""
        import trio
        if self._turn is None:
            self._turn = trio.Lock()
        if not wait and self.locked_at is not None and time.monotonic() - self.locked_at < BUSY_SECONDS:
            raise LedgerBusy(f"{self.path} is locked by another process")
        async with self._turn:
            try:
                result = await trio.to_thread.run_sync(method, *args)
            except LedgerBusy:
                self.locked_at = time.monotonic()
                raise
        self.locked_at = None
        return result

    def _run(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        with _named(self.path):
            return self.db.execute(sql, args)

    def opened(self, account: str, peer: str) -> int:
        return int(self._run("INSERT INTO connections (account, peer, opened) VALUES (?, ?, ?)",
                             (account, peer, time.time())).lastrowid or 0)

    def closed(self, row: int, how: str) -> None:
        self._run("UPDATE connections SET closed = ?, how = ? WHERE id = ?", (time.time(), how[:200], row))

    def started(self, game: str, pool: str, first: str, second: str) -> None:
        """Record `game` as playing; StoreError when the ledger holds that id already (never
        overwritten) or cannot be written."""
        try:
            self._run("INSERT INTO games VALUES (?, ?, ?, ?, ?, 'playing')", (game, pool, first, second, time.time()))
        except StoreError as exc:
            if "UNIQUE" not in str(exc):
                raise
            raise StoreError(f"{self.path} holds a game {game} already: its row is kept, this game is not "
                             "started, and the pool's next game takes the next number") from None

    def ended(self, game: str, state: str) -> None:
        self._run("UPDATE games SET state = ? WHERE id = ?", (state, game))

    def orphans(self) -> list[tuple[str, str, str, str]]:
        """(game id, pool, first, second) of every game still marked playing: in flight when the
        server stopped."""
        return list(self._run("SELECT id, pool, first, second FROM games WHERE state = 'playing'"))

    def ids(self, pool: str) -> list[str]:
        """The ids of every game of `pool` the ledger holds."""
        return [r[0] for r in self._run("SELECT id FROM games WHERE pool = ?", (pool,))]
