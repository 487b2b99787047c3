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
`on_lost` (called once), with nothing half-written. Every wait on Dask has a
deadline or a watch: the connection (:func:`_connect`), the pre-flight task of
each host (its worker leaving the scheduler, as one that cannot import hexarena
does, ends the wait), and a game's task (no deadline: it waits for workers to
come back, and says so once when none has been connected for a minute).

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
import threading
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
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
#: Seconds to reach the scheduler (a silent address counts as no scheduler after half as many
#: more), and to wait for a worker (the first one to join; with none connected meanwhile, before
#: a run says it waits for one): Dask's config keys, e.g. DASK_HEXARENA__CLUSTER__CONNECT=5s.
CONNECT_KEY, CONNECT_DEFAULT = "hexarena.cluster.connect", 20.0
WORKERS_KEY, WORKERS_DEFAULT = "hexarena.cluster.workers", 60.0
POLL = 1.0                  # seconds between looks at the scheduler's workers while a task runs
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
            client = _connect(spec)     # TLS: Dask's config (docs/cluster.md)
    except (OSError, TimeoutError, ValueError, RuntimeError) as exc:     # RuntimeError: a local worker failed
        if local is not None:
            local.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {spec}: {_connect_error(exc)}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=worker_timeout())
        except (TimeoutError, OSError):
            raise ClusterError(f"no Dask worker joined the scheduler at {spec} "
                               f"within {worker_timeout():g} s") from None
        cluster = Cluster(client, spec)
        say(cluster.describe())
        yield cluster
    finally:
        client.close(timeout=5)
        if local is not None:
            local.close(timeout=10)


def _seconds(key: str, default: float) -> float:
    """A number of seconds from Dask's config (`key`: "5s", "2 minutes", 5), else `default`;
    ClusterError naming the key for one that is not a time."""
    value = dask.config.get(key, default)
    try:
        seconds = float(dask.utils.parse_timedelta(value, default="seconds"))
    except (TypeError, ValueError, KeyError):
        raise ClusterError(f"Dask's config {key}: {value!r} is not a time (e.g. 20s)") from None
    if not seconds > 0:
        raise ClusterError(f"Dask's config {key}: {value!r} is not a time above 0")
    return seconds


def connect_timeout() -> float:
    return _seconds(CONNECT_KEY, CONNECT_DEFAULT)


def worker_timeout() -> float:
    return _seconds(WORKERS_KEY, WORKERS_DEFAULT)


def _connect(spec: str) -> distributed.Client:
    """A client of the scheduler at `spec`. Dask's handshake has no deadline of its own (an address
    that accepts connections and never answers, such as the dashboard's port, hangs it): the client
    is made in a daemon thread, abandoned with ClusterError when it has not connected in time."""
    made: list[distributed.Client | BaseException] = []
    timeout = connect_timeout()
    patience = timeout + timeout / 2

    def connect() -> None:
        try:
            made.append(distributed.Client(spec, timeout=timeout))
        except BaseException as exc:        # handed to the caller's thread
            made.append(exc)
    thread = threading.Thread(target=connect, name="hexarena-connect", daemon=True)
    thread.start()
    thread.join(patience)
    if not made:
        raise ClusterError(f"no Dask scheduler answered at {spec} within {patience:g} s: "
                           "is it the scheduler's address (tcp://HOST:8786), not its dashboard's?")
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]


