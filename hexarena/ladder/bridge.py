"""``hexarena connect``: the bridge between a local engine and a ladder server.

It starts the engine and checks it as the pre-flight does (``protocol_version`` 2, ``name``,
``version``, ``list_games``), logs in with the account's token, then relays each HGP command
of the server to the engine and its answer back, one game at a time. Each finished game's SGF
(the referee's record, sent by the server) is kept in OUT/games/ and told in one line on stdout.

* The connection drops: it connects again after 1, 2, 4 ... 30 s (with jitter); the server keeps
  the game and its clock and, once the bridge is back, restores the engine's position (the
  ``game`` message's replay lines, sent after a fresh ``clear_board``) and sends the command in
  flight again.
* The engine crashes, stops answering, or breaks the protocol: the bridge says so to the server
  (that game is lost) and starts a fresh engine for the next. An engine still thinking when its
  game ends (lost on time) is replaced at once, as soon as the game's end arrives.
* Ctrl-C (or SIGTERM): finish the game in hand, then stop (exit 0); a second Ctrl-C stops at
  once (exit 130): the game in hand is then lost as a disconnect is, on time. While the
  connection is down (the server gone, the network lost) no game can be finished: a stop request
  then stops at once (exit 0, or 130 with a game in hand), its engine stopped, as does a
  connection lost after one; after SIGTERM the game in hand has :data:`TERM_GRACE` seconds.

Exit status: 0 done, 1 the engine failed its check, 2 refused by the server.
"""
from __future__ import annotations

import math
import random
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import trio
from trio_websocket import ConnectionClosed, ConnectionRejected, HandshakeError, WebSocketConnection, open_websocket_url

from hexarena.protocol.controller import CommandFailed, ControllerError
from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.engines.groups import sole
from hexarena.referee.engines.process import EngineStartFailed, open_engine
from hexarena.results.record.journal import write_atomic

from . import wire
from .wire import WireError

PING = 20.0             # seconds between pings while idle (the server's idle bound is larger)
START = 30.0            # seconds for the engine's first answer
ASK = 10.0              # seconds for each pre-flight command
SLACK = 10.0            # seconds past the server's deadline before the bridge gives up on its engine
MAX_BACKOFF = 30.0      # seconds between two tries to connect, at most
WELCOME = 30.0          # seconds for the server's answer to the login
SILENT = 3 * PING       # seconds without a message of the server (it answers each ping) before reconnecting
MAX_OPEN = 16           # games begun whose end is not told yet, at most (a server sends one at a time)
MAX_ANSWER = 60_000     # bytes of one answer relayed (the server's default message bound is 65,536)
TERM_GRACE = 60.0       # seconds SIGTERM leaves the game in hand before the bridge stops at once
MAX_QUEUED = 64         # messages of the server read and not yet acted on (one command at a time comes)


class Refused(Exception):
    """The server refused this bridge (the message says why); `retry`: for now only (it was full)."""

    def __init__(self, message: str, retry: bool = False):
        super().__init__(message)
        self.retry = retry


class EngineFailed(Exception):
    """The engine failed its check (the message says how)."""


@dataclass(frozen=True)
class Options:
    url: str
    account: str
    token: str
    argv: tuple[str, ...]
    out: Path
    pools: tuple[str, ...] = ()
    games: int | None = None


class Engine:
    """The local engine process: started, checked, restarted after a crash. The process lives in
    a task of `nursery` (so that it is opened and closed in one task's scope)."""

    def __init__(self, argv: tuple[str, ...], out: Path):
        self.argv, self.out = argv, out
        self.channel: EngineChannel | None = None
        self.nursery: trio.Nursery | None = None
        self._stop: trio.Event | None = None
        self._gone: trio.Event | None = None
        self.identity = ("", "")
        self.games: list[str] = []

    async def _hold(self, log: Path, task_status: trio.TaskStatus[EngineChannel]) -> None:
        stop, gone = trio.Event(), trio.Event()
        self._stop, self._gone = stop, gone
        try:
            async with open_engine(list(self.argv), log, "engine") as channel:
                task_status.started(channel)
                await stop.wait()
        finally:
            gone.set()

    async def start(self) -> None:
        """Start and check the engine; EngineFailed saying what went wrong."""
        await self.stop()
        assert self.nursery is not None
        log = self.out / "logs" / "engine.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.channel = ch = await self.nursery.start(self._hold, log)
            version = await ch.command("protocol_version", deadline=trio.current_time() + START)
            if version.strip() != "2":
                raise EngineFailed(f"protocol_version answers {version!r}, expected 2")
            self.identity = (await self._optional("name"), await self._optional("version"))
            self.games = (await ch.command("list_games", deadline=trio.current_time() + ASK)).split()
        except (EngineStartFailed, ControllerError) as exc:
            await self.stop()
            raise EngineFailed(f"{exc} ({f'its stderr: {log}' if log.exists() else 'no stderr'})") from None
        except EngineFailed:
            await self.stop()
            raise

    async def _optional(self, name: str) -> str:
        assert self.channel is not None
        try:
            return (await self.channel.command(name, deadline=trio.current_time() + ASK)).strip()[:100]
        except CommandFailed:
            return ""

    async def stop(self) -> None:
        """Close the engine (quit, then terminate), if one runs."""
        self.channel = None
        if self._stop is not None and self._gone is not None:
            self._stop.set()
            with trio.CancelScope(shield=True):
                await self._gone.wait()
        self._stop = self._gone = None


