"""An in-process HGP engine over trio memory streams, for MockClock tests.

It plays random legal moves from the rules package and sleeps ``think(k)``
seconds (trio time) before its k-th `genmove` answer (k from 1), so the
referee's deadlines and clocks are tested without real waiting. Every
command line it receives is kept in ``received``.
"""
from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import trio
import trio.testing

from hexarena.engine import registry
from hexarena.referee.engines.process import EngineChannel


class MemEngine:
    def __init__(self, name: str, think: Callable[[int], float] = lambda k: 0.0,
                 answers: Callable[[int, object], str | None] = lambda k, state: None, seed: int = 1):
        self.name = name
        self.think = think
        self.answers = answers          # (k, state) -> a forced genmove answer, or None for a random move
        self.rng = random.Random(seed)
        self.received: list[str] = []
        self.state = None

    async def serve(self, stdin: trio.abc.ReceiveStream, stdout: trio.abc.SendStream) -> None:
        buf = b""
        info = size = None
        tokens: list[str] = []
        moves = 0
        while True:
            data = await stdin.receive_some(4096)
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                words = line.decode().split()
                self.received.append(" ".join(words[1:]))
                cid, name, args = words[0], words[1], words[2:]
                text = ""
                if name == "protocol_version":
                    text = "2"
                elif name == "list_games":
                    text = "\n".join(registry.playable())
                elif name == "game":
                    info, tokens = registry.get(args[0]), args[1:]
                elif name == "boardsize":
                    size = int(args[0])
                elif name == "clear_board":
                    self.state = info.new_game(info.variant(size, tokens), 0)
                elif name == "play":
                    self.state = self.state.play(self.state.parse(args[1]))
                elif name == "genmove":
                    moves += 1
                    await trio.sleep(self.think(moves))
                    text = self.answers(moves, self.state)
                    if text is None:
                        action = self.state.random_action(self.rng)
                        text = self.state.format(action)
                    self.state = self.state.play(self.state.parse(text)) if text != "resign" else self.state
                await stdout.send_all(f"={cid} {text}\n\n".encode())
                if name == "quit":
                    return


@asynccontextmanager
async def mem_connect(engine: MemEngine) -> AsyncIterator[EngineChannel]:
    """A channel to `engine`, served by a task for the duration of the block."""
    to_engine_send, to_engine_recv = trio.testing.memory_stream_one_way_pair()
    from_engine_send, from_engine_recv = trio.testing.memory_stream_one_way_pair()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(engine.serve, to_engine_recv, from_engine_send)
        channel = EngineChannel(to_engine_send, from_engine_recv, engine.name)
        try:
            yield channel
        finally:
            await channel.aclose_streams()
            nursery.cancel_scope.cancel()
