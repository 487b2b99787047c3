"""A tournament run under the CLI's supervision: the live view, the report refresher, the SPRT
tracker, Ctrl-C (once: finish the games in flight; twice, SIGTERM, SIGHUP: abandon them), the
pre-flight and, with --cluster, a Dask cluster. The CLI commands `tournament` and `match` end here.
"""
from __future__ import annotations

import shlex
import signal
import sys
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hexarena import commands_view
from hexarena.commands_sprt import SprtTracker

if TYPE_CHECKING:
    from hexarena.referee.config import TournamentConfig
    from hexarena.results.records import GameRecord


def run(config: TournamentConfig, out: Path, concurrency: int, resume: bool, quiet: bool,
         check_engines: bool = True, log_protocol: bool = False, cluster: str | None = None) -> None:
    import trio

    from hexarena.referee.groups import contains, sole
    from hexarena.referee.live import final_summary
    from hexarena.referee.panel import make_view
    from hexarena.referee.preflight import preflight
    from hexarena.referee.tournament import TournamentError, process_launcher
    view = make_view(sys.stdout, quiet)
    launcher = partial(process_launcher, log_protocol=log_protocol, log_cap=config.log_cap)
    live = SprtTracker.for_run(config, out)          # None without [sprt]

    def on_record(record: GameRecord) -> None:
        refresher.on_record(record)
        line = live.add(record) if live is not None else None
        if line and not quiet:
            click.echo(line)

    def warn(message: str) -> None:
        click.echo(f"warning: {message}", err=True)

    refresher = commands_view.ReportRefresher(out, warn)     # DIR/report.html, every few games
    stop = trio.Event()         # Ctrl-C once: no new game starts, the games in flight finish
    signalled = False

    async def supervised() -> list[GameRecord]:
        """The run under Ctrl-C (once: finish the games in flight; twice: abandon them), SIGTERM and
        SIGHUP (abandon them, engines stopped); KeyboardInterrupt after any of them."""
        records: list[GameRecord] = []
        running = False
        async with trio.open_nursery() as nursery:
            async def on_signal(task_status=trio.TASK_STATUS_IGNORED) -> None:
                nonlocal signalled
                with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM, signal.SIGHUP) as signals:
                    task_status.started()
                    async for sig in signals:
                        signalled = True
                        if sig == signal.SIGINT and running and not stop.is_set():
                            stop.set()
                            click.echo("\nstopping: no new game starts, the games in flight finish "
                                       "(Ctrl-C again abandons them)", err=True)
                        else:
                            nursery.cancel_scope.cancel()
            await nursery.start(on_signal)
            if check_engines:
                problems = await (on_cluster.preflight(config, out) if on_cluster
                                  else preflight(config, out, launcher))
                if problems:
                    raise TournamentError("not started: an engine failed the pre-flight check "
                                          "(--no-preflight skips it):\n  " + "\n  ".join(problems))

            def lost(message: str) -> None:         # --cluster: the scheduler went away
                nonlocal signalled
                warn(message)
                signalled = True
                nursery.cancel_scope.cancel()
            play = on_cluster.player(config, out, lost, warn) if on_cluster else None
            running = True
            with view:
                records = await run_tournament(config, out, concurrency=concurrency, resume=resume,
                                               warn=warn, observer=view, launcher=launcher,
                                               on_record=on_record, play=play, stop=stop,
                                               should_stop=live.should_stop if live is not None else None)
            nursery.cancel_scope.cancel()
        if signalled:
            raise KeyboardInterrupt
        return records

    click.echo(f"output: {out}", err=True)
    on_cluster = None
    try:
        with _open_cluster(cluster) as on_cluster:
            records = trio.run(supervised)
    except BaseException as exc:        # trio >= 0.25 wraps errors and Ctrl-C in exception groups
        if isinstance(sole(exc), TournamentError):
            raise click.ClickException(str(sole(exc))) from None
        if not contains(exc, KeyboardInterrupt):
            raise
        again = f" --cluster {shlex.quote(cluster)}" if cluster else ""
        click.echo(f"\ninterrupted; finished games are in {out}/journal.jsonl; continue with:\n"
                   f"  hexarena tournament --resume --out {shlex.quote(str(out))}{again}", err=True)
        sys.exit(130)
    void = sum(r.void for r in records)
    click.echo(f"\n{len(records) - void} games, {void} void; journal, SGF and logs in {out}")
    click.echo(final_summary(records))
    if (page := refresher.finish()) is not None:
        click.echo(f"report: {page}")
    if live is not None:
        click.echo(live.summary())


async def run_tournament(*args, **kwargs) -> list[GameRecord]:
    """hexarena.referee.tournament.run, imported when a run starts (it needs trio)."""
    from hexarena.referee.tournament import run
    return await run(*args, **kwargs)


def _open_cluster(spec: str | None):
    """A Dask cluster session for --cluster (hexarena/cluster.py; its errors are TournamentErrors), or None."""
    if spec is None:
        return nullcontext()
    from hexarena.cluster import open_cluster
    return open_cluster(spec, say=lambda line: click.echo(line, err=True))
