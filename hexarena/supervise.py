"""A tournament run under the CLI's supervision: the pre-flight, the live view, the report
refresher, the SPRT tracker, Ctrl-C (once: finish the games in flight; twice, SIGTERM, SIGHUP:
abandon them) and, with --cluster, a Dask cluster. The CLI commands `tournament` and `match`
end here; this module wires those pieces, each of which lives with what it serves.
"""
from __future__ import annotations

import gc
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hexarena.terminal import echo

if TYPE_CHECKING:
    import trio

    from hexarena.cluster import Cluster
    from hexarena.referee.tournament.config import TournamentConfig
    from hexarena.referee.tournament.run import RunOutcome
    from hexarena.results.record.game import GameRecord


@dataclass
class Signals:
    """Ctrl-C once while games run: `stop` is set (no new game starts); Ctrl-C again, SIGTERM,
    SIGHUP, or a signal before the games start: the run's scope is cancelled. `signalled` tells
    the caller to exit as interrupted."""

    stop: trio.Event
    running: bool = False
    signalled: bool = False
    scope: trio.CancelScope | None = field(default=None, repr=False)

    async def watch(self, scope: trio.CancelScope, task_status=None) -> None:
        import trio
        self.scope = scope
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM, signal.SIGHUP) as signals:
            (task_status or trio.TASK_STATUS_IGNORED).started()
            async for sig in signals:
                self.signalled = True
                if sig == signal.SIGINT and self.running and not self.stop.is_set():
                    self.stop.set()
                    echo("\nstopping: no new game starts, the games in flight finish "
                               "(Ctrl-C again abandons them)", err=True)
                else:
                    scope.cancel()

    def abandon(self, message: str) -> None:
        """Stop at once as if signalled (--cluster: the scheduler went away)."""
        warn(message)
        self.signalled = True
        if self.scope is not None:
            self.scope.cancel()


def warn(message: str) -> None:
    echo(f"warning: {message}", err=True)


async def preflight_or_fail(config: TournamentConfig, out: Path, launcher, cluster: Cluster | None) -> None:
    """The pre-flight: every engine started once (on each cluster host with --cluster); a
    TournamentError listing the problems when one fails."""
    from hexarena.referee.tournament.preflight import preflight
    from hexarena.referee.tournament.run import TournamentError
    problems = await (cluster.preflight(config, out) if cluster else preflight(config, out, launcher))
    if problems:
        raise TournamentError("not started: an engine failed the pre-flight check "
                              "(--no-preflight skips it):\n  " + "\n  ".join(problems))


