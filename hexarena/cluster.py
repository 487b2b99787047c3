"""Tournaments on a Dask cluster: the coordinator side (docs/cluster.md).

The coordinator (the `hexarena tournament` process) keeps the schedule,
the single journal writer, the output folder, the live view and resume.
Each game is one Dask task (:func:`hexarena.cluster_worker.play_on_worker`)
that starts both engines on a worker, plays with the local runner's code
and returns the record with its SGF and engine logs; this module writes
those files under the output folder, then hands the record to the journal
writer of :func:`hexarena.referee.tournament.run` through its `play` hook.

Faults: a worker that dies mid-game loses that game only; Dask moves the
task to another worker (up to ``distributed.scheduler.allowed-failures``
times), then this module submits it again (:data:`RESUBMITS` times), then
records the game as void (replayed on resume). A game id is delivered at
most once per run. The scheduler going away stops the run through
`on_lost`, with nothing half-written.

In flight are the games running on workers: the runner is given one game
slot per worker thread (or `games` resource) and submits the next game when
one ends. No record is taken on trust: each is replayed through the rules
(:mod:`hexarena.cluster_check`), and one they refuse is journaled void
(`rejected`). `local:N` runs with TLS credentials made for the run; a
``tls://`` address takes its credentials from Dask's configuration.

`distributed` is an optional dependency (``pip install 'hexarena[cluster]'``):
without it, :func:`open_cluster` raises ClusterError saying so.
"""
from __future__ import annotations

import logging
import os
import signal
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import cast

import trio

from hexarena.engine.numbers import shown
from hexarena.referee.tournament.config import TournamentConfig
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.referee.tournament.run import PlayGame, TournamentError
from hexarena.results.record.game import GameRecord, VoidCause
from hexarena.results.record.journal import write_atomic

from .cluster_check import verified, with_sgf
from .cluster_worker import HostCheck, PlayedGame, installed_version, play_on_worker, preflight_on_worker

try:
    import dask
    import distributed
except ImportError:          # the extra is not installed: --cluster says which one
    distributed = None       # type: ignore[assignment]  # the optional-import idiom: None means absent

EXTRA = "pip install 'hexarena[cluster]'"
RESUBMITS = 2               # after Dask's own retries on other workers
CONNECT_TIMEOUT = 20        # seconds to reach the scheduler
WORKER_TIMEOUT = 60         # seconds to wait for a first worker to join
MAX_LOCAL_WORKERS = 256     # local:N beyond this is a typo, not a machine
GAMES_RESOURCE = "games"    # `dask worker --resources games=N`: at most N games at once on it


class ClusterError(TournamentError):
    """The cluster cannot be used as asked (message says why and what to do)."""


@contextmanager
def open_cluster(spec: str, say: Callable[[str], None] = lambda line: None) -> Iterator[Cluster]:
    """Connect to `spec` (a scheduler address, or ``local:N`` for N local worker processes of one
    thread each) and close the client (and a local cluster) on exit. ClusterError if it cannot.
    `say` receives one line describing the cluster once connected."""
    if distributed is None:
        raise ClusterError(f"--cluster needs Dask's `distributed` package: {EXTRA}")
    logging.getLogger("distributed").setLevel(logging.ERROR)
    local = None
    try:
        if spec.startswith("local:"):
            n = _local_workers(spec)
            security = _run_credentials()
            # Dask's HTTP pages (dashboard, info, metrics) are plain HTTP without credentials: none
            # is served (the scheduler's HTTP server, on the loopback, answers every path 404)
            no_pages: dict[str, list[str]] = {"distributed.scheduler.http.routes": [],
                                              "distributed.worker.http.routes": []}
            with _sigint_ignored(), dask.config.set(no_pages):  # Ctrl-C is the coordinator's alone to handle
                local = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                                 dashboard_address=None, silence_logs=logging.ERROR,
                                                 security=security)
            client = distributed.Client(local, security=security)
        else:
            _tls_configured(spec)
            client = distributed.Client(spec, timeout=CONNECT_TIMEOUT)     # TLS: Dask's config (docs/cluster.md)
    except (OSError, TimeoutError, ValueError, RuntimeError) as exc:     # RuntimeError: a local worker failed
        if local is not None:
            local.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {spec}: {exc}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except (TimeoutError, OSError):
            raise ClusterError(f"no Dask worker joined the scheduler at {spec} "
                               f"within {WORKER_TIMEOUT} s") from None
        cluster = Cluster(client, spec)
        say(cluster.describe())
        yield cluster
    finally:
        client.close(timeout=5)
        if local is not None:
            local.close(timeout=10)


