"""Engine processes: start, watch, stop (the channel to them is :mod:`referee.engines.channel`).

:class:`EngineProcess` owns one child process, started from an argv list
(never a shell) by :func:`referee.engines.spawn.spawn`: own process group,
parent-death signal, optional rlimits; stderr drained into a capped log
(:mod:`referee.engines.capped_log`). A watcher task waits for the process itself,
so an exit during a command is a crash at once, with its exit status or
signal, even when children it forked keep the pipes open. ``aclose()``
sends `quit`, waits briefly, then SIGTERMs and finally SIGKILLs the whole
group; it is shielded from cancellation, so no engine outlives its game.
Started with `pause`, the engine's group is stopped while it is not its turn
(:mod:`referee.engines.pause`) and continued before any write, before its stdin
is closed, before SIGTERM and once it has exited.
Nothing is cleaned up in ``__del__``.
"""
from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from hexarena.protocol.controller import ControllerError

from . import leftovers
from .capped_log import DEFAULT_LOG_CAP, CappedLog, drain_to_log, widen_pipe
from .channel import EngineChannel
from .eager import eager_pair
from .groups import sole
from .pause import GroupPause
from .spawn import ResourceLimits, describe_exit, renew_cpu_limit, spawn

__all__ = ["EngineChannel", "EngineProcess", "EngineStartFailed", "open_engine"]

QUIT_GRACE = 1.0     # seconds an engine gets to exit after `quit`
TERM_GRACE = 1.0     # seconds between SIGTERM and SIGKILL
DRAIN_GRACE = 0.5    # seconds for the stderr log to reach EOF once the group is killed


class EngineStartFailed(Exception):
    """The engine process could not be spawned (an infrastructure fault: the game is void)."""