def _connect_error(exc: BaseException) -> str:
    """Dask's words for a failed connection, or "connection refused" when that is what its
    timeout hides (nothing listens at the address)."""
    cause: BaseException | None = exc
    for _ in range(10):                 # a chain of causes, not a cycle
        if cause is None:
            break
        if isinstance(cause, ConnectionRefusedError):
            return f"connection refused (tried for {connect_timeout():g} s): is the scheduler running, on that port?"
        cause = cause.__cause__ or cause.__context__
    return str(exc)


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
        self._looked = 0.0                          # trio.current_time() of the last look at the workers
        self._workerless: float | None = None       # since when no worker is connected (None: one is)
        self._warned = False                        # ... and the run said it waits for one
        self._lost = False                          # the scheduler is gone (said once)

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
        hosts = self.hosts()
        futures = {host: self.client.submit(preflight_on_worker, config, workers=[address],
                                            allow_other_workers=False, pure=False,
                                            key=f"hexarena-preflight-{host}-{self.run_id}")
                   for host, address in hosts.items()}
        problems, here = [], installed_version()
        deadline = trio.current_time() + _preflight_seconds(config)
        for host, future in futures.items():
            status, value = await _outcome(future, partial(self._preflight_gone, hosts[host], deadline))
            if status == "finished":
                check = cast(HostCheck, value)      # a finished preflight future holds preflight_on_worker's result
                if check.version != here:           # its other words may not be this version's: nothing written
                    problems.append(f"on {check.host}: hexarena {check.version} is installed, {here} here: "
                                    "install the same version on every worker")
                    continue
                await trio.to_thread.run_sync(_write_files, out, check.files)
                problems += check.problems
            elif self.client.status not in ("running", "newly-created"):
                _quiet()
                raise ClusterError(f"lost the Dask scheduler at {self.spec} during the pre-flight")
            else:
                why = value if status == "gone" else f"{status}: {value}"
                problems.append(f"on {host}: the pre-flight task did not run ({why}); "
                                "is hexarena installed on the workers?")
        return problems

    async def _preflight_gone(self, address: str, deadline: float) -> str | None:
        """Why the pre-flight task pinned to the worker at `address` will never end, if it will not."""
        if trio.current_time() > deadline:
            return "no answer from its worker in time: see that worker's log"
        workers = await self._workers_now()
        if workers is not None and address not in workers:
            return (f"its worker {address} left the scheduler: a worker that cannot import hexarena exits; "
                    "see that worker's log")
        return None

    async def _workers_now(self) -> dict[str, dict] | None:
        """The workers now; None when the scheduler cannot say (the lost scheduler is seen elsewhere)."""
        try:
            return await trio.to_thread.run_sync(self.workers, abandon_on_cancel=True)
        except Exception:       # noqa: BLE001  (any failure of the client: its connection is reported by the task)
            return None

    async def _waiting_for_workers(self, warn: Callable[[str], None]) -> None:
        """Says once (per stretch without workers) that the run waits when no worker has been connected
        for :func:`worker_timeout` seconds; a game's task waits for one (workers may restart)."""
        now = trio.current_time()
        if now - self._looked < POLL:       # the games in flight share one look per POLL
            return
        self._looked = now
        workers = await self._workers_now()
        if workers is None or workers:
            self._workerless = None
        elif self._workerless is None:
            self._workerless, self._warned = now, False
        elif now - self._workerless >= (patience := worker_timeout()) and not self._warned:
            self._warned = True
            warn(f"no Dask worker has been connected to the scheduler at {self.spec} for {patience:g} s: "
                 "the run waits for one (Ctrl-C stops it; --resume continues it later)")

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
                status, value = await _outcome(future, partial(self._waiting_for_workers, warn))
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
                    if not self._lost:  # said once, not once per game in flight
                        self._lost = True
                        on_lost(f"lost the Dask scheduler at {self.spec} ({value})")
                    await trio.sleep_forever()
                lost.append(_why(status, value))
                if status == "error" and not _killed_worker(value):
                    break               # the task itself failed: trying again would fail again
                if attempt < RESUBMITS:
                    warn(f"{game.id}: lost on the cluster ({lost[-1]}); playing it again")
            return _void(game, "lost on the cluster: " + "; ".join(lost))
        return play


async def _outcome(future: distributed.Future, watch: Callable[[], Awaitable[str | None]] | None = None,
                   ) -> tuple[str | None, object]:
    """Wait (without a thread) until `future` is done; ("finished", result), ("error", exception)
    or ("cancelled", reason). The result is fetched from the worker in a thread. `watch` is
    awaited every POLL seconds meanwhile: when it gives a reason, the future is released and
    ("gone", reason) returned."""
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()

    def wake(_: object) -> None:
        try:
            token.run_sync_soon(done.set)
        except trio.RunFinishedError:
            pass
    future.add_done_callback(wake)
    try:
        while not done.is_set():
            with trio.move_on_after(POLL):
                await done.wait()
            why = None if done.is_set() or watch is None else await watch()
            if why is not None:
                future.release()
                return "gone", why
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


def _preflight_seconds(config: TournamentConfig) -> float:
    """A generous bound on one host's pre-flight (its engines start side by side): the slowest
    engine's start and a few commands, plus a minute for Dask and a busy worker."""
    limits = [config.limits_of(engine.name) for engine in config.engines]
    return worker_timeout() + 2 * max((lim.start + 4 * lim.command for lim in limits), default=0.0)


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
