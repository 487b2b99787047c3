"""The bridges' connections: login, bounds, and the remote engines they play through.

Each WebSocket passes, in order: the total bound (:attr:`Bounds.connections`), the login message
within :attr:`Bounds.login_seconds` (account and token, checked against the salted hash off the
event loop, the same work for an unknown account), the account's bound, the pools asked for.
Each refusal is a ``refused`` message saying why, then a close (code 4001 at login, 4008 for a
bound passed later), and a line on the server's stderr naming the peer. Nothing is allocated for
a connection before its login is accepted but the socket itself.

Once in, a connection (:class:`Link`) is idle until a round pairs it; it then relays the HGP of
its game. Messages are bounded in size (the WebSocket layer's `message_bytes`) and in rate (a
token bucket of `burst` messages refilled at `messages_per_second`; the answer to a command in
flight is free, the server having asked for it), and a connection silent for
`idle_seconds` is closed. When a connection drops during a game, the game goes on: its engine
waits, its clock running, for the account to come back (:meth:`Hub.login` reattaches it).

A login holds for as long as the account keeps the token it logged in with: every
:data:`RECHECK` seconds (:meth:`Hub.watch`, reading the accounts in a worker thread) each
connection and each game in flight whose account was revoked, or revoked and made again with a
new token, is ended: the connection closed with a refusal saying so (code 4001: the bridge
exits), the game lost by that account as a crash is (rated, the reason saying the account was
revoked).
"""
from __future__ import annotations

import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

import trio

from hexarena.referee.engines.channel import EngineChannel
from hexarena.results.record.game import VoidCause

from . import wire
from .accounts import Ledger, LedgerBusy, Store, StoreError, token_matches
from .config import LadderConfig
from .remote import RemoteEngine, RemoteReceive, RemoteSend
from .sockets import Gone, Socket
from .wire import WireError


T = TypeVar("T")

#: Seconds a connection of an account gets to answer a ping when a new one of the same account
#: logs in while it holds a game: past them, the new connection takes the game over.
STALE = 2.0
#: Seconds a connection that said its engine failed (``crashed``) is not paired unless it sends a
#: message first (the bridge pings once its fresh engine runs).
RESTARTING = 60.0
#: Seconds between two checks that each logged-in account still has the token it logged in with.
RECHECK = 1.0


class Refused(Exception):
    """A connection is refused (the message says why); `code` is the close code."""

    def __init__(self, message: str, code: int = wire.REFUSED, account: str | None = None, retry: bool = False):
        super().__init__(message)
        self.code, self.account, self.retry = code, account, retry


class Link:
    """One logged-in bridge connection."""

    def __init__(self, ws: Socket, account: str, peer: str, pools: set[str], identity: tuple[str, str],
                 salted: tuple[bytes, bytes] | None = None):
        self.ws, self.account, self.peer, self.pools, self.identity = ws, account, peer, pools, identity
        self.salted = salted                            # the account's salt and hash when it logged in
        self.ended: str | None = None                   # why the server closed it, when it did
        self.engine: RemoteEngine | None = None       # the game in hand
        self.draining = False
        self.welcomed = False                           # no round pairs it before its welcome is sent
        self.restarting: float | None = None            # when it said its engine failed (cleared by its next message)
        self._lock = trio.Lock()

    async def send(self, text: str) -> None:
        async with self._lock:
            await self.ws.send_text(text)

    async def refuse(self, reason: str) -> None:
        """Close the connection with a ``refused`` message saying why (the bridge exits)."""
        async with self._lock:
            await _close(self.ws, reason, wire.REFUSED)

    def idle_in(self, pool: str) -> bool:
        return (self.engine is None and self.welcomed and not self.draining and pool in self.pools
                and (self.restarting is None or trio.current_time() - self.restarting > RESTARTING))


