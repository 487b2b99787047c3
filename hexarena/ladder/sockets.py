"""The bridges' endpoint: a WebSocket server (trio-websocket's connections, accepted here) on a
port of its own, beside the pages.

Each connection is handed to :meth:`Hub.endpoint` as a :class:`Socket`. What one client can make
the server hold is bounded from the accept on, before any byte is read (:class:`Gate`): sockets
at once in all (`connections` + :data:`SPARE`, the spare ones refused by the hub with a message
saying the server is full; the whole fitted under the process's limit of open files, :func:`fit`),
and sockets of one address that have not logged in (`per_address`); past a bound the socket is
closed at once, and the log says so in one line every :data:`REPORT` seconds, not one a socket.
The opening handshake has :data:`HANDSHAKE` seconds. Then a message over `message_bytes` closes
the connection with code 1009 (message too big), one that is not UTF-8 text with 1007, at most
one received message waits unread (`message_queue_size`), and the frames that are not a whole
message (a fragment of one, a ping, a pong) are bounded like messages, `burst` at once refilled at
`messages_per_second`, per address before the login and per account after it, so that a new
connection starts with what the last one left: past them the connection is closed with 1008.
Each close of the WebSocket layer's says why to the hub (:class:`Gone`), which logs it.
"""
from __future__ import annotations

import errno
import resource
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace

import trio
from trio_websocket import CloseReason, ConnectionClosed, WebSocketConnection, WebSocketRequest
from wsproto import ConnectionType, WSConnection
from wsproto.connection import ConnectionState
from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage

from . import wire
from .config import Bounds

#: Seconds a client has to finish its WebSocket opening handshake.
HANDSHAKE = 5.0
#: Sockets beyond `connections` accepted only to be refused with a message (the server is full).
SPARE = 16
#: Seconds between two log lines about sockets closed at the accept (one line, however many).
REPORT = 10.0
#: Files the server keeps open besides its connections (the database, listeners, the pages'
#: clients), each pool's, and each connection's (its socket, its game's files and an anchor's pipes).
FILES_FIXED, FILES_PER_POOL, FILES_PER_CONNECTION = 100, 8, 4
#: Errors of accept() that say the process (or the system) is out of files or memory: it waits.
_OUT_OF = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


class Gone(Exception):
    """The connection is closed (by the peer or by the network); `why`: the WebSocket layer's
    reason when it closed it itself (a message too big, not UTF-8, too many frames)."""

    def __init__(self, why: str | None = None):
        super().__init__(why or "closed")
        self.why = why


def fit(bounds: Bounds, pools: int, log: Callable[[str], None]) -> Bounds:
    """`bounds` with `connections` fitted under the process's limit of open files (RLIMIT_NOFILE,
    raised up to its hard limit when that makes room), said by `log` when it is lowered."""
    need = FILES_FIXED + FILES_PER_POOL * pools + FILES_PER_CONNECTION * (bounds.connections + SPARE)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        try:
            soft = need if hard == resource.RLIM_INFINITY else min(need, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        except (ValueError, OSError):
            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or soft >= need:
        return bounds
    most = max(1, (soft - FILES_FIXED - FILES_PER_POOL * pools) // FILES_PER_CONNECTION - SPARE)
    log(f"the limit of open files (RLIMIT_NOFILE, ulimit -n) is {soft}: at most {most} connections at once, "
        f"not {bounds.connections} (bounds.connections needs {need} files: raise the limit)")
    return replace(bounds, connections=most)


class Budget:
    """A token bucket of frames: `burst` at once, refilled at `rate` a second."""

    def __init__(self, burst: int, rate: float):
        self.burst, self.rate = burst, rate
        self.tokens, self.last = float(burst), trio.current_time()

    def take(self) -> bool:
        now = trio.current_time()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate) - 1
        self.last = now
        return self.tokens >= 0

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.last) * self.rate >= self.burst


