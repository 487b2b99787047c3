"""The two Dask tasks a cluster worker runs: one game, and the pre-flight of its host.

Both run on a worker thread with their own ``trio.run`` (this module and
hexarena/cli.py are the only places that call it) and use exactly the code
of a local run: :func:`hexarena.referee.tournament.play_scheduled` with the
process launcher (argv expansion with the worker's own interpreter for
``{python}``, deadlines, fault handling, each engine in its own process group
killed at game end) and :func:`hexarena.referee.preflight.preflight`.
Nothing is written on the worker but a temporary folder, removed before the
task returns: the SGF and engine logs travel back in the result, and the
coordinator alone writes the output folder and the journal.

Workers need hexarena (and the engines the config names) installed; these
functions are pickled by reference, so the worker imports this module.
"""
from __future__ import annotations

import socket
import tempfile
from importlib import metadata
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

import trio

from hexarena.referee.config import TournamentConfig
from hexarena.referee.preflight import preflight
from hexarena.referee.schedule import ScheduledGame
from hexarena.referee.tournament import play_scheduled


@dataclass(frozen=True)
class PlayedGame:
    """What a worker sends back for one game: the record (as a dict) and the files it wrote.

    `files` maps a path relative to the output folder (``games/ID.sgf``,
    ``logs/ID.1-NAME.log``) to its bytes; `host` names the worker's machine.
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
        record = trio.run(partial(play_scheduled, game, config, folder))
        return PlayedGame(asdict(record), _collect(folder), socket.gethostname())


def preflight_on_worker(config: TournamentConfig) -> HostCheck:
    """Start every engine of `config` once on this host; the problems name the host."""
    host = socket.gethostname()
    with tempfile.TemporaryDirectory(prefix="hexarena-preflight-") as tmp:
        folder = Path(tmp)
        problems = trio.run(partial(preflight, config, folder))
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
    """Every file under `folder`, by relative POSIX path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