class Hub:
    """Every connection of the server and every remote engine of a game in flight."""

    def __init__(self, config: LadderConfig, store: Store, ledger: Ledger, log: Callable[[str], None] | None = None):
        self.config, self.store, self.ledger = config, store, ledger
        self.bounds = config.bounds
        self.links: list[Link] = []
        self.open = 0                               # sockets accepted, logged in or not
        self.engines: dict[str, RemoteEngine] = {}  # "game/account" -> engine
        self.claims: dict[str, Link] = {}           # "game/account" -> the connection paired for it
        self.hashing = trio.CapacityLimiter(2)
        #: (account, pool) -> (engine identity, why): an engine that could not play the pool is not
        #: paired in it again while the account runs the same engine (name and version).
        self.barred: dict[tuple[str, str], tuple[tuple[str, str], str]] = {}
        self.log = log or (lambda s: print(f"ladder: {s}", file=sys.stderr, flush=True))

    # -- the endpoint ----------------------------------------------------------------------

    async def endpoint(self, ws: Socket) -> None:
        peer = ws.peer
        self.open += 1
        link: Link | None = None
        row: int | None = None                 # the ledger's row, once logged in (a refusal writes nothing)
        how = "closed"
        try:
            if self.open > self.bounds.connections:
                raise Refused(f"the server holds its most connections ({self.bounds.connections}); try later",
                              wire.BOUND, retry=True)
            link = await self._login(ws, peer)      # from here, it leaves (below) however it ends
            row = await self._book(self.ledger.opened, link.account, peer)
            await self._welcome(link)
            await self._serve(link)
        except Refused as exc:
            how = f"refused: {exc}"
            who = repr(link.account) if link is not None else repr(exc.account) if exc.account else "a connection"
            self.log(f"refused {who} from {peer}: {exc}")
            await _close(ws, str(exc), exc.code, exc.retry)
        except (Gone, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            why = exc.why if isinstance(exc, Gone) else None      # the WebSocket layer closed it, saying why
            how = link.ended if link is not None and link.ended else f"closed: {why}" if why else "disconnected"
            if why:
                who = repr(link.account) if link is not None else "a connection"
                self.log(f"closed {who} from {peer}{'' if link else ' before its login'}: {why}")
            elif link is None:      # closed by its peer
                self.log(f"a connection from {peer} closed before its login")
        finally:
            self.open -= 1
            if link is not None:
                self._leave(link)
            if row is not None:
                await self._book(self.ledger.closed, row, how)

    async def _book(self, method: Callable[..., T], *args: object) -> T | None:
        """A connection's row in the ledger, off the event loop; skipped (None) when the ledger
        cannot be written: a locked file is said by the pools that cannot start games, any other
        failure here."""
        try:
            return await self.ledger.call(method, *args, wait=False)
        except LedgerBusy:
            return None
        except StoreError as exc:
            self.log(f"a connection's row is not in the ledger: {exc}")
            return None

    async def _login(self, ws: Socket, peer: str) -> Link:
        data = None
        with trio.move_on_after(self.bounds.login_seconds):
            try:
                data = wire.load(await ws.receive_text())
            except (WireError, KeyError) as exc:
                raise Refused(f"the first message must be a login: {exc}") from None
        if data is None:
            raise Refused(f"no login within {self.bounds.login_seconds:g} s")
        try:
            login = wire.read_login(data)
        except WireError as exc:
            raise Refused(f"bad login: {exc}") from None
        account, token, asked, games = login.account, login.token, login.pools, login.games
        name, version = login.name, login.version
        salted = self.store.salted(account)
        async with self.hashing:
            ok = await trio.to_thread.run_sync(token_matches, salted, token)
        if not ok:
            raise Refused("unknown account or wrong token: check --account, and that the token is the one "
                          "`hexarena ladder account add` printed for it (the server's operator makes accounts)",
                          account=account)
        ws.logged_in(account)                   # its frames count against the account's budget, not its address's
        mine = [l for l in self.links if l.account == account]
        if len(mine) >= self.bounds.per_account and not await self._room(mine):
            raise Refused(f"account {account!r} already has {len(mine)} connection(s), the most allowed, "
                          "and each answers: stop one of its bridges first", account=account)
        pools = self._pools(account, asked, games, (name, version))
        link = Link(ws, account, peer, pools, (name, version), salted)
        self.links.append(link)
        self.log(f"{account} logged in from {peer} ({name} {version}; pools {', '.join(sorted(pools))})")
        return link

    async def _welcome(self, link: Link) -> None:
        """The welcome, and the game the account left running, if one waits for it: one no
        connection holds, or one held by a connection of the account that no longer answers a
        ping (frozen, or half-open after a network change: it is dropped, and the game moves)."""
        waiting = self._waiting(link) or await self._stale_game(link)
        await link.send(wire.dump("welcome", pools=sorted(link.pools), resume=waiting.game if waiting else None))
        if waiting is not None:
            await self._attach(link, waiting, resume=True)
        link.welcomed = True

    def _pools(self, account: str, asked: list[str], games: list[str], identity: tuple[str, str]) -> set[str]:
        known = {p.name: p for p in self.config.pools}
        for name in asked:
            if name not in known:
                raise Refused(f"no pool {name!r} (pools: {', '.join(known)})")
        chosen = [known[n] for n in asked] or [p for p in known.values() if p.game in games]
        unplayable = [p.name for p in chosen if self.barred.get((account, p.name), ((), ""))[0] == identity]
        if unplayable and (asked or len(unplayable) == len(chosen)):
            why = self.barred[(account, unplayable[0])][1]
            raise Refused(f"pool {unplayable[0]!r}: this engine could not play it ({why}); fix the engine "
                          "(and give it a new name or version) or choose other pools")
        chosen = [p for p in chosen if p.name not in unplayable]
        for p in chosen:
            if p.game not in games:
                raise Refused(f"pool {p.name!r} plays {p.game}, which the engine does not list in list_games")
            if account in p.anchors:
                raise Refused(f"account {account!r} has the name of an anchor of pool {p.name!r}")
        if not chosen:
            offered = ", ".join(f"{p.name} ({p.game})" for p in known.values())
            raise Refused(f"the engine plays none of the pools' games (pools: {offered}; its list_games: "
                          f"{', '.join(games) or 'none'})")
        return {p.name for p in chosen}

    async def _serve(self, link: Link) -> None:
        b = self.bounds
        tokens, last = float(b.burst), trio.current_time()
        while True:
            with trio.move_on_after(b.idle_seconds) as idle:
                text = await link.ws.receive_text()
            if idle.cancelled_caught:
                raise Refused(f"no message for {b.idle_seconds:g} s", wire.BOUND)
            try:
                solicited = await self._message(link, wire.from_bridge(wire.load(text), b.message_bytes))
            except WireError as exc:
                raise Refused(f"bad message: {exc}", wire.BOUND) from None
            now = trio.current_time()
            tokens = min(float(b.burst), tokens + (now - last) * b.messages_per_second) - (not solicited)
            last = now
            if tokens < 0:
                raise Refused(f"more than {b.messages_per_second:g} messages a second", wire.BOUND)

    async def _message(self, link: Link, data: dict) -> bool:
        """Act on one message; True for the answer to a command in flight (the server asked for
        it, so it does not count against the rate bound)."""
        kind = data["t"]
        if kind == "drain":
            link.draining = True
        # a connection whose engine failed is paired again at its next message (its fresh engine runs)
        link.restarting = trio.current_time() if kind == "crashed" else None
        engine = link.engine
        if kind == "ping":
            await link.send(wire.dump("pong"))          # the bridge knows the server is there
        if kind in ("ping", "drain") or engine is None or data["game"] != engine.game:
            return False                                 # a late word about a game already over
        if kind == "crashed":
            engine.crash(data["why"])
            return False
        return engine.answer(data["text"])

    def _leave(self, link: Link) -> None:
        if link in self.links:
            self.links.remove(link)
        if link.engine is not None:
            link.engine.detach(link)
        self.log(f"{link.account} from {link.peer} left")

    # -- revocation ------------------------------------------------------------------------

    async def watch(self) -> None:
        """Every RECHECK seconds, end what logged in with a token its account no longer has
        (:meth:`_revoked`). The accounts are read in a worker thread, on a connection of its own."""
        reader: list[sqlite3.Connection] = []
        limiter = trio.CapacityLimiter(1)

        def read(accounts: set[str]) -> dict[str, tuple[bytes, bytes] | None]:
            if not reader:
                reader.append(sqlite3.connect(f"file:{self.store.path}?mode=ro", uri=True, check_same_thread=False))
            out: dict[str, tuple[bytes, bytes] | None] = {}
            for name in accounts:
                row = reader[0].execute("SELECT salt, hash FROM accounts WHERE name = ?", (name,)).fetchone()
                out[name] = None if row is None else (row[0], row[1])
            return out

        try:
            while True:
                await trio.sleep(RECHECK)
                accounts = {l.account for l in self.links} | {e.account for e in self.engines.values() if not e.ended}
                if not accounts:
                    continue
                try:
                    now = await trio.to_thread.run_sync(read, accounts, limiter=limiter)
                except sqlite3.Error as exc:
                    self.log(f"cannot read the accounts to check for revoked ones: {exc}")
                    continue
                await self._revoked(now)
        finally:
            if reader:
                reader[0].close()

    async def _revoked(self, now: dict[str, tuple[bytes, bytes] | None]) -> None:
        """End each game in flight and each connection whose account's salt and hash are no longer
        the ones it logged in with (`now`: the accounts' current ones; None: revoked)."""
        for engine in list(self.engines.values()):
            if engine.account in now and engine.salted != now[engine.account] and not engine.ended \
                    and not engine.forfeited:
                self.log(f"{engine.game}: lost by {engine.account}, whose account was revoked during the game")
                engine.forfeit(f"the account {engine.account!r} was revoked during the game")
        for link in list(self.links):
            if link.account not in now or link.salted == now[link.account]:
                continue
            why = (f"account {link.account!r} was revoked{' and given a new token' if now[link.account] else ''}"
                   ": this token no longer logs in")
            self.log(f"closed {link.account!r} from {link.peer}: {why}")
            link.ended = f"refused: {why}"
            await self._drop(link, why)

    # -- games -----------------------------------------------------------------------------

    def idle(self, pool: str) -> list[Link]:
        """One idle connection per account in `pool` (an account never meets itself), none of an
        account playing a game of `pool` already (one game at a time per account and pool)."""
        taken = {e.account for e in self.engines.values() if e.pool == pool}
        idle = []
        for link in self.links:
            if link.idle_in(pool) and link.account not in taken:
                taken.add(link.account)
                idle.append(link)
        return idle

    def claim(self, link: Link, game: str, pool: str) -> None:
        """Take `link` for a game about to start (so no other round pairs it)."""
        engine = RemoteEngine(link.account, game, pool)
        engine.salted = link.salted
        self.engines[f"{game}/{link.account}"] = engine
        self.claims[f"{game}/{link.account}"] = link
        link.engine = engine

    def _waiting(self, link: Link) -> RemoteEngine | None:
        """The game the account left running, if one waits for a bridge in the link's pools."""
        return next((e for e in self.engines.values() if e.account == link.account and e.link is None
                     and not e.ended and e.pool in link.pools and e.salted == link.salted), None)

    async def _stale_game(self, link: Link) -> RemoteEngine | None:
        """The game in the link's pools that another connection of its account holds without
        answering a ping within STALE seconds; that connection is dropped (:meth:`_drop`) and
        the game detached from it, for `link` to take over."""
        for old in [l for l in self.links if l is not link and l.account == link.account and l.engine is not None
                    and not l.engine.ended and l.engine.pool in link.pools]:
            engine = old.engine
            if engine is None or await old.ws.answers_ping(STALE) or old.engine is not engine:
                continue                    # alive: it keeps its game; or the game ended, or moved, meanwhile
            self.log(f"{old.account} from {old.peer} does not answer: {link.peer} takes over {engine.game}")
            await self._drop(old, f"{engine.game} moved to a new connection of the account")
            return engine
        return None

    async def _room(self, mine: list[Link]) -> bool:
        """Whether a login of an account holding its most connections (`mine`) may come in: one of
        them does not answer a ping within STALE seconds (a frozen bridge, a half-open connection)
        and is dropped; its game, if any, waits for the new connection (:meth:`_welcome`)."""
        for old in mine:
            if old in self.links and not await old.ws.answers_ping(STALE):
                self.log(f"{old.account} from {old.peer} does not answer: a new connection of the account takes its place")
                await self._drop(old, "a new connection of the account took its place")
                return True
        return False

    async def _drop(self, old: Link, why: str) -> None:
        """Take `old` out: no round pairs it, its game (if any) is detached from it, and it is
        closed with `why` (awaited STALE seconds at most)."""
        engine, old.engine, old.draining = old.engine, None, True
        if engine is not None:
            engine.detach(old)
        if old in self.links:
            self.links.remove(old)
        with trio.move_on_after(STALE):
            await old.refuse(why)

    async def _attach(self, link: Link, engine: RemoteEngine, resume: bool) -> None:
        link.engine = engine

        async def send(line: str, within: float) -> None:
            try:
                await link.send(wire.dump("command", game=engine.game, line=line, within=round(within, 3)))
            except Gone:
                engine.detach(link)          # the line stays pending: sent again when the account is back

        engine.attach(link, send)
        spec = self.config.pool(engine.pool)
        assert spec is not None
        await link.send(wire.dump("game", game=engine.game, pool=engine.pool, resume=engine.replay() if resume else None))
        if resume:
            self.log(f"{link.account} resumes {engine.game} from {link.peer}")
            if engine.pending is not None:
                await send(engine.pending, max(0.0, engine.deadline - trio.current_time()))

    @asynccontextmanager
    async def remote(self, account: str, game: str, pool: str) -> AsyncIterator[EngineChannel]:
        """The channel to `account`'s engine for `game` (its link claimed by :meth:`claim`)."""
        key = f"{game}/{account}"
        engine = self.engines[key]
        link = next((l for l in self.links if l.engine is engine), None)
        try:
            if link is not None:
                try:
                    await self._attach(link, engine, resume=False)
                except Gone:
                    engine.detach(link)           # the account may come back within the start deadline
            channel = EngineChannel(RemoteSend(engine), RemoteReceive(engine), account)
            engine.on_crash = channel.engine_exited
            yield channel
        finally:
            self.release(game, account)

    def release(self, game: str, account: str) -> None:
        """End `account`'s part in `game`: its connection is idle again (also when the game never
        opened its seat: the other seat failed first)."""
        engine = self.engines.pop(f"{game}/{account}", None)
        if engine is None:
            return
        engine.ended = True
        for link in self.links:
            if link.engine is engine:
                link.engine = None

    def finish(self, game: str, account: str) -> None:
        """After `game` and its void (if it was), the end of `account`'s part: released, its claim forgotten."""
        self.release(game, account)
        self.claims.pop(f"{game}/{account}", None)

    async def void(self, game: str, pool: str, cause: VoidCause | None, faulty: str | None, reason: str) -> None:
        """After `game` of `pool` was void by `faulty`'s fault: an account whose engine cannot play the
        pool (cause ``unsupported``) is not paired in it again while it runs the same engine, and a
        connection left with no pool is closed with the reason; a connection that did not relay its
        engine's start (cause ``start``) while connected is closed. So a bridge that cannot play
        costs its opponents one void game, not one a round."""
        if faulty is None or cause not in (VoidCause.UNSUPPORTED, VoidCause.START):
            return
        claimed = self.claims.get(f"{game}/{faulty}")
        for link in [l for l in self.links if l.account == faulty and pool in l.pools]:
            if cause is VoidCause.START and link is not claimed:
                continue                    # another connection of the account: not the one that failed
            if cause is VoidCause.START:
                why = f"{game}: the bridge did not relay its engine's start ({reason})"
            else:
                self.barred[(faulty, pool)] = (link.identity, reason)
                link.pools.discard(pool)
                self.log(f"{faulty}: not paired in {pool} again with {' '.join(link.identity).strip() or 'its engine'}:"
                         f" {reason}")
                if link.pools:
                    continue
                why = f"the engine cannot play pool {pool!r} ({reason}) and no other pool is left"
            self.log(f"closed {faulty!r} from {link.peer}: {why}")
            await link.refuse(why)

    async def ended(self, record_line: str, game: str, accounts: list[str]) -> None:
        """Tell the accounts' connections how `game` ended (best effort)."""
        for link in list(self.links):
            if link.account in accounts:
                with trio.move_on_after(5):
                    try:
                        await link.send(record_line)
                    except Gone:
                        pass


async def _close(ws: Socket, reason: str, code: int, retry: bool = False) -> None:
    """Send a ``refused`` message saying why (with ``retry``: for now only, the bridge tries
    again later), then close with `code` and the reason's start (a bridge busy with its engine
    may see the close before it reads the message)."""
    with trio.move_on_after(2):
        try:
            await ws.send_text(wire.dump("refused", reason=reason, **({"retry": True} if retry else {})))
            await ws.close(code, reason)
        except Gone:
            pass
