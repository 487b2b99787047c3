"""Engine processes and the HGP channel to them.

:class:`EngineChannel` speaks HGP over any pair of trio byte streams: one
command at a time, increasing ids, every write and read under an absolute
deadline taken from ``trio.current_time()`` (so tests run under MockClock).
It raises only the controller's error tree: EngineCrashed (EOF, broken
pipe), EngineTimeout (deadline passed), ProtocolViolation (garbage, wrong
id, unsolicited output), CommandFailed (a `?` answer). After any error but
CommandFailed the channel is broken and re-raises that error.

:class:`EngineProcess` owns one child process, started from an argv list
(never a shell) in its own process group, stderr appended to a log file.
``aclose()`` sends `quit`, waits briefly, then SIGTERMs and finally SIGKILLs
the whole group; it is shielded from cancellation, so no engine outlives
its game. Nothing is cleaned up in ``__del__``.
"""
from __future__ import annotations

import collections
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import trio

from hexarena.protocol.controller import (
    ControllerError, EngineCrashed, EngineTimeout, ProtocolViolation, Response,
    ResponseReader, expect, format_command,
)

__all__ = ["EngineChannel", "EngineProcess", "EngineStartFailed", "open_engine"]

QUIT_GRACE = 1.0     # seconds an engine gets to exit after `quit`
SPIN = 200e-6        # seconds of busy polling for a quick answer before waiting in trio
TERM_GRACE = 1.0     # seconds between SIGTERM and SIGKILL


class EngineStartFailed(Exception):
    """The engine process could not be spawned (an infrastructure fault: the game is void)."""


def _fd(stream: object) -> int | None:
    """The non-blocking file descriptor behind a trio pipe stream, or None (memory streams)."""
    fileno = getattr(stream, "fileno", None)
    if not callable(fileno):
        return None
    fd = fileno()
    return None if os.get_blocking(fd) else fd     # never block the event loop


class EngineChannel:
    """HGP commands over a send stream (engine stdin) and a receive stream (engine stdout)."""

    def __init__(self, send: trio.abc.SendStream, receive: trio.abc.ReceiveStream, name: str,
                 max_bytes: int = 1_000_000):
        self.name = name
        self._send = send
        self._receive = receive
        self._reader = ResponseReader(max_bytes)
        self._pending: collections.deque[Response] = collections.deque()
        self._next_id = 1
        self._broken: ControllerError | None = None
        self.wait_seconds = 0.0     # time spent waiting for answers (bench figure)
        self._send_fd = _fd(send)
        self._recv_fd = _fd(receive)

    async def command(self, name: str, *args: str, deadline: float) -> str:
        """Send one command and return the text of its `=` answer.

        `deadline` is absolute, in ``trio.current_time()`` units; it covers
        the write and the read. Raises the controller errors listed above.
        """
        if self._broken is not None:
            raise self._broken
        cid = self._next_id
        self._next_id += 1
        data = format_command(cid, name, *args)
        t0 = trio.current_time()
        try:
            resp = None
            if deadline > t0:
                data = self._write_now(data)
                if not data:
                    resp = self._read_now()
            if resp is None:
                with trio.move_on_at(deadline) as scope:
                    if data:
                        await self._send.send_all(data)
                    resp = await self._receive_one()
                if scope.cancelled_caught:
                    raise EngineTimeout(f"{self.name}: no answer to {name!r} in time")
            else:
                await trio.lowlevel.checkpoint_if_cancelled()
            return expect(resp, cid)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._broken = EngineCrashed(f"{self.name}: cannot write to it, its stdin is closed (exited?)")
            raise self._broken from None
        except (EngineCrashed, EngineTimeout, ProtocolViolation) as exc:
            if not str(exc).startswith(f"{self.name}: "):
                exc = type(exc)(f"{self.name}: {exc}")
            self._broken = exc
            raise exc from None
        finally:
            self.wait_seconds += trio.current_time() - t0

    def _write_now(self, data: bytes) -> bytes:
        """Write what the pipe takes without waiting; return the rest (all of it for
        streams without a file descriptor)."""
        if self._send_fd is None:
            return data
        try:
            return data[os.write(self._send_fd, data):]
        except BlockingIOError:
            return data
        except OSError:
            raise trio.BrokenResourceError from None

    def _read_now(self) -> Response | None:
        """The answer, if it arrives within SPIN seconds of busy polling; else None.

        Most answers (`play`, `boardsize`, ...) come back within microseconds:
        polling for them briefly saves a trip through the event loop; slow
        answers (`genmove`) fall back to trio's wait at the cost of SPIN.
        """
        if self._recv_fd is None:
            return None
        end = time.perf_counter() + SPIN
        while True:
            try:
                data = os.read(self._recv_fd, 65536)
            except BlockingIOError:
                if time.perf_counter() > end:
                    return None
                os.sched_yield()                 # let the engine have this core meanwhile
                continue
            except OSError:
                return None                      # let the trio path report it
            if not data:
                self._reader.eof()
                raise EngineCrashed("closed its stdout (exited?)")
            self._pending.extend(self._reader.feed(data))
            if self._pending:
                return self._take()

    async def _receive_one(self) -> Response:
        while not self._pending:
            data = await self._receive.receive_some(65536)
            if not data:
                self._reader.eof()
                raise EngineCrashed("closed its stdout (exited?)")
            self._pending.extend(self._reader.feed(data))
        return self._take()

    def _take(self) -> Response:
        """The one response to the command just sent; ProtocolViolation when there are more
        (output not asked for: a banner, an early or a second answer), whichever came first."""
        if len(self._pending) > 1:
            seen = ", ".join(repr(r) for r in self._pending)
            raise ProtocolViolation(f"{len(self._pending)} responses to one command: {seen}")
        return self._pending.popleft()

    @property
    def healthy(self) -> bool:
        """False once the engine crashed, timed out or broke the protocol."""
        return self._broken is None

    async def aclose_streams(self) -> None:
        """Close both pipes (the engine sees EOF on stdin); idempotent."""
        for stream in (self._send, self._receive):
            with trio.CancelScope(shield=True):
                try:
                    await stream.aclose()
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass


