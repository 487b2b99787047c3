"""The engine of the analysis board: one HGP process asked about the position on screen.

:meth:`Adviser.run` (a background task of the app) starts the engine with the referee's own
process machinery (referee/engines/process.py's ``open_engine``: its own process group, stderr
to a log, every answer under a deadline) and keeps it for the server's life. :meth:`Adviser.ask`
puts the position on the engine's board, with `set_position` when the engine lists it, else by
`game`, `boardsize`, `komi`, `clear_board` and one `play` per action from the start, then asks
`genmove_analyze` (when listed, else `genmove`). Its info lines are read as the referee reads
them (referee/game/analysis.py: a `pv` must be legal from the position). One question at a time;
at most :data:`WAITING` wait their turn (more are refused as busy), a question whose page went
is dropped before its turn, and an engine that crashes or breaks the protocol is started again
(:data:`STARTS` processes at most).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

from hexarena.engine.game import GameState
from hexarena.protocol.analysis import split_answer
from hexarena.protocol.controller import ControllerError
from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.engines.process import EngineStartFailed, open_engine
from hexarena.referee.game.analysis import read_off_loop
from hexarena.results.page.board_svg import action_sites

START_TIME = 30.0       # seconds for the engine's first answer (its start-up)
COMMAND_TIME = 10.0     # seconds for a setup command
THINK_TIME = 60.0       # seconds for its analysis of one position
WAITING = 4             # questions waiting for the engine at most (one more is asked meanwhile)
STARTS = 5              # engine processes started at most over the server's life (crashes restart it)
WATCH = 0.25            # seconds between looks at the engine's health


class AdviserError(Exception):
    """The engine cannot answer (did not start, crashed, refused); the message says why."""


class AdviserBusy(AdviserError):
    """Too many questions wait for the engine: ask again later."""


class Adviser:
    """An engine process (argv) asked about positions; `failed` says why it cannot answer."""

    def __init__(self, argv: list[str], name: str, log: Path):
        self.argv, self.name, self.log = argv, name, log
        self.listed: set[str] = set()
        self.failed = ""
        self._channel: EngineChannel | None = None
        self._ready = trio.Event()
        self._lock = trio.Lock()
        self._waiting = 0
        self.starts = 0

    async def run(self) -> None:
        """Start the engine and keep it until cancelled (the app's end); an engine that crashes,
        or whose channel breaks (a deadline missed, garbage, a question given up), is started
        again, :data:`STARTS` processes at most."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        try:
            while self.starts < STARTS:
                self.starts += 1
                await self._keep_one()
                self.failed = f"{self.name}: stopped answering {self.starts} time(s){self._see_log()}"
                self._channel = None
                if self._ready.is_set():            # else the questions waiting on it hear the end
                    self._ready = trio.Event()
        except (EngineStartFailed, OSError) as exc:
            self.failed = f"{self.name}: {exc}{self._see_log()}"
        finally:
            self._channel = None
            self._ready.set()

    async def _keep_one(self) -> None:
        """One engine process, until its channel is no longer fit to ask."""
        try:
            async with open_engine(self.argv, self.log, self.name) as channel:
                now = trio.current_time()
                await channel.command("protocol_version", deadline=now + START_TIME)
                listed = await channel.command("list_commands", deadline=trio.current_time() + COMMAND_TIME)
                self.listed = set(listed.split())
                self._channel, self.failed = channel, ""
                self._ready.set()
                while channel.reusable:
                    await trio.sleep(WATCH)
                self._channel, self._ready = None, trio.Event()     # questions wait for the next one
        except ControllerError as exc:
            self.failed = f"{self.name}: {exc}{self._see_log()}"

    def _see_log(self) -> str:
        """` (log: PATH)` when the engine wrote to its log; nothing when there is none to look at."""
        try:
            return f" (log: {self.log})" if self.log.stat().st_size else ""
        except OSError:
            return ""

    async def ask(self, state: GameState, tokens: list[str] | None, komi: int = 0,
                  give_up: trio.CancelScope | None = None) -> dict[str, Any]:
        """The engine's action in `state` (reached by `tokens` from the game's start with the komi
        setting `komi`; None: not from the start, so only `set_position` can set it) and its info lines
        (each with `pv_sites`: the sites of each pv action, for the drawing); AdviserError, also
        when :data:`WAITING` questions wait already, or when `give_up` is cancelled (the page
        went) while this one waits its turn (once asked, the engine's answer is awaited)."""
        if self._waiting >= WAITING:
            raise AdviserBusy(f"{self.name} is busy: {self._waiting} questions wait for it; ask again later")
        self._waiting += 1
        try:
            held = False
            with give_up or trio.CancelScope():
                await self._lock.acquire()
                held = True
            if not held:
                raise AdviserError("the question was given up before its turn")
        finally:
            self._waiting -= 1
        try:
            return await self._ask(state, tokens, komi)
        finally:
            self._lock.release()

    async def _ask(self, state: GameState, tokens: list[str] | None, komi: int) -> dict[str, Any]:
        """:meth:`ask`'s question, the lock held."""
        with trio.move_on_after(START_TIME):
            await self._ready.wait()
        channel = self._channel
        if channel is None or not channel.reusable:
            raise AdviserError(self.failed or f"{self.name} is not running")
        if tokens is None and "set_position" not in self.listed:
            raise AdviserError(f"{self.name} does not list set_position: a position string cannot be put on its board")
        try:
            await self._setup(channel, state, tokens, komi)
            command = "genmove_analyze" if "genmove_analyze" in self.listed else "genmove"
            answer = await channel.command(command, state.to_move.word, deadline=trio.current_time() + THINK_TIME)
        except ControllerError as exc:
            raise AdviserError(f"{self.name}: {exc}") from None
        token, lines = split_answer(answer)
        try:
            action = state.parse(token)
            played = state.format(action)
        except ValueError as exc:
            raise AdviserError(f"{self.name} answered {token[:80]!r}: {exc}") from None
        kept, notes = await read_off_loop(lines, state, played)
        for info in kept:
            info["pv_sites"] = _pv_sites(state, info.get("pv") or [])
        return {"engine": self.name, "action": played, "info": kept, "notes": notes, "command": command}

    async def _setup(self, channel: EngineChannel, state: GameState, tokens: list[str] | None, komi: int) -> None:
        def deadline() -> float:
            return trio.current_time() + COMMAND_TIME
        if "set_position" in self.listed:
            await channel.command("set_position", *state.position().split(), deadline=deadline())
            return
        assert tokens is not None           # checked by ask
        info = state.info
        await channel.command("game", *info.describe(state.variant).split(), deadline=deadline())
        await channel.command("boardsize", str(state.variant.size), deadline=deadline())
        if info.uses_komi:
            await channel.command("komi", str(komi), deadline=deadline())
        await channel.command("clear_board", deadline=deadline())
        start = info.new_game(state.variant, komi)
        for token in tokens:
            await channel.command("play", start.to_move.word, token, deadline=deadline())
            start = start.play(start.parse(token))


def _pv_sites(state: GameState, pv: list[str]) -> list[list[str]]:
    """The sites of each action of a principal variation (checked legal already by read_info)."""
    out: list[list[str]] = []
    board = state.board
    for token in pv:
        action = state.parse(token)
        out.append(board.names(sum(1 << s for s in action_sites(action))))
        state = state.play(action)
    return out