class Bridge:
    """One bridge's life: connections, games, and the engine."""

    def __init__(self, options: Options, say: Callable[[str], None]):
        self.o, self.say = options, say
        self.engine = Engine(options.argv, options.out)
        self.draining = False
        self.stopping = False           # a signal asked the bridge to stop
        self.welcomed = False           # the current connection was welcomed
        self.started = 0                # games begun
        self.finished = 0
        self.game: str | None = None    # the game in hand (the last begun)
        self.open: set[str] = set()     # games begun whose end is not told yet
        self.ws: WebSocketConnection | None = None
        self.stop_now = trio.CancelScope()
        self._thinking: trio.CancelScope | None = None     # the engine's wait for an answer, while it lasts
        self._ended_meanwhile = False   # the game's end came during that wait
        self.restarting = False         # a fresh engine is starting after a failure (no ping meanwhile)

    def done(self) -> bool:
        return self.draining and not self.open

    async def run(self) -> int:
        status = 130                    # unless _run returns: stopped at once by a second Ctrl-C
        async with trio.open_nursery() as nursery:
            self.engine.nursery = nursery
            self.stop_now = nursery.cancel_scope
            try:
                status = await self._run(nursery)
            finally:
                await self.engine.stop()
            nursery.cancel_scope.cancel()
        return status

    async def _run(self, nursery: trio.Nursery) -> int:
        try:
            await self.engine.start()
        except EngineFailed as exc:
            self.say(f"error: the engine failed its check: {exc}")
            return 1
        self.say(f"engine: {' '.join(self.engine.identity).strip() or '(no name)'}; "
                 f"games: {', '.join(self.engine.games)}")
        with trio.CancelScope() as scope:
            nursery.start_soon(self._signals, scope)
            return await self._connections()
        return 0

    async def _signals(self, scope: trio.CancelScope) -> None:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            deadline = math.inf             # TERM_GRACE after a SIGTERM
            while True:
                with trio.move_on_at(deadline):
                    signum = await signals.__anext__()
                    if self.stopping:
                        self.say("stopping now")
                        self._stop_now()
                        return
                    self.draining = self.stopping = True
                    if self.ws is None or not self.welcomed:    # no game can be finished while the connection is down
                        self.say("not connected: stopping now")
                        self._stop_now() if self.open else scope.cancel()
                        return
                    self.say("finishing the game in hand, then stopping (Ctrl-C again: stop now)")
                    if signum == signal.SIGTERM:
                        deadline = trio.current_time() + TERM_GRACE
                    try:
                        await self.ws.send_message(wire.dump("drain"))
                    except ConnectionClosed:
                        pass
                    if not self.open:
                        scope.cancel()
                    continue
                self.say(f"the game in hand did not end within {TERM_GRACE:g} s of SIGTERM: stopping now")
                self._stop_now()
                return

    def _stop_now(self) -> None:
        self.stop_now.cancel()
        if self._thinking is not None:
            self._thinking.cancel()

    async def _connections(self) -> int:
        backoff = 1.0
        while not self.done():
            self.welcomed = False
            try:
                try:
                    await self._connection()
                    return 0
                except BaseExceptionGroup as group:       # trio wraps what leaves a nursery
                    raise sole(group) from None
            except Refused as exc:
                if not exc.retry:
                    self.say(f"error: refused by the server: {exc}")
                    return 2
                why: BaseException = exc
            except EngineFailed as exc:
                self.say(f"error: {exc}")
                return 1
            except (OSError, HandshakeError, ConnectionClosed, trio.TooSlowError) as exc:
                if isinstance(exc, ConnectionClosed) and exc.reason is not None and exc.reason.code == wire.REFUSED:
                    self.say(f"error: refused by the server: {exc.reason.reason or 'no reason given'}")
                    return 2
                if isinstance(exc, ConnectionRejected) and 400 <= exc.status_code < 500 \
                        and exc.status_code not in (408, 429):      # no server of bridges there: trying again won't help
                    self.say(f"error: {self.o.url} is no ladder's address for bridges ({_why(exc)}); the server "
                             f"prints it at its start, and its pages show it (ws://HOST:PORT{wire.PATH})")
                    return 2
                why = exc
            self.ws = None
            if self.done():
                break
            if self.stopping:               # asked to stop: the game in hand cannot be finished now
                self.say(f"connection to {self.o.url} lost ({_why(why)}): stopping now")
                return 130 if self.open else 0
            if self.welcomed:               # it was connected: a new loss starts the waits again
                backoff = 1.0
            wait = min(MAX_BACKOFF, backoff * (0.75 + random.random() / 2))
            self.say(f"connection to {self.o.url} lost ({_why(why)}); again in {wait:.1f} s")
            await trio.sleep(wait)
            backoff = min(backoff * 2, MAX_BACKOFF)
        return 0

    async def _connection(self) -> None:
        """One connection: login, then games until the bridge is done."""
        async with open_websocket_url(self.o.url, max_message_size=1 << 22, connect_timeout=10) as ws:
            self.ws = ws
            await self._login(ws)
            await self._session(ws)

    async def _login(self, ws) -> None:
        name, version = self.engine.identity
        await ws.send_message(wire.dump("login", version=wire.VERSION, account=self.o.account, token=self.o.token,
                                        pools=list(self.o.pools), games=self.engine.games, name=name,
                                        engine_version=version))
        try:
            with trio.fail_after(WELCOME):
                reply = wire.from_server(wire.load(await ws.get_message()))
        except WireError as exc:
            raise Refused(f"unexpected answer to the login: {exc}") from None
        except trio.TooSlowError:
            raise trio.TooSlowError(f"no answer to the login within {WELCOME:g} s") from None
        if reply["t"] == "refused":
            raise Refused(reply["reason"], reply["retry"])
        if reply["t"] != "welcome":
            raise Refused(f"unexpected answer to the login: {reply['t']!r}")
        self.welcomed = True
        self.say(f"connected as {self.o.account} to {self.o.url} (pools: {', '.join(reply['pools'])})")
        for game in sorted(self.open - {reply.get("resume")}):
            self.open.discard(game)           # void at the server's restart, or lost on time meanwhile
            self.say(f"{game}: not resumed by the server (void if it restarted, else lost while away)")
        if self.draining:
            await ws.send_message(wire.dump("drain"))

    async def _session(self, ws) -> None:
        """The server's messages, read as they come (so that a game's end is seen while the engine
        still thinks: :meth:`_read`) and acted on one at a time."""
        send, receive = trio.open_memory_channel[dict](MAX_QUEUED)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._ping, ws)
                nursery.start_soon(self._read, ws, send)
                while not self.done():
                    await self._message(ws, await receive.receive())
                nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:   # the reader and the relay both met the lost connection
            raise _first(group) from None

    async def _read(self, ws, send: trio.MemorySendChannel[dict]) -> None:
        """Each message of the server, checked, to `send`; the end of the game whose command the
        engine is still thinking about stops that wait at once (:meth:`_command`)."""
        while True:         # it ends in an exception, which cancels the relay (`send` stays open)
            try:
                with trio.fail_after(SILENT):
                    text = await ws.get_message()
            except trio.TooSlowError:
                raise trio.TooSlowError(f"nothing from the server for {SILENT:g} s") from None
            try:
                data = wire.from_server(wire.load(text))
            except WireError as exc:
                self.say(f"warning: ignored a message of the server: {exc}")
                continue
            if data["t"] == "refused":           # the connection closes: no answer is of use now
                if self._thinking is not None:
                    self._thinking.cancel()
                raise Refused(data["reason"], data["retry"])
            if data["t"] == "end" and self._thinking is not None and data["game"] == self.game:
                self._ended_meanwhile = True
                self._thinking.cancel()
            await send.send(data)

    async def _ping(self, ws) -> None:
        """A ping every PING seconds, none while the engine starts again: the server pairs a
        connection that said its engine failed only at its next message (:meth:`_crashed`)."""
        while True:
            await trio.sleep(PING)
            if not self.restarting:
                await ws.send_message(wire.dump("ping"))

    async def _message(self, ws, data: dict) -> None:
        kind = data["t"]                # a refusal never comes here: _read raises it
        if kind == "game":
            await self._begin(ws, data["game"], data["resume"])
        elif kind == "command" and data["game"] == self.game:
            await self._command(ws, data["line"], data["within"])
        elif kind == "end":
            self._end(data)

    async def _begin(self, ws, game: str, resume: list[str] | None) -> None:
        fresh = game not in self.open
        if fresh and len(self.open) >= MAX_OPEN:
            self.say(f"warning: ignored {game}: {len(self.open)} games begun and not ended (a server sends one at a time)")
            return
        self.game = game
        if fresh:
            self.open.add(game)
            self.started += 1
            if self.o.games is not None and self.started >= self.o.games:
                self.draining = True
                await ws.send_message(wire.dump("drain"))
        if resume is not None:
            self.say(f"{game}: resuming ({len(resume)} command(s) to restore the position)")
            try:
                for words in filter(None, (line.split() for line in resume)):
                    await self._channel().command(*words, deadline=trio.current_time() + ASK)
            except (ControllerError, EngineFailed) as exc:
                await self._crashed(ws, f"could not restore the position: {exc}")

    def _channel(self) -> EngineChannel:
        if self.engine.channel is None:
            raise EngineFailed("no engine")
        return self.engine.channel

    async def _command(self, ws, line: str, within: float) -> None:
        words = line.split()
        cid = words.pop(0) if words and words[0].isdigit() else ""
        if not words:
            return
        # shielded: a lost connection does not cut the engine's answer off (its channel would then
        # read it as the next command's); the game's end (_read) and a second Ctrl-C do
        self._thinking = thinking = trio.CancelScope(shield=True)
        self._ended_meanwhile = False
        try:
            with thinking:
                text = await self._channel().command(*words, deadline=trio.current_time() + within + SLACK)
                answer = f"={cid} {text}" if text else f"={cid}"
        except CommandFailed as exc:
            answer = f"?{cid} {exc.message}"
        except (ControllerError, EngineFailed) as exc:
            await self._crashed(ws, str(exc))
            return
        finally:
            self._thinking = None
        if self._ended_meanwhile:           # the game ended meanwhile (lost on time): the engine is stale
            await self._crashed(ws, f"it was still busy with {words[0]} when the game ended", lost=False)
            return
        if thinking.cancelled_caught:       # refused, or a second Ctrl-C: the bridge stops
            return
        if len(answer.encode()) > MAX_ANSWER:
            await self._crashed(ws, f"an answer of {len(answer.encode())} bytes, more than the server takes")
            return
        await ws.send_message(wire.dump("answer", game=self.game, text=answer + "\n\n"))

    async def _crashed(self, ws, why: str, lost: bool = True) -> None:
        """Tell the server the engine failed in the game in hand (`lost`: the game is lost by it,
        else it had ended already), start a fresh engine, then ping: the server pairs this
        connection again at its next message, so no game starts while the engine does."""
        self.say(f"{self.game}: the engine failed ({why}); {'the game is lost, ' if lost else ''}"
                 "starting a fresh engine")
        self.restarting = True
        try:
            await ws.send_message(wire.dump("crashed", game=self.game, why=why[:300]))
            await self.engine.start()
        except EngineFailed as exc:
            raise EngineFailed(f"the restarted engine failed its check: {exc}") from None
        finally:
            self.restarting = False
        await ws.send_message(wire.dump("ping"))

    def _end(self, data: dict) -> None:
        game = data["game"]
        if game not in self.open:
            return
        self.open.discard(game)
        if game == self.game:
            self.game = None
        self.finished += 1
        sgf = data["sgf"]
        where = ""
        if sgf and wire.safe_id(game):
            path = self.o.out / "games" / f"{game}.sgf"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(path, sgf)
                where = f" {path}"
            except OSError as exc:              # a full disk, a file in the way: the game is on the server
                where = f" (its record not saved: {exc.strerror or exc}: {exc.filename or path})"
        self.say(f"{game} {data['first']} - {data['second']}: {data['result']} ({data['reason']}){where}")


