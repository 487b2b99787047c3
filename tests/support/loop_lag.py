"""How long a trio loop is held: a task that sleeps in short steps and keeps the largest delay."""
from __future__ import annotations

import trio

STEP = 0.005


class LoopLag:
    """Start :meth:`beat` in a nursery; `worst` is then the longest the loop kept it waiting past
    its step (seconds): a loop held by work on it shows that work's length there."""

    def __init__(self) -> None:
        self.worst = 0.0

    async def beat(self) -> None:
        while True:
            t0 = trio.current_time()
            await trio.sleep(STEP)
            self.worst = max(self.worst, trio.current_time() - t0 - STEP)
