"""Work of a request that replays games, run off the server's event loop.

Replaying a record through the rules (a game page, its data, an analysis board's position)
can take long for a long game. The server's event loop also reads the engines' answers when
a tournament runs inside it (`tournament --serve`), so that work runs in a worker thread,
:data:`THREADS` at a time per server; requests past them wait their turn (each request
already bounded by its body size and the routes' limits).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import trio

T = TypeVar("T")

#: Worker threads replaying for requests at once, per server.
THREADS = 1

_LIMITER: trio.lowlevel.RunVar = trio.lowlevel.RunVar("web_replays")


async def off_loop(fn: Callable[..., T], *args: object) -> T:
    """`fn(*args)` in a worker thread (at most :data:`THREADS` at a time in this trio run)."""
    try:
        limiter = _LIMITER.get()
    except LookupError:
        limiter = trio.CapacityLimiter(THREADS)
        _LIMITER.set(limiter)
    return await trio.to_thread.run_sync(fn, *args, limiter=limiter)
