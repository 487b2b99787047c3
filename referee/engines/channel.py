"""The HGP channel to an engine: commands over a pair of trio byte streams.

:class:`EngineChannel` speaks HGP over any pair of trio byte streams (pipes
to a process, or memory streams in tests): one command at a time (or, over
the pipe fast path, a chain written at once and answered in order:
:meth:`EngineChannel.command_chain`), increasing ids, every read under an
absolute deadline of its own command taken from
``trio.current_time()`` (so tests run under MockClock). It raises only the
controller's error tree: EngineCrashed (EOF, broken pipe, the process
exited), EngineTimeout (deadline passed), ProtocolViolation (garbage, wrong
id, unsolicited output), CommandFailed (a `?` answer). After any error but
CommandFailed (and a `?` that ends a chain with answers left unread) the
channel is broken and re-raises that error. The process
side (:mod:`referee.engines.process`) reports an exit with :meth:`engine_exited`, and may
give the channel a :class:`~.pause.GroupPause`: once the answer to a thinking command is
read, the engine's group is then stopped at the loop's next wait for an answer, and
continued before anything is written to it.
Over the pipe fast path (:mod:`referee.engines.eager`) a command answered at once
runs without an await that could block, so without a cancel scope; the
same checks apply to its answer. The fast path spins only for a kind of
command (thinking: `genmove`; the others) whose last answer came within
the spin (:data:`THINKING`, :data:`REPROBE`); a game alone in its event loop
waits for the answer in ``poll(2)`` instead, up to :data:`~.eager.BLOCK` seconds
(:func:`~.eager.alone`), and yields to the loop at least every
:data:`~.eager.YIELD_EVERY` seconds of answers taken without an await
(tests/referee/test_channel.py runs every behaviour both ways).
"""
from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from pathlib import Path

import trio

from hexarena.protocol.controller import (
    CommandFailed, ControllerError, EngineCrashed, EngineTimeout, ProtocolViolation, Response,
    ResponseReader, expect, format_command,
)

from .eager import BLOCK, YIELD_EVERY, EagerReceive, EagerSend, alone
from .pause import GroupPause, stop_due

__all__ = ["EngineChannel"]

#: Commands whose answer waits for the engine to think; the others are answered at once.
THINKING = frozenset({"genmove", "genmove_analyze"})
#: After its spin missed, a kind of command (thinking or not) is polled once, without
#: spinning, until it is answered within the poll; every REPROBE-th miss spins again.
REPROBE = 16

EXIT_GRACE = 0.05    # seconds to collect an answer written just before the engine exited
EOF_GRACE = 0.5      # seconds to learn the exit status after EOF on stdout