class EngineProcess:
    """One running engine; create with :meth:`start`, always finish with :meth:`aclose`."""

    def __init__(self, popen, channel: EngineChannel, resources: ResourceLimits):
        self.popen = popen
        self.channel = channel
        self.resources = resources
        self.cpu_allowed = resources.cpu_seconds    # its soft CPU limit (a kept process's grows per game)
        self.cpu_used: float | None = None          # its CPU seconds when reaped (or last read)
        self.exited = trio.Event()
        self.drained = trio.Event()
        self.drain_scope = trio.CancelScope()
        self._live = leftovers.current()
        self._closed = False
        try:
            self._pidfd: int | None = os.pidfd_open(popen.pid)
        except (AttributeError, OSError):
            self._pidfd = None

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def process(self) -> EngineProcess:
        """The process itself (``pid``, ``returncode``, ``await wait()``), as trio.Process offers."""
        return self

    async def wait(self) -> int:
        """Wait until the process has exited; its return code."""
        await self.exited.wait()
        assert self.popen.returncode is not None
        return self.popen.returncode

    @property
    def returncode(self) -> int | None:
        return self.popen.returncode

    @classmethod
    async def start(cls, nursery: trio.Nursery, argv: Sequence[str], log_path: str | os.PathLike,
                    name: str, max_bytes: int = 1_000_000, *, resources: ResourceLimits = ResourceLimits(),
                    log_cap: int = DEFAULT_LOG_CAP, eager: bool = True, cwd: str | None = None,
                    env: dict[str, str] | None = None, transcript: str | os.PathLike | None = None,
                    program: str | None = None, pause: bool = False, guarded: bool = False,
                    renewable: bool = False) -> EngineProcess:
        """Spawn `argv`; its watcher and stderr drain run in `nursery`. `cwd` and `env` (the
        whole environment) go to the process; `transcript` is a file for every protocol line
        (referee/engines/transcript.py); `program` is the engine's program as messages name it
        (by default argv[0]; a cluster worker's argv starts with the guard's interpreter).
        `pause`: its group is stopped while it is not its turn (referee/engines/pause.py); `guarded`:
        the process is a guard of the engine (a cluster worker's), which goes on running then.
        `renewable`: its CPU limit is renewed per game (the channel's ``renew``), for a kept process.

        `max_bytes` caps one response (see :class:`EngineChannel`), `log_cap`
        the stderr log, `eager` switches the pipe fast path (:mod:`referee.engines.eager`).
        The caller must `await engine.aclose()` before the nursery ends.
        Raises EngineStartFailed when the program cannot be spawned.
        """
        if isinstance(argv, str) or not argv:
            raise EngineStartFailed(f"{name}: the command must be a non-empty list of words, got {argv!r}")
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        await trio.lowlevel.checkpoint()
        try:
            popen = spawn(argv, resources, cwd=cwd, env=env, renewable=renewable)
        except OSError as exc:
            if cwd is not None and not os.path.isdir(cwd):
                what = "is missing" if not os.path.lexists(cwd) else "is not a folder"
                raise EngineStartFailed(f"{name}: cannot start {program or argv[0]!r}: its working folder (cwd) "
                                        f"{cwd!r} {what}") from None
            raise EngineStartFailed(f"{name}: cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        if leftovers.current() is not None:
            leftovers.current().add(popen.pid)      # type: ignore[union-attr]
        assert popen.stderr is not None     # spawn always opens a stderr pipe
        widen_pipe(popen.stderr.fileno())
        stdin, stdout, stderr = (_fd_stream(f) for f in (popen.stdin, popen.stdout, popen.stderr))
        send, receive = eager_pair(stdin, stdout, eager)
        record = None
        if transcript is not None:
            from .transcript import wrap
            send, receive = wrap(send, receive, transcript)
            record = send.transcript
        channel = EngineChannel(send, receive, name, max_bytes, watched=True)
        engine = cls(popen, channel, resources)
        log = CappedLog(log_path, log_cap)

        def relog(path: Path) -> None:
            """Logs into another game's files: stderr to `path`, the transcript (if any) beside
            it as `path` with the suffix `.hgp` (tournament.process_launcher's names)."""
            log.switch(path)
            if record is not None:
                record.switch(Path(path).with_suffix(".hgp"))
        channel.relog = relog
        channel.note = log.note
        if pause:
            channel.pause = GroupPause(popen.pid, keep_leader=guarded)
        if renewable and resources.cpu_seconds is not None:
            channel.renew = engine.renew_cpu_limit
        nursery.start_soon(engine._watch)
        nursery.start_soon(engine._drain, stderr, log)
        return engine

    def renew_cpu_limit(self) -> None:
        """A new game: the process gets its `cpu_seconds` again, counted from the CPU it has used
        (referee/engines/spawn.py, :func:`~.spawn.renew_cpu_limit`)."""
        assert self.resources.cpu_seconds is not None
        allowed = renew_cpu_limit(self.pid, self.resources.cpu_seconds)
        if allowed is not None:
            self.cpu_allowed = allowed

    def _reap(self) -> None:
        """Reap the exited process, keeping the CPU it used (its rusage) for :func:`describe_exit`."""
        try:
            _, status, usage = os.wait4(self.pid, 0)
        except ChildProcessError:           # reaped elsewhere: its return code is Popen's to say
            self.popen.wait()
            return
        self.cpu_used = usage.ru_utime + usage.ru_stime
        self.popen.returncode = os.waitstatus_to_exitcode(status)

    async def _wait_exit(self) -> None:
        if self._pidfd is not None:
            await trio.lowlevel.wait_readable(self._pidfd)
            if self.popen.returncode is None:
                self._reap()
        else:
            while self.popen.poll() is None:
                await trio.sleep(0.01)

    async def _watch(self) -> None:
        """Wait for the process; tell the channel how it ended. If the nursery is
        cancelled first, end the group (as trio.run_process does) and still wait."""
        try:
            await self._wait_exit()
        except trio.Cancelled:
            with trio.CancelScope(shield=True):
                if self.channel.pause is not None:
                    self.channel.pause.resume()     # else SIGTERM would wait for a SIGCONT
                _signal_group(self.pid, signal.SIGTERM)
                with trio.move_on_after(TERM_GRACE):
                    await self._wait_exit()
                _signal_group(self.pid, signal.SIGKILL)
                await self._wait_exit()
            raise
        finally:
            if self.popen.returncode is not None:
                if self.channel.pause is not None:
                    self.channel.pause.resume()     # its children, if any, are not left stopped
                self.channel.engine_exited(describe_exit(self.popen.returncode, self.resources,
                                                         self.cpu_used, self.cpu_allowed))
                self.exited.set()
                if self._pidfd is not None:
                    os.close(self._pidfd)
                    self._pidfd = None

    async def _drain(self, stderr: trio.abc.ReceiveStream, log: CappedLog) -> None:
        try:
            with self.drain_scope:
                await drain_to_log(stderr, log)
        finally:
            self.drained.set()

    async def aclose(self, quit_grace: float = QUIT_GRACE, term_grace: float = TERM_GRACE) -> None:
        """Stop the engine and every process of its group; idempotent; shielded."""
        if self._closed:
            return
        self._closed = True
        with trio.CancelScope(shield=True):
            if not self.exited.is_set() and self.channel.healthy:
                deadline = trio.current_time() + quit_grace
                with trio.move_on_at(deadline):
                    try:
                        await self.channel.command("quit", deadline=deadline)
                    except ControllerError:
                        pass
                    await self.channel.aclose_streams()     # EOF on stdin as well
                    await self.exited.wait()
            await self.channel.aclose_streams()     # continues a stopped group first
            if not self.exited.is_set():     # broken, timed out, or deaf to quit
                _signal_group(self.pid, signal.SIGTERM)
                with trio.move_on_after(term_grace):
                    await self.exited.wait()
            _signal_group(self.pid, signal.SIGKILL)     # also any child the engine left behind
            await self.exited.wait()
            with trio.move_on_after(DRAIN_GRACE):       # a child outside the group may hold stderr
                await self.drained.wait()
            self.drain_scope.cancel()
            await self.drained.wait()
            if self._live is not None:
                self._live.remove(self.pid)


@asynccontextmanager
async def open_engine(argv: Sequence[str], log_path: str | os.PathLike, name: str, *,
                      resources: ResourceLimits = ResourceLimits(), log_cap: int = DEFAULT_LOG_CAP,
                      eager: bool = True, cwd: str | None = None, env: dict[str, str] | None = None,
                      transcript: str | os.PathLike | None = None, program: str | None = None,
                      pause: bool = False, guarded: bool = False, renewable: bool = False
                      ) -> AsyncIterator[EngineChannel]:
    """Run an engine for the duration of the block and yield its channel.

    An error of the block (or EngineStartFailed) is raised again as itself
    (:func:`referee.engines.groups.sole`), not wrapped in the nursery's ExceptionGroup.
    `cwd`, `env`, `transcript`, `program`, `pause`, `guarded` and `renewable` go to
    :meth:`EngineProcess.start`.
    """
    try:
        async with trio.open_nursery() as nursery:
            engine = await EngineProcess.start(nursery, argv, log_path, name, resources=resources, log_cap=log_cap,
                                               eager=eager, cwd=cwd, env=env, transcript=transcript,
                                               program=program, pause=pause, guarded=guarded,
                                               renewable=renewable)
            try:
                yield engine.channel
            finally:
                await engine.aclose()
    except BaseExceptionGroup as group:
        raise sole(group) from None


def _fd_stream(file) -> trio.lowlevel.FdStream:
    """A trio stream owning the pipe behind a Popen file object (which is closed)."""
    stream = trio.lowlevel.FdStream(os.dup(file.fileno()))
    file.close()
    return stream


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