def _first(group: BaseExceptionGroup) -> BaseException:
    """The exception that says most of how a connection ended: a refusal, else an engine's
    failure, else the first one met."""
    leaves: list[BaseException] = []

    def flat(exc: BaseException) -> None:
        if isinstance(exc, BaseExceptionGroup):
            for inner in exc.exceptions:
                flat(inner)
        else:
            leaves.append(exc)
    flat(group)
    for kind in (Refused, EngineFailed):
        found = [e for e in leaves if isinstance(e, kind)]
        if found:
            return found[0]
    return next((e for e in leaves if not isinstance(e, trio.Cancelled)), leaves[0])


def _why(exc: BaseException) -> str:
    if isinstance(exc, ConnectionClosed):
        reason = exc.reason
        if reason is None:
            return "closed"
        return f"closed: {reason.name} {reason.code} {reason.reason or ''}".strip()
    if isinstance(exc, ConnectionRejected):
        body = (exc.body or b"").decode("utf-8", "replace")
        body = " ".join("".join(c if c.isprintable() else " " for c in body[:200]).split())
        return f"HTTP {exc.status_code}" + (f": {body}" if body else "")
    if isinstance(exc, HandshakeError):
        cause = exc.__cause__ or exc.__context__
        return f"WebSocket handshake failed: {cause or type(exc).__name__}"
    if isinstance(exc, trio.TooSlowError):
        return str(exc) or "timed out"
    return str(exc) or type(exc).__name__