class EngineChannel:
    """HGP commands over a send stream (engine stdin) and a receive stream (engine stdout)."""

    def __init__(self, send: trio.abc.SendStream, receive: trio.abc.ReceiveStream, name: str,
                 max_bytes: int = 1_000_000, *, watched: bool = False):
        self.name = name
        self._send = send
        self._receive = receive
        self._reader = ResponseReader(max_bytes)
        self._pending: collections.deque[Response] = collections.deque()
        self._next_id = 1
        self._broken: ControllerError | None = None
        self._exit: str | None = None              # how the process ended, once it has
        self._exited = trio.Event()
        self._watched = watched                     # a process watcher will report the exit (engine_exited)
        self._in_flight: trio.CancelScope | None = None
        # the pipe fast path (referee/engines/eager.py), when both streams offer it (not with eager=False
        # nor under a transcript: those streams are only awaited)
        self._now = (send, receive) if isinstance(send, EagerSend) and isinstance(receive, EagerReceive) else None
        self.wait_seconds = 0.0     # time spent waiting for answers (bench figure)
        #: When the last answer was complete: trio.current_time() at the read that brought its
        #: last bytes, taken before the referee parses them (what a clock charges to).
        self.answered_at = 0.0
        self.relog: Callable[[Path], None] | None = None    # set by referee/engines/process.py: logs to a new game's files
        self.renew: Callable[[], None] | None = None        # set by referee/engines/process.py: per-game limits start again
        #: Set by referee/engines/process.py: the engine's group, stopped after the answer to a thinking
        #: command (at the loop's next wait), continued before the next write (referee/engines/pause.py).
        self.pause: GroupPause | None = None
        self.note: Callable[[str], None] = _unnoted          # set by referee/engines/process.py: a line in the engine's log
        self.configured = False     # the engine's setup commands were answered (sent once per process)
        self.listed: frozenset[str] | None = None   # what its last handshake's `list_commands` listed
        self._misses = [0, 0]       # fast-path polls in a row that found no answer: other commands, thinking
        self._yielded = 0.0         # trio.current_time() when a command last awaited or yielded
        self._clock: Callable[[], float] = trio.current_time    # the running loop's clock, taken per exchange

    def engine_exited(self, how: str) -> None:
        """Called by the process watcher: the process ended (`how`: its exit status or signal).
        A command in flight stops at once and raises EngineCrashed."""
        self._exit = how
        self._exited.set()
        if self._in_flight is not None:
            self._in_flight.cancel()

    async def command(self, name: str, *args: str, deadline: float) -> str:
        """Send one command and return the text of its `=` answer.

        `deadline` is absolute, in ``trio.current_time()`` units; it covers
        the write and the read. Raises the controller errors listed above.

        Over the pipe fast path (:mod:`referee.engines.eager`) the command is first
        written and its answer read without awaiting; only what is left
        (part of a long command, an answer not there yet) is awaited, under
        a cancel scope with the deadline. A deadline fires only at an await,
        so an exchange done without one needs no scope; one already passed
        is a timeout before anything is written, as on the awaited path.
        """
        (answer,) = await self._exchange(((name, args, deadline, False),))
        if isinstance(answer, ControllerError):
            raise answer
        return answer

    async def command_chain(self, steps: Sequence[tuple[tuple[str, ...], float, bool]], last: tuple[str, ...],
                            deadline_from: Callable[[float], float]
                            ) -> tuple[list[str | ControllerError], str | ControllerError, float]:
        """Commands (`steps`: each its words, its absolute deadline and whether a `?` to it ends the
        chain), then `last`: each one's answer text or the controller error it ended in, and when
        `last` was written (``trio.current_time()``, taken before writing it). `deadline_from(start)`:
        `last`'s deadline when it is written at `start`.

        Over the pipe fast path all are written at once, before the first answer is read (the
        engine answers in order, PROTOCOL.md "Framing"): one wait for all the answers. Each answer
        is still read and checked in turn, by its own command's deadline. Elsewhere each command
        is written once the one before is answered. A `?` leaves the next commands to be answered,
        unless its step ends the chain: then it is the answer of every command after it too (over
        the pipe those were written, their answers are never read, and the channel is broken); any
        other error breaks the channel and is the answer of every command after it."""
        if self._now is None:
            said: list[str | ControllerError] = []
            for words, deadline, ends in steps:
                try:
                    said.append(await self.command(*words, deadline=deadline))
                except ControllerError as exc:
                    said.append(exc)
                    if ends or not isinstance(exc, CommandFailed):
                        return said + [exc] * (len(steps) - len(said)), exc, trio.current_time()
            start = trio.current_time()
            try:
                return said, await self.command(*last, deadline=deadline_from(start)), start
            except ControllerError as exc:
                return said, exc, start
        start = trio.current_time()
        commands = [(words[0], words[1:], deadline, ends) for words, deadline, ends in steps]
        commands.append((last[0], last[1:], deadline_from(start), False))
        answers = await self._exchange(commands, start)
        return answers[:-1], answers[-1], start

    async def _exchange(self, commands: Sequence[tuple[str, tuple[str, ...], float, bool]],
                        t0: float | None = None) -> list[str | ControllerError]:
        """Write `commands` (name, arguments, deadline, whether a `?` ends the exchange) at once
        (`t0`: ``trio.current_time()`` just before, None: taken here) and read their answers in order:
        each one's text, or the error it ended in (CommandFailed leaves the channel usable; any other
        error, or a `?` that ends the exchange with answers left unread, breaks it and is the
        answer of every command after it)."""
        if self._broken is not None:
            return [self._broken] * len(commands)
        if self._exit is not None:
            self._broken = EngineCrashed(f"{self.name}: {self._exit}")
            return [self._broken] * len(commands)
        pause = self.pause
        if pause is not None and pause.state:
            pause.resume()
        count = len(commands)
        cids = range(self._next_id, self._next_id + count)
        self._next_id += count
        data = b"".join([format_command(cid, name, *args) for cid, (name, args, _, _) in zip(cids, commands)])
        self._clock = now = trio.lowlevel.current_clock().current_time
        if t0 is None:
            t0 = now()
        answers: list[str | ControllerError] = []
        try:
            written = solo = False
            if self._now is not None and t0 < commands[0][2]:
                await trio.lowlevel.checkpoint_if_cancelled()
                data = self._now[0].send_now(data)
                written = not data
                solo = alone()
            for (name, _, deadline, ends), cid in zip(commands, cids):
                more = count - 1 - len(answers)       # answers that may come behind this one
                resp = self._fast_answer(name, deadline, more, solo) if written else None
                if resp is not None and t0 - self._yielded >= YIELD_EVERY:
                    self._yielded = t0
                    await trio.lowlevel.checkpoint()    # the loop's other tasks get their turn
                    solo = alone()
                if resp is None:
                    self._yielded = t0
                    resp = await self._await_answer(data, deadline, name, more)
                    data, written, solo = b"", True, alone()
                if resp.ok and resp.id == cid:
                    answers.append(resp.text)
                    continue
                try:
                    answers.append(expect(resp, cid))
                except CommandFailed as exc:
                    answers.append(exc)
                    if ends and len(answers) < len(commands):
                        self._broken = exc              # the answers to the commands after it stay unread
                        break
            else:
                if pause is not None and commands[-1][0] in THINKING and isinstance(answers[-1], str):
                    pause.due()         # its turn is over: stopped at the loop's next wait, until the next command
                return answers
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            how = await self._how_it_ended("its stdin is closed")
            self._broken = EngineCrashed(f"{self.name}: cannot write to it: {how}")
        except (EngineCrashed, EngineTimeout, ProtocolViolation) as exc:
            if isinstance(exc, EngineCrashed) and str(exc) == "closed its stdout":
                exc = EngineCrashed(await self._how_it_ended("closed its stdout"))
            if not str(exc).startswith(f"{self.name}: "):
                exc = type(exc)(f"{self.name}: {exc}")
            self._broken = exc
        finally:
            self.wait_seconds += now() - t0
        return answers + [self._broken] * (count - len(answers))

    def _fast_answer(self, name: str, deadline: float, more: int, solo: bool) -> Response | None:
        """The answer to `name` read without awaiting (the pipe fast path; its command is written),
        or None when it is not there in time: waited for in poll(2) when the game is alone in its
        loop (`solo`: :func:`~.eager.alone`), else polled (spinning for a kind of command whose
        answers came within the spin)."""
        assert self._now is not None
        receive = self._now[1]
        if solo:
            return self._receive_blocking(receive, deadline, more)
        kind = name in THINKING
        misses = self._misses[kind]
        resp = self._receive_now(receive, misses % REPROBE == 0, more)
        self._misses[kind] = 0 if resp is not None else misses + 1
        return resp

    async def _await_answer(self, data: bytes, deadline: float, name: str, more: int = 0) -> Response:
        """Send what is left of the command (`data`, maybe nothing), then wait for its answer,
        all under the deadline; cut short by :meth:`engine_exited`. First the engines of this loop
        whose turn is over are stopped (referee/engines/pause.py): this is a wait."""
        stop_due()
        resp = None
        try:
            with trio.CancelScope(deadline=deadline) as scope:
                self._in_flight = scope
                if data:
                    await self._send.send_all(data)
                resp = await self._receive_one(more)
        finally:
            self._in_flight = None
        if resp is None and self._exit is not None:
            resp = await self._answer_after_exit()
            if resp is None:
                raise EngineCrashed(f"{self._exit} (during {name!r})")
        elif resp is None:
            raise EngineTimeout(f"{self.name}: no answer to {name!r} in time", self._why_late(name))
        return resp

    def _why_late(self, name: str) -> str:
        """What the engine did write, for a timeout's message: the start of an answer with no
        empty line after it (every answer ends with one), only empty lines, or nothing at all to
        a command that needs no thought (is each answer flushed?)."""
        held = self._reader.unfinished()
        if held is not None:
            return f": it wrote {held} and no empty line after it (an answer ends with an empty line)"
        if self._reader.blank and not self._pending:
            return f": it wrote {self._reader.blank} bytes of empty lines and no answer"
        if name not in THINKING and not self._pending and self.writes_ahead:     # a pipe: a process's stdout
            return " (nothing came on its stdout: does it flush each answer?)"
        return ""

    async def _answer_after_exit(self) -> Response | None:
        """An answer the engine wrote just before it exited, if one is in the pipe."""
        with trio.move_on_after(EXIT_GRACE):
            try:
                return await self._receive_one()
            except (EngineCrashed, trio.BrokenResourceError, trio.ClosedResourceError):
                return None
        return None

    async def _how_it_ended(self, what: str) -> str:
        """`what`, completed by the exit status when the process is watched and ends soon."""
        if self._watched and self._exit is None:
            with trio.move_on_after(EOF_GRACE):
                await self._exited.wait()
        return f"{what}: {self._exit}" if self._exit is not None else f"{what} (still running)" \
            if self._watched else f"{what} (exited?)"

    async def _receive_one(self, more: int = 0) -> Response:
        while not self._pending:
            self._unbroken()
            self._absorb(await self._receive.receive_some(65536))
        return self._take(more)

    def _unbroken(self) -> None:
        """Raise the violation met after the last whole answers (the stream lost its frame there):
        it is the answer awaited now that broke it, not one to wait for."""
        if self._reader.broken is not None:
            raise self._reader.broken

    def _receive_now(self, receive: EagerReceive, spin: bool, more: int = 0) -> Response | None:
        """The answer if the pipe holds all of it (within the fast path's polling, or one try
        when not `spin`), else None; None too when bytes keep coming without it for YIELD_EVERY
        seconds (the rest is awaited: the loop's other games run, the deadline fires)."""
        if not self._pending:
            self._unbroken()
            data = receive.receive_now(65536, spin)
            if data is None:
                return None
            self._absorb(data)
            if not self._pending:       # part of it: read on, for YIELD_EVERY seconds at most
                stop = self._clock() + YIELD_EVERY
                while not self._pending and self._clock() < stop:
                    self._unbroken()
                    data = receive.receive_now(65536, spin)
                    if data is None:
                        return None
                    self._absorb(data)
                if not self._pending:
                    return None
        return self._take(more)

    def _receive_blocking(self, receive: EagerReceive, deadline: float, more: int = 0) -> Response | None:
        """The answer if all of it comes within BLOCK seconds (and before `deadline`), waited
        for in poll(2), blocking the event loop; else None."""
        if self._pending:
            return self._take(more)
        self._unbroken()
        now = self._clock
        start = now()
        end = min(start + BLOCK, deadline)
        data = receive.receive_blocking(65536, end - start)
        while True:
            if data is None:
                return None
            self._absorb(data)
            if self._pending:
                return self._take(more)
            left = end - now()
            if left <= 0:               # bytes keep coming, not the answer: the rest is awaited
                return None
            data = receive.receive_blocking(65536, left)

    def _absorb(self, data: bytes | bytearray) -> None:
        """Bytes read from the engine's stdout (b"": EOF) into pending responses."""
        if not data:
            self._reader.eof()
            raise EngineCrashed("closed its stdout")
        now = self._clock()
        done = self._reader.feed(data)
        if done:
            self.answered_at = now
            self._pending.extend(done)

    def _take(self, more: int = 0) -> Response:
        """The one response to the command just sent; ProtocolViolation when there are more
        (output not asked for: a banner, an early or a second answer), whichever came first.
        `more`: the answers to commands written after it that may already be there. Of more
        responses than that, the surplus is this command's when another bears the first one's id
        (this one was answered twice), else it is left to the commands after it (one of theirs
        was: the last one's when none can tell)."""
        pending = self._pending
        if len(pending) > 1 + more:
            seen = [r for r in pending if r.id == pending[0].id] if more else list(pending)
            if not more or len(seen) > 1:
                shown = ", ".join(repr(r) for r in seen)
                raise ProtocolViolation(f"{len(seen)} responses to one command: {shown}")
        return pending.popleft()

    @property
    def writes_ahead(self) -> bool:
        """Whether :meth:`command_chain` writes its commands at once (the pipe fast path)."""
        return self._now is not None

    @property
    def reusable(self) -> bool:
        """Healthy, and the process (if watched) has not exited: fit for another game."""
        return self._broken is None and self._exit is None

    @property
    def healthy(self) -> bool:
        """False once a command met a crash, a timeout or a protocol violation (an exit
        between commands shows at the next command)."""
        return self._broken is None

    async def aclose_streams(self) -> None:
        """Close both pipes (the engine sees EOF on stdin), its group continued first; idempotent."""
        if self.pause is not None:
            self.pause.resume()
        for stream in (self._send, self._receive):
            with trio.CancelScope(shield=True):
                try:
                    await stream.aclose()
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass


def _unnoted(text: str) -> None:
    """A channel without a log (tests over memory streams) drops the referee's notes."""