class EngineProcess:
    """One running engine; create with :meth:`start`, always finish with :meth:`aclose`."""

    def __init__(self, process: trio.Process, channel: EngineChannel):
        self.process = process
        self.channel = channel
        self._closed = False

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    async def start(cls, nursery: trio.Nursery, argv: Sequence[str], log_path: str | os.PathLike,
                    name: str, max_bytes: int = 1_000_000, cwd: str | None = None,
                    env: dict[str, str] | None = None, transcript: str | os.PathLike | None = None
                    ) -> EngineProcess:
        """Spawn `argv` inside `nursery` (which then waits for the process).

        `max_bytes` caps one response (see :class:`EngineChannel`). `cwd` and
        `env` (the whole environment) go to the process; `transcript` is a file
        for every protocol line (referee/transcript.py).

        The caller must `await engine.aclose()` before the nursery ends.
        Raises EngineStartFailed when the program cannot be spawned.
        """
        if isinstance(argv, str) or not argv:
            raise EngineStartFailed(f"{name}: the command must be a non-empty list of words, got {argv!r}")
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        with open(log_path, "ab") as log:
            try:
                process = await nursery.start(partial(
                    trio.run_process, list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=log, check=False, start_new_session=True, deliver_cancel=_kill_group,
                    cwd=cwd, env=env))
            except OSError as exc:
                raise EngineStartFailed(f"{name}: cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        streams = (process.stdin, process.stdout)
        if transcript is not None:
            from .transcript import wrap
            streams = wrap(*streams, transcript)
        return cls(process, EngineChannel(*streams, name, max_bytes))

    async def aclose(self, quit_grace: float = QUIT_GRACE, term_grace: float = TERM_GRACE) -> None:
        """Stop the engine and every process of its group; idempotent; shielded."""
        if self._closed:
            return
        self._closed = True
        with trio.CancelScope(shield=True):
            proc = self.process
            if proc.returncode is None and self.channel.healthy:
                deadline = trio.current_time() + quit_grace
                with trio.move_on_at(deadline):
                    try:
                        await self.channel.command("quit", deadline=deadline)
                    except ControllerError:
                        pass
                    await self.channel.aclose_streams()     # EOF on stdin as well
                    await proc.wait()
            await self.channel.aclose_streams()
            if proc.returncode is None:     # broken, timed out, or deaf to quit
                _signal_group(proc.pid, signal.SIGTERM)
                with trio.move_on_after(term_grace):
                    await proc.wait()
            _signal_group(proc.pid, signal.SIGKILL)     # also any child the engine left behind
            await proc.wait()


@asynccontextmanager
async def open_engine(argv: Sequence[str], log_path: str | os.PathLike, name: str, **options
                      ) -> AsyncIterator[EngineChannel]:
    """Run an engine for the duration of the block and yield its channel.

    An error of the block (or EngineStartFailed) is raised again as itself,
    outside the nursery: trio >= 0.25 would otherwise wrap it in an
    ExceptionGroup and the caller's ``except`` clauses would miss it.
    `options` (cwd, env, transcript) go to :meth:`EngineProcess.start`.
    """
    failure: Exception | None = None
    async with trio.open_nursery() as nursery:
        try:
            engine = await EngineProcess.start(nursery, argv, log_path, name, **options)
        except Exception as exc:
            failure = exc
        else:
            try:
                yield engine.channel
            except Exception as exc:
                failure = exc
            finally:
                await engine.aclose()
    if failure is not None:
        raise failure


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


async def _kill_group(process: trio.Process) -> None:
    """run_process's cancel delivery: the whole group, TERM then KILL."""
    _signal_group(process.pid, signal.SIGTERM)
    await trio.sleep(TERM_GRACE)
    _signal_group(process.pid, signal.SIGKILL)