def _run_credentials() -> distributed.Security:
    """TLS credentials made for this run only (a self-signed key and certificate, in memory): the
    local scheduler and workers accept no connection without them."""
    try:
        return distributed.Security.temporary()
    except ImportError:
        raise ClusterError(f"--cluster local:N needs the `cryptography` package: {EXTRA}") from None


def _tls_configured(spec: str) -> None:
    """A tls:// address needs Dask's TLS settings; ClusterError naming them when they are missing."""
    if spec.startswith("tls://") and not distributed.Security().get_connection_args("client").get("ssl_context"):
        raise ClusterError(f"--cluster {spec}: a tls:// scheduler needs the client's certificate in Dask's "
                           "config: DASK_DISTRIBUTED__COMM__TLS__CA_FILE, DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT "
                           "and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY (docs/cluster.md, Security)")


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while local worker processes are spawned: they inherit it (an ignored signal
    stays ignored across exec, and Python then installs no KeyboardInterrupt handler), so a Ctrl-C
    sent to the terminal's process group reaches the coordinator only, which stops them itself."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _local_workers(spec: str) -> int:
    text = spec.removeprefix("local:")
    n = int(text) if text.isascii() and text.isdigit() and len(text) <= 4 else 0
    if not 1 <= n <= MAX_LOCAL_WORKERS:
        raise ClusterError(f"--cluster {shown(spec)}: expected local:N with N from 1 to "
                           f"{MAX_LOCAL_WORKERS} worker processes")
    return n


class Cluster:
    """A connected Dask client, as the tournament runner needs it."""

    def __init__(self, client: distributed.Client, spec: str):
        self.client = client
        self.spec = spec
        self.run_id = uuid.uuid4().hex[:8]      # task keys never collide with an earlier run's
        self.address = str(client.scheduler.address) if client.scheduler is not None else spec
        workers = self.workers()
        by_resource = [w["resources"].get(GAMES_RESOURCE) for w in workers.values()]
        self.resources = {GAMES_RESOURCE: 1} if any(by_resource) else None
        #: games the cluster plays at once when it starts (workers may join or leave later)
        self.slots = int(sum(r or 0 for r in by_resource)) if self.resources else \
            sum(w["nthreads"] for w in workers.values())

    def workers(self) -> dict[str, dict]:
        """Every worker now: address -> Dask's description (host, nthreads, resources, ...)."""
        # n_workers=-1: all of them (some releases list 5 by default; older ones ignore the argument)
        return self.client.scheduler_info(n_workers=-1)["workers"]

    def describe(self) -> str:
        workers = self.workers()
        hosts = {w["host"] for w in workers.values()}
        per = f"'{GAMES_RESOURCE}' resource" if self.resources else "worker thread"
        at = f" at {self.address}" if self.address != self.spec else ""
        return (f"cluster {self.spec}{at}: {len(workers)} workers on {len(hosts)} hosts, "
                f"{self.slots} games at once (one per {per})")

    def hosts(self) -> dict[str, str]:
        """One worker address per distinct host."""
        chosen: dict[str, str] = {}
        for address, info in sorted(self.workers().items()):
            chosen.setdefault(info["host"], address)
        return chosen

    async def preflight(self, config: TournamentConfig, out: Path) -> list[str]:
        """Run the engine pre-flight once on each distinct worker host; its logs go to
        ``OUT/logs/HOST/``. Returns the problems (empty: every engine answers everywhere)."""
        futures = {host: self.client.submit(preflight_on_worker, config, workers=[address],
                                            allow_other_workers=False, pure=False,
                                            key=f"hexarena-preflight-{host}-{self.run_id}")
                   for host, address in self.hosts().items()}
        problems, here = [], installed_version()
        for host, future in futures.items():
            status, value = await _outcome(future)
            if status == "finished":
                check = cast(HostCheck, value)      # a finished preflight future holds preflight_on_worker's result
                await trio.to_thread.run_sync(_write_files, out, check.files)
                problems += check.problems
                if check.version != here:
                    problems.append(f"on {host}: hexarena {check.version} is installed, {here} here: "
                                    "install the same version on every worker")
            elif self.client.status not in ("running", "newly-created"):
                _quiet()
                raise ClusterError(f"lost the Dask scheduler at {self.spec} during the pre-flight")
            else:
                problems.append(f"on {host}: the pre-flight task did not run ({status}: {value}); "
                                "is hexarena installed on the workers?")
        return problems

    def player(self, config: TournamentConfig, out: Path, on_lost: Callable[[str], None],
               warn: Callable[[str], None] = lambda line: None) -> PlayGame:
        """The `play` hook of tournament.run: each game is a Dask task; its files are written
        under `out` before the record is returned. When the scheduler is gone it calls
        `on_lost(message)` and waits to be cancelled; `warn` hears of each game played again."""
        delivered: set[str] = set()

        async def play(game: ScheduledGame) -> GameRecord:
            lost: list[str] = []
            for attempt in range(RESUBMITS + 1):
                future = self.client.submit(play_on_worker, game, config, pure=False,
                                            resources=self.resources,
                                            key=f"hexarena-{game.id}-{self.run_id}-{attempt}")
                status, value = await _outcome(future)
                if status == "finished":
                    played = cast(PlayedGame, value)   # a finished game future holds play_on_worker's result
                    if game.id in delivered:
                        raise ClusterError(f"game {game.id} came back twice")   # cannot happen
                    delivered.add(game.id)
                    logs = {rel: data for rel, data in played.files.items() if rel.startswith("logs/")}
                    await trio.to_thread.run_sync(_write_files, out, logs)
                    record, why, trail = await trio.to_thread.run_sync(verified, played.record, game,
                                                                       config.adjudication)
                    if record is None or why is not None:
                        warn(f"{game.id}: the record from {played.host or 'a worker'} is refused: {why}")
                        return _void(game, f"refused: the record from {played.host or 'a worker'} "
                                           f"does not follow the rules: {why}", VoidCause.REJECTED)
                    return await trio.to_thread.run_sync(with_sgf, record, config, out, trail)
                if self.client.status not in ("running", "newly-created"):
                    _quiet()            # the client's failed reconnection would log a traceback
                    on_lost(f"lost the Dask scheduler at {self.spec} ({value})")
                    await trio.sleep_forever()
                lost.append(_why(status, value))
                if status == "error" and not _killed_worker(value):
                    break               # the task itself failed: trying again would fail again
                if attempt < RESUBMITS:
                    warn(f"{game.id}: lost on the cluster ({lost[-1]}); playing it again")
            return _void(game, "lost on the cluster: " + "; ".join(lost))
        return play


