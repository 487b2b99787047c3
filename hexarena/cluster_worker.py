"""The two Dask tasks a cluster worker runs: one game, and the pre-flight of its host.

Both run on a worker thread with their own ``trio.run`` (this module and
hexarena/cli.py are the only places that call it) and use exactly the code
of a local run: :func:`hexarena.referee.tournament.run.play_scheduled` with the
process launcher (argv expansion with the worker's own interpreter for
``{python}``, deadlines, fault handling, each engine in its own process group
killed at game end) and :func:`hexarena.referee.tournament.preflight.preflight`.
Nothing is written on the worker but a temporary folder, removed before the
task returns: the SGF and engine logs travel back in the result, and the
coordinator alone writes the output folder and the journal.

One addition to a local run: each engine is started through a small guard
process (:data:`GUARD`, the head of its process group) that kills the group
when the worker process dies. A worker can die by SIGKILL mid-game (no code
of ours runs then); without the guard an engine deep in a long search would
keep a core busy on that machine until its move was done.

Workers need hexarena (and the engines the config names) installed; these
functions are pickled by reference, so the worker imports this module.
"""
from __future__ import annotations

import os
import socket
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import metadata
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import trio

from hexarena.referee.engines.process import EngineChannel, EngineStartFailed
from hexarena.referee.tournament.config import EngineSpec, TournamentConfig
from hexarena.referee.tournament.preflight import preflight
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.referee.tournament.run import play_scheduled, process_launcher

#: argv: WORKER_PID STARTED ENGINE_ARGV... Runs the engine as its child (same stdin, stdout, stderr, same
#: process group), writes the file STARTED (empty, or why the engine could not be started: then it exits
#: 127), lets go of the pipes, ends as the engine ends (its exit status, or killed by the same signal, no core
#: file), and kills the whole group if WORKER_PID stops being its parent (the worker died); the engine also
#: gets the parent-death signal of the guard, which the referee's spawn gives a parent-death signal in turn
#: (referee/engines/spawn.py), so a SIGKILLed worker takes guard and engine with it. Standard library only:
#: it runs as `python -I -S -c GUARD`.
GUARD = r"""
import ctypes, os, signal, subprocess, sys
worker, started, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
guard = os.getpid()
try:
    prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):
    prctl = None
def die_with_guard():
    if prctl is not None:
        prctl(1, signal.SIGKILL, 0, 0, 0)          # PR_SET_PDEATHSIG
        if os.getppid() != guard:
            os._exit(137)
def say(text):
    with open(started + ".part", "w") as fh:
        fh.write(text)
    os.replace(started + ".part", started)
try:
    engine = subprocess.Popen(argv, preexec_fn=die_with_guard)
except OSError as exc:
    say("cannot start %r: %s" % (argv[0], exc.strerror or exc))
    sys.exit(127)
say("")
os.close(0); os.close(1)
while True:
    try:
        code = engine.wait(timeout=0.25)
        break
    except subprocess.TimeoutExpired:
        pass
    if os.getppid() != worker:
        os.killpg(0, signal.SIGKILL)
if code < 0:
    if prctl is not None:
        prctl(4, 0, 0, 0, 0)                        # PR_SET_DUMPABLE 0: no core file of the guard
    try:
        signal.signal(-code, signal.SIG_DFL)
    except (OSError, ValueError):
        pass
    os.kill(guard, -code)
sys.exit(code if code >= 0 else 128 - code)
"""
GUARD_REPORT = 10.0     # seconds a guard may take to say whether its engine started


@asynccontextmanager
async def guarded_launcher(engine: EngineSpec, seed: int, log: Path) -> AsyncIterator[EngineChannel]:
    """The process launcher of a local run, with the engine started under :data:`GUARD`; as locally,
    EngineStartFailed when the engine's program cannot be started (the guard says so)."""
    started = log.with_name(f".{log.name}.started")       # a dot file: not collected with the logs
    prefix = (sys.executable, "-I", "-S", "-c", GUARD, str(os.getpid()), str(started))
    async with process_launcher(engine, seed, log, prefix=prefix) as channel:
        with trio.move_on_after(GUARD_REPORT):
            while not started.exists() and channel.reusable:     # reusable: the guard has not exited
                await trio.sleep(0.002)
        why = started.read_text() if started.exists() else ""
        started.unlink(missing_ok=True)
        if why:
            raise EngineStartFailed(f"{engine.name}: {why}")
        yield channel


@dataclass(frozen=True)
class PlayedGame:
    """What a worker sends back for one game: the record (as the journal's JSON object,
    `GameRecord.to_dict`) and the engine logs.

    `files` maps a path relative to the output folder (``logs/ID.1-NAME.log``)
    to its bytes; `host` names the worker's machine. The coordinator checks the
    record against the rules and writes the SGF file from it.
    """

    record: dict
    files: dict[str, bytes] = field(default_factory=dict)
    host: str = ""


@dataclass(frozen=True)
class HostCheck:
    """The pre-flight of one worker host: its problems (sentences), the engine logs it wrote
    and the hexarena version installed there."""

    host: str
    problems: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    version: str = ""


def play_on_worker(game: ScheduledGame, config: TournamentConfig) -> PlayedGame:
    """Play `game` on this worker; never raises on engine misbehaviour (the record says it)."""
    with tempfile.TemporaryDirectory(prefix="hexarena-game-") as tmp:
        folder = Path(tmp)
        record = trio.run(partial(play_scheduled, game, config, folder, guarded_launcher))
        return PlayedGame(record.to_dict(), _collect(folder), socket.gethostname())


def preflight_on_worker(config: TournamentConfig) -> HostCheck:
    """Start every engine of `config` once on this host; the problems name the host."""
    host = socket.gethostname()
    with tempfile.TemporaryDirectory(prefix="hexarena-preflight-") as tmp:
        folder = Path(tmp)
        problems = trio.run(partial(preflight, config, folder, guarded_launcher))
        here = f"logs/{host}/"
        problems = [f"on {host}: " + p.replace(str(folder / "logs") + "/", here) for p in problems]
        files = {here + Path(rel).name: data for rel, data in _collect(folder).items()}
        return HostCheck(host, problems, files, installed_version())


def installed_version() -> str:
    try:
        return metadata.version("hexarena")
    except metadata.PackageNotFoundError:
        return "unknown"


def _collect(folder: Path) -> dict[str, bytes]:
    """The engine logs under `folder` (``logs/...``, by relative POSIX path); not its lock file, nor
    the guards' dot files."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted((folder / "logs").rglob("*"))
            if p.is_file() and not p.name.startswith(".")}