class Gate:
    """The bounds of the accept: sockets at once, sockets of one address not logged in yet, and
    the frame budgets (per address before the login, per account after)."""

    def __init__(self, bounds: Bounds, log: Callable[[str], None]):
        self.bounds, self.log = bounds, log
        self.most = bounds.connections + SPARE
        self.open = 0
        self.anonymous: Counter[str] = Counter()     # address -> sockets not logged in
        self.budgets: dict[str, Budget] = {}
        self.closed: Counter[str] = Counter()        # why -> sockets closed at the accept since the last line

    def admit(self, address: str) -> bool:
        if self.open >= self.most:
            self.closed[f"{self.most} sockets open (bounds.connections + {SPARE})"] += 1
            return False
        if self.anonymous[address] >= self.bounds.per_address:
            self.closed[f"{self.bounds.per_address} sockets of one address not logged in (bounds.per_address)"] += 1
            return False
        self.open += 1
        self.anonymous[address] += 1
        return True

    def leave(self, address: str) -> None:
        """A socket of `address` logged in, or closed before its login."""
        self.anonymous[address] -= 1
        if self.anonymous[address] <= 0:
            del self.anonymous[address]

    def budget(self, key: str) -> Budget:
        if len(self.budgets) > 1024:                # forget the full ones (a new one would be full too)
            now = trio.current_time()
            self.budgets = {k: b for k, b in self.budgets.items() if not b.full(now)}
        if key not in self.budgets:
            self.budgets[key] = Budget(self.bounds.burst, self.bounds.messages_per_second)
        return self.budgets[key]

    async def report(self) -> None:
        """One log line every REPORT seconds about the sockets closed at the accept, if any."""
        while True:
            await trio.sleep(REPORT)
            if self.closed:
                said = "; ".join(f"{n} at {why}" for why, n in self.closed.items())
                self.log(f"closed at the accept in the last {REPORT:g} s: {said}")
                self.closed.clear()


class _Connection(WebSocketConnection):
    """trio-websocket's connection, its frames counted against a budget, and each close of its
    own (a message too big, not UTF-8, too many frames) said in `closed_why`, with a close frame."""

    budget: Budget | None = None
    closed_why: str | None = None

    async def _policy_close(self, code: int, why: str) -> None:
        self.closed_why = f"{why} (closed with {code})"
        self._close_reason = CloseReason(code, why)
        try:
            await self._send(CloseConnection(code=code, reason=why))
        except ConnectionClosed:
            pass
        await self._recv_channel.aclose()
        self._reader_running = False

    async def _frame(self) -> bool:
        """Count a frame that is not a whole message; False (and closed) past the budget."""
        if self.closed_why is not None:
            return False
        if self.budget is not None and not self.budget.take():
            await self._policy_close(1008, f"more than {self.budget.rate:g} frames a second that are not a whole "
                                           "message (fragments, pings, pongs)")
            return False
        return True

    async def _handle_message_event(self, event: TextMessage | BytesMessage) -> None:
        if self.closed_why is not None:
            return
        if event.frame_finished and not event.message_finished and not await self._frame():
            return
        if self._message_size + len(event.data) > self._max_message_size:      # the library closes it with 1009
            self.closed_why = f"a message over {self._max_message_size} bytes (closed with 1009)"
        await super()._handle_message_event(event)

    async def _handle_ping_event(self, event: Ping) -> None:
        if await self._frame():
            await super()._handle_ping_event(event)

    async def _handle_pong_event(self, event: Pong) -> None:
        if await self._frame():
            await super()._handle_pong_event(event)

    async def _handle_close_connection_event(self, event: CloseConnection) -> None:
        if self._wsproto.state is ConnectionState.OPEN:     # not the peer's close: a frame it broke
            self.closed_why = f"{event.reason or 'a broken frame'} (closed with {event.code})"
            try:
                await self._send(CloseConnection(code=event.code, reason=(event.reason or "")[:120]))
            except ConnectionClosed:
                pass
        await super()._handle_close_connection_event(event)