@contextmanager
def starting() -> Iterator[None]:
    """No garbage collection while a run starts (its modules imported, its config read): what
    that makes lives as long as the process, so on leaving it is frozen (``gc.freeze``: no later
    collection walks it) and the collector's state is restored (the games run with it)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def default_workers(concurrency: int) -> int:
    """The worker processes of a local run when --workers is not given (docs/tournament.md,
    "Games on every core"): none for one game at a time, else one per game at once up to one
    per CPU this process may use."""
    from hexarena.referee.tournament.affinity import cpu_count
    return 0 if concurrency == 1 else min(concurrency, cpu_count())


def run(config: TournamentConfig, out: Path, concurrency: int, resume: bool, quiet: bool,
        check_engines: bool = True, log_protocol: bool = False, cluster: str | None = None,
        affinity: tuple[tuple[int, ...], ...] | None = None, serve: int | None = None,
        workers: int | None = None) -> None:
    """Run the tournament of `config` into `out` and print its tables; exit 130 when interrupted.
    `affinity`: the CPUs of each slot (pinned cores), None: not pinned. `serve`: a port (0: a
    free one) for the web server of `hexarena serve OUT`, run beside the referee until the run
    ends (its address is printed on stderr). `workers`: worker processes for the games (0: this
    process; None: :func:`default_workers`)."""
    with starting():
        import trio

        from hexarena.commands_sprt import tracker_for_run
        from hexarena.worker import ForkedWorkers, can_fork
        from hexarena.referee.console.live import final_summary
        from hexarena.referee.console.views import make_view
        from hexarena.referee.tournament.run import process_launcher
        from hexarena.referee.tournament.workers import started_early
        from hexarena.results.page.refresher import ReportRefresher
        from hexarena.results.rating.words import games_text
        from hexarena.results.record.journal import JOURNAL_NAME, JournalError, read_journal

    view = make_view(sys.stdout, quiet)
    launcher = partial(process_launcher, log_protocol=log_protocol, log_cap=config.log_cap)
    sprt = tracker_for_run(config, out)              # None without [sprt]; keeps DIR/sprt.json
    refresher = ReportRefresher(out, warn, [sys.executable, "-m", "hexarena", "report", str(out)])
    signals = Signals(trio.Event())
    preload = Preload(_import_the_end, "importing the final tables and page", warn)

    def on_record(record: GameRecord) -> None:
        refresher.on_record(record)
        line = sprt.add(record) if sprt is not None else None
        if line and not quiet:
            echo(line)

    async def supervised(on_cluster: Cluster | None) -> RunOutcome:
        async with trio.open_nursery() as nursery:
            await nursery.start(signals.watch, nursery.cancel_scope)
            if serve is not None:
                await nursery.start(serve_folder, out, serve)
            # the worker processes start while the pre-flight runs: their start-up overlaps it
            # (forked before the loop started, they are ready already)
            with started_early(min(processes, concurrency), forked.take if forked.ready else None) as early:
                # a new run's engines are checked before its folder is made; a resumed run's once its
                # journal shows a game left to play (a finished tournament starts no engine)
                if check_engines and not resume:
                    await preflight_or_fail(config, out, launcher, on_cluster)

                async def games_start() -> None:
                    if check_engines and resume:
                        await preflight_or_fail(config, out, launcher, on_cluster)
                    signals.running = True
                    preload.start()

                play = on_cluster.player(config, out, signals.abandon, warn) if on_cluster else None
                # in flight = running: one game per slot of the cluster, the next one submitted as one ends
                games_at_once = min(concurrency, on_cluster.slots) if on_cluster else concurrency
                with view:
                    outcome = await run_tournament(config, out, concurrency=games_at_once, resume=resume,
                                                   warn=warn, observer=view, launcher=launcher,
                                                   on_record=on_record, play=play, stop=signals.stop,
                                                   affinity=affinity, workers=processes, early=early,
                                                   should_stop=sprt.should_stop if sprt is not None else None,
                                                   before_games=games_start)
            nursery.cancel_scope.cancel()
        if signals.signalled:
            raise KeyboardInterrupt
        return outcome

    echo(f"output: {out}", err=True)
    if affinity:
        from hexarena.referee.tournament.affinity import format_cpus
        echo("pinned cores: " + ", ".join(f"slot {i} on CPU {format_cpus(cpus)}" for i, cpus in enumerate(affinity, 1)),
             err=True)
    with _interrupted(out, cluster), _open_cluster(cluster) as on_cluster:
        processes = 0 if on_cluster else default_workers(concurrency) if workers is None else workers
        with ForkedWorkers(min(processes, concurrency) if can_fork() else 0) as forked:
            outcome = trio.run(supervised, on_cluster)
    preload.finish()
    # the journal read once for the final tables and the final page: summaries, and the moves the page shows
    from hexarena.results.page.html_report import needs_moves
    errors: list[JournalError] = []
    records = read_journal(out / JOURNAL_NAME, errors, summary=True, keep_moves=needs_moves)
    for error in errors:
        warn(f"skipped {error}")
    void = sum(r.void for r in records)
    echo(f"\n{games_text(len(records) - void)}, {void} void; journal, SGF and logs in {out}")
    echo(final_summary(records))
    if (page := refresher.finish((records, errors))) is not None:
        echo(f"report: {page}")
    if sprt is not None:
        echo(sprt.finish())
    if outcome.void and not outcome.counted:
        raise click.ClickException(f"no game of this run counted: all {outcome.void} were void (the reasons "
                                   f"are in {out}/journal.jsonl and the logs; --resume plays them again)")


def _import_the_end() -> None:
    """Import what the run's end needs: the final tables and page (numpy, jinja2, the page's template)."""
    import hexarena.results.rating.repeats  # noqa: F401
    import hexarena.results.rating.summary  # noqa: F401
    from hexarena.results.page.html_report import load_template
    load_template()


class Preload:
    """`load` in a thread of its own, started as the games start: it then runs beside the games
    (in the time this process waits for engines or workers), not after the last game. A daemon
    thread, so an interrupted run does not wait for it; :meth:`finish` waits for it and reports
    (a warning) the error it ended in, if any; the run's end does the same work again and fails
    there in its own words."""

    def __init__(self, load: Callable[[], None], what: str, report: Callable[[str], None]):
        self.load, self.what, self.report = load, what, report
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="hexarena-preload", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        try:
            self.load()
        except Exception as exc:
            self.error = exc

    def finish(self) -> None:
        """Wait for the thread (when started), then report its error."""
        if self.thread.ident is not None:
            self.thread.join()
        if self.error is not None:
            self.report(f"{self.what} failed in advance: {type(self.error).__name__}: {self.error}")


async def serve_folder(out: Path, port: int, task_status=None) -> None:
    """`hexarena serve OUT` inside the run (a fresh token; 127.0.0.1 only) until cancelled."""
    import trio

    from hexarena.web.app import new_token
    from hexarena.web.server import serve, url
    from hexarena.web.site import watch_app
    token = new_token()
    async with trio.open_nursery() as nursery:
        try:
            bound = await nursery.start(serve, watch_app([out], token), "127.0.0.1", port)
        except OSError as exc:
            from hexarena.referee.tournament.run import TournamentError
            raise TournamentError(f"--serve: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
        echo(f"serving: {url('127.0.0.1', bound, token)}", err=True)
        (task_status or trio.TASK_STATUS_IGNORED).started()


async def run_tournament(*args, **kwargs) -> RunOutcome:
    """hexarena.referee.tournament.run, imported when a run starts (it needs trio)."""
    from hexarena.referee.tournament.run import run
    return await run(*args, **kwargs)


class _interrupted:
    """A TournamentError becomes a ClickException; an interruption prints the resume command and
    exits 130 (trio >= 0.25 wraps errors and Ctrl-C in exception groups)."""

    def __init__(self, out: Path, cluster: str | None):
        self.out, self.cluster = out, cluster

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> None:
        if exc is None:
            return
        from hexarena.referee.engines.groups import contains, sole
        from hexarena.referee.tournament.run import TournamentError
        if isinstance(sole(exc), TournamentError):
            raise click.ClickException(str(sole(exc))) from None
        if not contains(exc, KeyboardInterrupt):
            return
        from hexarena.referee.tournament.folder import CONFIG_NAME
        if not (self.out / CONFIG_NAME).exists():          # stopped in the pre-flight: no run to resume
            echo("\ninterrupted before the first game: nothing was played; run the same command again",
                 err=True)
            sys.exit(130)
        again = f" --cluster {shlex.quote(self.cluster)}" if self.cluster else ""
        echo(f"\ninterrupted; finished games are in {self.out}/journal.jsonl; continue with:\n"
                   f"  hexarena tournament --resume --out {shlex.quote(str(self.out))}{again}", err=True)
        sys.exit(130)


def _open_cluster(spec: str | None):
    """A Dask cluster session for --cluster (hexarena/cluster.py; its errors are TournamentErrors), or None."""
    if spec is None:
        return nullcontext()
    from hexarena.cluster import open_cluster
    return open_cluster(spec, say=lambda line: echo(line, err=True))