async def _outcome(future: distributed.Future) -> tuple[str | None, object]:
    """Wait (without a thread) until `future` is done; ("finished", result), ("error", exception)
    or ("cancelled", reason). The result is fetched from the worker in a thread."""
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()

    def wake(_: object) -> None:
        try:
            token.run_sync_soon(done.set)
        except trio.RunFinishedError:
            pass
    future.add_done_callback(wake)
    try:
        await done.wait()
    except trio.Cancelled:
        future.release()        # the scheduler forgets the game (a running one ends unread)
        raise
    if future.status == "finished":
        try:
            return "finished", await trio.to_thread.run_sync(future.result)
        except Exception as exc:        # the worker holding the result died meanwhile
            return "error", exc
    if future.status == "error":
        return "error", await trio.to_thread.run_sync(future.exception)
    return future.status, "scheduler connection lost" if future.status == "cancelled" else ""


def _quiet() -> None:
    for name in ("distributed", "distributed.client", "distributed.utils"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _why(status: str | None, value: object) -> str:
    """A short reason a game's task gave no result."""
    if type(value).__name__ == "KilledWorker":
        return "its worker died"
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}"[:300]
    return f"{status}: {value}"


def _killed_worker(exc: object) -> bool:
    return type(exc).__name__ in ("KilledWorker", "CancelledError", "FutureCancelledError") or \
        isinstance(exc, (OSError, TimeoutError))


def _void(game: ScheduledGame, reason: str, cause: VoidCause = VoidCause.CLUSTER) -> GameRecord:
    return GameRecord.voided(game.id, game.game, game.size, game.variant, game.first, game.second,
                             cause, reason, pair=game.pair, komi=game.komi)


def _write_files(out: Path, files: dict[str, bytes]) -> None:
    """SGF files whole (atomic rename), engine logs appended, as a local run writes them."""
    for rel, data in files.items():
        path = PurePosixPath(rel)
        if path.is_absolute() or ".." in path.parts or path.parts[0] not in ("games", "logs"):
            raise ClusterError(f"a worker sent a file outside games/ and logs/: {rel!r}")
        target = out.joinpath(*path.parts)
        if path.parts[0] == "games":
            write_atomic(target, data.decode("utf-8"))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "ab") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