class Socket:
    """One accepted WebSocket: text messages in and out, close with a code."""

    def __init__(self, ws: WebSocketConnection, on_login: Callable[[str], None] | None = None):
        self._ws = ws
        self._on_login = on_login
        remote = ws.remote
        self.peer = f"{getattr(remote, 'address', remote)}:{getattr(remote, 'port', '')}"

    def logged_in(self, account: str) -> None:
        """The login is accepted: the socket counts against its account's bounds, no longer its address's."""
        if self._on_login is not None:
            self._on_login(account)
            self._on_login = None

    def _gone(self) -> Gone:
        return Gone(getattr(self._ws, "closed_why", None))

    async def receive_text(self) -> str | None:
        """The next message (None for a binary one); Gone once the connection is closed."""
        try:
            message = await self._ws.get_message()
        except ConnectionClosed:
            raise self._gone() from None
        return message if isinstance(message, str) else None

    async def send_text(self, text: str) -> None:
        try:
            await self._ws.send_message(text)
        except ConnectionClosed:
            raise self._gone() from None
    async def answers_ping(self, within: float) -> bool:
        """Whether the peer answers a WebSocket ping within `within` seconds (a bridge frozen, or
        its connection half-open after a network change, does not)."""
        with trio.move_on_after(within):
            try:
                await self._ws.ping()
            except (ConnectionClosed, trio.BrokenResourceError, trio.ClosedResourceError):
                return False
            return True
        return False

    async def close(self, code: int, reason: str = "") -> None:
        short = reason.encode()[:120].decode(errors="ignore")       # a close frame's reason: at most 123 bytes
        await self._ws.aclose(code, short or None)


async def serve(endpoint: Callable[[Socket], Awaitable[None]], host: str, port: int, bounds: Bounds,
                log: Callable[[str], None], task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve the endpoint at ws://HOST:PORT/ladder/ws (PORT 0: a free one) until cancelled;
    `task_status.started(port)` once it listens. Other paths are refused with 404. Whatever ends
    one connection (a peer gone during its opening handshake, or an error of the server's own in
    serving it) ends that connection alone, said by `log`: never the server."""
    gate = Gate(bounds, log)

    async def handler(request: WebSocketRequest, on_login: Callable[[str], None]) -> None:
        try:
            if request.path.split("?")[0] != wire.PATH:
                await request.reject(404, body=f"the ladder's bridges connect to {wire.PATH}\n".encode())
                return
            socket = Socket(await request.accept(), on_login)
        except (ConnectionClosed, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            return                      # gone before the handshake ended: nothing was allocated for it
        try:
            await endpoint(socket)
        except Exception as exc:        # a bug of the server's, or a failure of its disk: this connection only
            log(f"the connection from {socket.peer} ended on an error of the server's: {type(exc).__name__}: {exc}")
            with trio.move_on_after(1):
                try:
                    await socket.close(1011, "internal error")
                except Exception:       # already gone: nothing more to close
                    pass

    async def connection(stream: trio.SocketStream, address: str) -> None:
        """One accepted socket (counted by the gate until it is closed), as trio-websocket's
        server runs it: the opening handshake within HANDSHAKE seconds, then the handler."""
        anonymous = [True]
        ws = _Connection(stream, WSConnection(ConnectionType.SERVER), message_queue_size=1,
                         max_message_size=bounds.message_bytes)
        ws.budget = gate.budget(f"address {address}")

        def on_login(account: str) -> None:
            anonymous[0] = False
            gate.leave(address)
            ws.budget = gate.budget(f"account {account}")
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(ws._reader_task)
                with trio.move_on_after(min(HANDSHAKE, bounds.login_seconds)) as opening:
                    request = await ws._get_request()
                if opening.cancelled_caught:
                    nursery.cancel_scope.cancel()
                    await trio.aclose_forcefully(stream)
                    return
                try:
                    await handler(request, on_login)
                finally:
                    with trio.move_on_after(5):
                        await ws.aclose()
                    nursery.cancel_scope.cancel()       # its reader too (it may wait for bytes after a close of its own)
        finally:
            await trio.aclose_forcefully(stream)    # closed already, unless the WebSocket layer closed it itself
            gate.open -= 1
            if anonymous[0]:
                gate.leave(address)

    async def accept(listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:
                if exc.errno not in _OUT_OF:
                    raise
                gate.closed[f"the process out of files ({errno.errorcode.get(exc.errno or 0, exc.errno)})"] += 1
                await trio.sleep(0.1)
                continue
            try:
                address = str(stream.socket.getpeername()[0])
            except OSError:                  # gone already
                await trio.aclose_forcefully(stream)
                continue
            if not gate.admit(address):
                await trio.aclose_forcefully(stream)
                continue
            nursery.start_soon(connection, stream, address)

    listeners = await trio.open_tcp_listeners(port, host=host)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(gate.report)
        for listener in listeners:
            nursery.start_soon(accept, listener, nursery)
        task_status.started(listeners[0].socket.getsockname()[1])
