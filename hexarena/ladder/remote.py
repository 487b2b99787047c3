"""A remote engine on the server's side: an EngineChannel whose two streams are a relay over the
bridge's WebSocket, kept across the bridge's reconnections.

The channel writes command lines to :class:`RemoteEngine`'s send stream; each goes to the bridge
attached at the time (none while it is away: the line waits, and the channel's deadline, the
engine's clock, keeps running). The bridge's answers come back through :meth:`RemoteEngine.answer`
into the receive stream. Every command answered with ``=`` is kept, so that a bridge that comes
back (the same process after a network loss, or a restarted one with a fresh engine) is sent the
lines that restore its engine's position (:meth:`replay`: the setup commands, and each
``genmove`` as the ``play`` of its answer) and then the command in flight again.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

#: Commands that change an engine's state, replayed as they were sent.
STATEFUL = frozenset({"game", "boardsize", "komi", "clear_board", "play", "set_position", "time_settings",
                      "kgs-time_settings", "hexarena-seed"})
GENMOVES = frozenset({"genmove", "genmove_analyze"})

#: Sends one command line (without its newline) and the seconds left to answer it to a bridge.
Send = Callable[[str, float], Awaitable[None]]


class RemoteEngine:
    """One seat of one game played by a bridge of `account`."""

    def __init__(self, account: str, game: str, pool: str):
        self.account, self.game, self.pool = account, game, pool
        self.sent: list[str] = []                  # command lines answered with `=`, in order
        self.answers: list[str] = []               # their answers' text
        self.pending: str | None = None            # the line sent and not answered yet
        self.deadline = 0.0
        self.link: object | None = None            # the bridge's connection, when one is attached
        self._send: Send | None = None
        self._in, self._out = trio.open_memory_channel[bytes](16)
        self.ended = False
        self.salted: object = None                # the account's salt and hash when its game was claimed
        self.forfeited = False
        #: The channel's `engine_exited`, told the bridge's words when its engine failed.
        self.on_crash: Callable[[str], None] | None = None

    # -- the channel's side ----------------------------------------------------------------

    async def send_line(self, data: bytes, deadline: float) -> None:
        for line in data.decode("utf-8", "replace").splitlines():
            self.pending, self.deadline = line, deadline
            if self._send is not None:
                await self._send(line, max(0.0, deadline - trio.current_time()))

    async def receive(self) -> bytes:
        try:
            return await self._out.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            return b""

    # -- the connection's side -------------------------------------------------------------

    def answer(self, text: str) -> bool:
        """The bridge's answer to the pending command (``=ID ...`` or ``?ID ...``); False when none
        is pending (an unsolicited answer: the caller drops it)."""
        if self.pending is None:
            return False
        if text.startswith("="):
            self.sent.append(self.pending)
            self.answers.append(text.partition(" ")[2])
        self.pending = None
        try:
            self._in.send_nowait(text.encode() + (b"" if text.endswith("\n\n") else b"\n\n"))
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True

    def crash(self, why: str = "") -> None:
        """The engine is gone for this game: the channel hears the bridge's words (`why`), when
        given, as a process's exit, and sees its stdout closed."""
        if why and self.on_crash is not None:
            self.on_crash(f"its bridge said the engine failed: {why}")
        self._in.close()

    def forfeit(self, how: str) -> None:
        """The game is lost by this seat (`how` says why, as a process's exit would)."""
        self.forfeited = True
        if self.on_crash is not None:
            self.on_crash(how)
        self._in.close()

    def attach(self, link: object, send: Send) -> None:
        self.link, self._send = link, send

    def detach(self, link: object) -> None:
        if self.link is link:
            self.link, self._send = None, None

    def replay(self) -> list[str]:
        """The command lines (without ids) that bring a fresh engine to this game's position."""
        out = []
        for line, answer in zip(self.sent, self.answers):
            words = line.split()
            if words and words[0].isdigit():
                words = words[1:]
            if not words:
                continue
            if words[0] in STATEFUL:
                out.append(" ".join(words))
            elif words[0] in GENMOVES and len(words) > 1 and answer.split():
                out.append(f"play {words[1]} {answer.split()[0]}")
        return out


class RemoteSend(trio.abc.SendStream):
    """The channel's send stream: each write is a command line for the bridge."""

    def __init__(self, engine: RemoteEngine):
        self._engine = engine

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        """Send under the channel's deadline (the cancel scope it writes in)."""
        await self._engine.send_line(bytes(data), trio.current_effective_deadline())

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.checkpoint()

    async def aclose(self) -> None:
        await trio.lowlevel.checkpoint()


class RemoteReceive(trio.abc.ReceiveStream):
    """The channel's receive stream: the bridge's answers; EOF once the engine crashed."""

    def __init__(self, engine: RemoteEngine):
        self._engine = engine
        self._left = b""

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        if not self._left:
            self._left = await self._engine.receive()
        cut = len(self._left) if max_bytes is None else max_bytes
        data, self._left = self._left[:cut], self._left[cut:]
        return data

    async def aclose(self) -> None:
        await trio.lowlevel.checkpoint()
