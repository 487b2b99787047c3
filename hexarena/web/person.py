"""The person's seat of `hexarena play`: an HGP engine inside the server whose moves come from
the browser.

The referee plays a person exactly as it plays an engine (referee/game/match.py's
``play_game``): through an :class:`~hexarena.referee.engines.channel.EngineChannel`, here over
trio memory streams to :meth:`PersonEngine.serve`. Every command is answered by the protocol's
own engine side (protocol/engine_side.py), which keeps the person's copy of the board, except
`genmove` (and `genmove_analyze`): that waits for :meth:`PersonEngine.submit`, which the page's
action request calls once the rules accepted the action. So the referee's clocks, deadlines,
validation and record serve the person unchanged.
"""
from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import trio
import trio.testing

from hexarena.engine.actions import Action
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState
from hexarena.protocol.clock import MoveClock
from hexarena.protocol.engine_side import EngineSide
from hexarena.protocol.framing import CommandError, parse_command, success
from hexarena.referee.engines.channel import EngineChannel

__all__ = ["PersonEngine"]


def _never(state: GameState, clock: MoveClock) -> Action:
    raise RuntimeError("the person's moves come from the browser")


class PersonEngine:
    """The person as an HGP engine. `changed()` is called after every command that changes
    what the page shows (a board change, the person's turn starting or ending)."""

    def __init__(self, name: str, changed: Callable[[], None]):
        self.side = EngineSide(_never, name=name, version="person")
        self.changed = changed
        self.actions: list[tuple[GameState, Action]] = []    # since the last clear: (state before, action)
        self.waiting: Colour | None = None          # the colour the referee asks the person to move
        self.asked_at = 0.0                         # trio time the referee asked
        self._send, self._receive = trio.open_memory_channel[str](1)

    @property
    def state(self) -> GameState:
        """The board as the referee has told it (and as the person played it)."""
        return self.side.session.state

    def submit(self, token: str) -> None:
        """Hand the person's action (checked by the rules already) to the waiting `genmove`;
        RuntimeError when the referee is not asking the person for a move."""
        if self.waiting is None:
            raise RuntimeError("it is not your turn")
        self.waiting = None
        self._send.send_nowait(token)

    async def serve(self, stdin: trio.abc.ReceiveStream, stdout: trio.abc.SendStream) -> None:
        """Answer commands until `quit` or the end of the input."""
        buffer = b""
        while not self.side.finished:
            data = await stdin.receive_some(65536)
            if not data:
                return
            buffer += data
            while b"\n" in buffer and not self.side.finished:
                raw, buffer = buffer.split(b"\n", 1)
                line = raw.decode("utf-8", "replace")
                answer = await self._answer(line)
                if answer is not None:
                    await stdout.send_all(answer.encode())

    async def _answer(self, line: str) -> str | None:
        try:
            command = parse_command(line)
        except CommandError:
            command = None
        if command is None or command.name not in ("genmove", "genmove_analyze"):
            before = self.state
            answer = self.side.handle(line)
            if command is not None and command.name in ("clear_board", "game", "boardsize", "set_position"):
                self.actions = []
                self.changed()
            elif command is not None and command.name == "play" and self.state is not before:
                self.actions.append((before, before.parse(command.args[1])))
                self.changed()
            return answer
        colour = Colour.BLACK if command.args[:1] and command.args[0].lower() in ("b", "black") else Colour.WHITE
        self.waiting = colour
        self.asked_at = trio.current_time()
        self.changed()
        try:
            token = await self._receive.receive()
        finally:
            self.waiting = None
        if token != "resign":
            before = self.state
            action = before.parse(token)
            self.side.session.play(action)
            self.actions.append((before, action))
        self.changed()
        return success(command.id, token)

    @asynccontextmanager
    async def connect(self) -> AsyncIterator[EngineChannel]:
        """A channel to the person, served for the duration of the block (play_game's `connect`)."""
        to_send, to_receive = trio.testing.memory_stream_one_way_pair()
        from_send, from_receive = trio.testing.memory_stream_one_way_pair()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.serve, to_receive, from_send)
            channel = EngineChannel(to_send, from_receive, self.side.name)
            try:
                yield channel
            finally:
                nursery.cancel_scope.cancel()
