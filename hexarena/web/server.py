"""Running the web app: hypercorn's trio worker on one address.

:func:`serve` runs an app inside a trio loop that is already running (`hexarena tournament
--serve` runs it beside the referee); :func:`run` is the whole life of `hexarena serve`: a
fresh token, the app, its address printed as the first line of stdout
(``http://127.0.0.1:PORT/?token=TOKEN``), until Ctrl-C (SIGINT) or SIGTERM, then exit 130
without a traceback, or until the command's own end (`hexarena play`: the game is over).
"""
from __future__ import annotations

import logging
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from functools import partial

import trio
from hypercorn.config import Config
from hypercorn.trio import serve as hypercorn_serve
from hypercorn.trio.tcp_server import TCPServer
from starlette.types import ASGIApp

from hexarena.referee.engines.groups import sole

from .app import bracketed, is_loopback, new_token

DEFAULT_HOST = "127.0.0.1"


def url(host: str, port: int, token: str) -> str:
    """The address to open: ``http://HOST:PORT/?token=TOKEN`` (an IPv6 host in brackets)."""
    return f"http://{bracketed(host)}:{port}/?token={token}"


def sends_while_closing_dropped() -> None:
    """Make hypercorn's trio worker drop what a connection sends while the connection is being
    closed, instead of dying (idempotent; :func:`serve` and the ladder's server call it first).

    Hypercorn (0.18) closes a connection with `send_eof` outside the lock its sends take. When the
    client ends its side while an answer is being written (a body shorter than its declared
    length, then EOF), the reading task's error answer, or the app's answer, meets
    `trio.BusyResourceError` on the stream: raised out of the connection's task, it ends the whole
    server (nothing listens any more), a denial of service by a handful of requests without any
    token. A send that meets a stream being closed has nowhere to go: it is dropped, as hypercorn
    drops one that meets a closed stream (`BrokenResourceError`, `ClosedResourceError`)."""
    send = TCPServer.protocol_send
    if getattr(send, "drops_while_closing", False):
        return

    async def protocol_send(self: TCPServer, event) -> None:
        try:
            await send(self, event)
        except trio.BusyResourceError:
            pass

    protocol_send.drops_while_closing = True      # type: ignore[attr-defined]
    TCPServer.protocol_send = protocol_send       # type: ignore[method-assign]


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to HOST:PORT (0: a free port) for :func:`run` to serve on, so that a
    command knows its address can be used before it starts anything else. OSError when the
    address cannot be bound."""
    host = host.strip("[]")
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _config(host: str, port: int, sock: socket.socket | None = None) -> Config:
    config = Config()
    config.bind = [f"fd://{sock.detach()}" if sock is not None else f"{bracketed(host)}:{port}"]
    config.accesslog = None
    quiet = logging.getLogger("hexarena.web.hypercorn")
    quiet.setLevel(logging.WARNING)             # no "Running on ..." lines: the address is ours to print
    config.errorlog = quiet
    config.graceful_timeout = 0.5               # event streams never end by themselves
    return config


async def serve(app: ASGIApp, host: str = DEFAULT_HOST, port: int = 0, sock: socket.socket | None = None,
                task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve `app` on HOST:PORT (0: a free port), or on `sock` (bound by :func:`listening`; the
    server takes it over), until cancelled; `task_status.started(port)` once it listens. OSError
    when the address cannot be bound."""
    sends_while_closing_dropped()
    async with trio.open_nursery() as nursery:
        config = _config(host, port, sock)
        binds: list[str] = await nursery.start(partial(hypercorn_serve, app, config))  # type: ignore[arg-type]
        task_status.started(int(binds[0].rpartition(":")[2]))


def run(make_app: Callable[[str], ASGIApp], host: str = DEFAULT_HOST, port: int = 0,
        say: Callable[[str], None] = print, warn: Callable[[str], None] = lambda s: None,
        until: Callable[[], Awaitable[None]] | None = None, sock: socket.socket | None = None) -> None:
    """Serve ``make_app(token)`` with a fresh token until Ctrl-C or SIGTERM, then ``sys.exit(130)``,
    or until ``until()`` returns (then return); the first call of `say` is the address to open.
    `sock`: a socket :func:`listening` bound to HOST (served instead of binding HOST:PORT).
    A host beyond the loopback is warned about. OSError when the address cannot be bound."""
    token = new_token()
    if not is_loopback(host):
        warn(f"listening on {host}, beyond this machine's loopback: anyone who can reach it and "
             "learns the token can watch (and, with `play`, act)")
    app = make_app(token)

    async def main() -> bool:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:
                bound = await nursery.start(serve, app, host, port, sock)
                say(url(host, bound, token))
                if until is not None:
                    async def stop_after() -> None:
                        await until()
                        nursery.cancel_scope.cancel()
                    nursery.start_soon(stop_after)
                async for _ in signals:
                    nursery.cancel_scope.cancel()
                    return True
        return False

    try:
        interrupted = trio.run(main)
    except BaseExceptionGroup as group:          # trio wraps what leaves a nursery
        if isinstance(sole(group), OSError):
            raise sole(group) from None
        raise
    if interrupted:
        sys.exit(130)
