"""``hexarena ladder serve``: the pools, their rounds, the bridges' endpoint and the pages, in one
trio process under hypercorn.

The first line on stdout is ``http://HOST:PORT/ ws://HOST:WSPORT/ladder/ws``: the pages (hypercorn)
and the address bridges connect to (trio-websocket, :mod:`.sockets`). Every `interval` seconds each pool pairs its idle connections
(:mod:`.pairing`) and starts their games; each game is journaled in the pool's folder as it ends
and the pool's standings are refitted. SIGINT or SIGTERM stops the server at once: games in
flight are void (voided in the journal at the next start, never rated).
"""
from __future__ import annotations

import logging
import signal
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import trio
from hypercorn.config import Config
from hypercorn.trio import serve as hypercorn_serve

from hexarena.web.app import bracketed
from hexarena.web.server import sends_while_closing_dropped

from . import sockets, wire
from .config import LadderConfig
from .pages import build_app
from .rounds import Ladder


def _hypercorn(host: str, port: int, config: LadderConfig) -> Config:
    c = Config()
    c.bind = [f"{bracketed(host)}:{port}"]
    c.accesslog = None
    quiet = logging.getLogger("hexarena.ladder.hypercorn")
    quiet.setLevel(logging.WARNING)
    c.errorlog = quiet
    c.graceful_timeout = 0.5
    c.h11_max_incomplete_size = 16 * 1024
    return c


def run(config: LadderConfig, data: Path, host: str, port: int, say: Callable[[str], None],
        log: Callable[[str], None], ws_port: int = 0) -> bool:
    """Serve the pages on PORT and the bridges' endpoint on WS_PORT (0: free ones) until SIGINT or
    SIGTERM (then True). OSError when an address cannot be bound."""
    config = replace(config, bounds=sockets.fit(config.bounds, len(config.pools), log))
    ladder = Ladder(config, data, log)
    app = build_app(ladder)

    sends_while_closing_dropped()

    async def main() -> bool:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:
                for pool in ladder.pools.values():
                    await pool.refit()
                binds = await nursery.start(partial(hypercorn_serve, app, _hypercorn(host, port, config)))  # type: ignore[arg-type]
                bound = int(binds[0].rpartition(":")[2])
                ws_bound = await nursery.start(sockets.serve, ladder.hub.endpoint, host, ws_port, config.bounds,
                                                ladder.log)
                ladder.ws_url = f"ws://{bracketed(host)}:{ws_bound}{wire.PATH}"
                say(f"http://{bracketed(host)}:{bound}/ {ladder.ws_url}")
                nursery.start_soon(ladder.hub.watch)
                for pool in ladder.pools.values():
                    nursery.start_soon(ladder.rounds, pool, nursery)
                    nursery.start_soon(pool.refits)
                async for _ in signals:
                    nursery.cancel_scope.cancel()
                    return True
        return False

    try:
        return trio.run(main)
    finally:
        ladder.close()
