"""`hexarena tournament`, and the flags of a run that it shares with `hexarena match`.

A run is a tournament config (what is played: engines, games, time, seeds; saved in the
output folder as tournament.json) and the flags of the run (where it writes, how many games at
once, on which processes or machines, how much it prints): docs/cli.md, "Flags and config
keys". `tournament` reads its config from a file, `match` builds one from its arguments; both
run it through :func:`run_config`, so a match is resumed and grown as a tournament is.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hexarena import supervise

if TYPE_CHECKING:
    from hexarena.referee.tournament.config import TournamentConfig

DEFAULT_OUT = "hexarena-out"

#: The flags of a run (never part of the config): each option's name as click passes it.
RUN_FLAGS = ("out", "concurrency", "workers", "resume", "no_preflight", "quiet", "log_protocol", "cluster",
             "affinity", "serve_port")


def run_options(default_concurrency: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The flags of a run, as click options (`default_concurrency`: the -j default, in words)."""
    options = [
        click.option("--out", type=click.Path(file_okay=False), default=None,
                     help=f"Output folder (default: ./{DEFAULT_OUT}/<timestamp>; required with --resume)."),
        click.option("-j", "--concurrency", type=click.IntRange(1), default=None,
                     help=f"Games at a time (default: {default_concurrency}; with --cluster: what the workers "
                          "take)."),
        click.option("--workers", type=click.IntRange(0), default=None, metavar="P",
                     help="Worker processes the games are spread over; 0 plays them in this process "
                          "(default: 0 with -j 1, else one per game at once, at most one per CPU; "
                          "docs/tournament.md)."),
        click.option("--resume", is_flag=True,
                     help="Continue the run in --out (void games are replayed); a config that grows grows it."),
        click.option("--no-preflight", is_flag=True, help="Do not start each engine once before the games."),
        click.option("-q", "--quiet", is_flag=True, help="Only the final tables."),
        click.option("--log-protocol", is_flag=True,
                     help="Write every HGP line of every engine to logs/GROUP/NNNN.SEAT-NAME.hgp (one engine: "
                          "[config: engines.NAME.log_protocol])."),
        click.option("--cluster", metavar="ADDRESS", default=None,
                     help="Play each game as a Dask task: a scheduler address (tcp://HOST:8786) or local:N "
                          "(docs/cluster.md)."),
        click.option("--affinity", "affinity", is_flag=False, flag_value="all", default=None, metavar="[CPUS]",
                     help="Pin each slot's engines to CPUs of its own, CPUS (e.g. 0-3,6; default: every CPU "
                          "the referee may use) split evenly among the -j slots (default -j: one per CPU) "
                          "[config: affinity] (docs/tournament.md, \"Pinned cores\")."),
        click.option("--serve", "serve_port", type=click.IntRange(0, 65535), is_flag=False, flag_value=0,
                     default=None, metavar="[PORT]",
                     help="Watch the run in the browser (as hexarena serve OUT; 0 or no PORT: a free port); "
                          "the address is printed on stderr (docs/browser.md)."),
    ]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


def run_config(config: TournamentConfig, *, out: str | None, concurrency: int | None, workers: int | None,
               resume: bool, no_preflight: bool, quiet: bool, log_protocol: bool, cluster: str | None,
               affinity: str | None, serve_port: int | None, concurrency_default: int | None = None) -> None:
    """Run `config` with the flags of a run; UsageError for flags that do not go together.

    `concurrency_default`: -j when not given and nothing pins it (None: one per CPU).
    """
    slots = _pinned_slots(affinity, config.affinity, concurrency, cluster)
    if slots is not None:
        concurrency = len(slots)
    elif cluster is None:
        from hexarena.referee.tournament.affinity import cpu_count
        concurrency = concurrency or concurrency_default or cpu_count()
    elif workers:
        raise click.UsageError("--workers plays games on this machine; --cluster plays them on the cluster's")
    supervise.run(config, out_dir(out), concurrency or 1_000_000, resume=resume, quiet=quiet,
                  check_engines=not no_preflight, log_protocol=log_protocol, cluster=cluster, affinity=slots,
                  serve=serve_port, workers=workers)


def out_dir(out: str | None) -> Path:
    """The output folder: `out`, else a fresh timestamped folder under ./hexarena-out."""
    if out is not None:
        return Path(out)
    return Path(DEFAULT_OUT) / datetime.now().strftime("%Y%m%d-%H%M%S")


@click.command()
@click.argument("config_file", metavar="[CONFIG.toml]", required=False,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--games-per-pair", type=int, default=None,
              help="Games per pair of engines and opening, over the config's (under its own limits) "
                   "[config: games_per_pair].")
@run_options("the CPUs this process may use")
def tournament(config_file: str | None, games_per_pair: int | None, **flags: Any) -> None:
    """Run a tournament from CONFIG.toml (docs/tournament.md) and print the ratings.

    With no CONFIG: a round-robin of the built-in players random, greedy and heuristic on every
    playable game at a small size (docs/tournament.md).
    With --resume and no CONFIG: the config saved in --out.
    """
    out, resume = flags["out"], flags["resume"]
    if resume and out is None:
        raise click.UsageError("--resume needs --out, the folder of the tournament to continue")
    with supervise.starting():
        config = _tournament_config(config_file, out, resume, games_per_pair)
    run_config(config, **flags)


def _tournament_config(config_file: str | None, out: str | None, resume: bool,
                       games_per_pair: int | None) -> TournamentConfig:
    """The config `tournament` runs (see its help); ClickException naming what is wrong."""
    from hexarena.referee.tournament import config as config_mod
    from hexarena.players import problem
    from hexarena.referee.tournament.config import ConfigError
    from hexarena.referee.tournament.run import CONFIG_NAME, TournamentError, load_saved
    saved = out if resume else None         # the caller refused --resume without --out
    try:
        if saved is not None and (config_file is None or (Path(saved) / CONFIG_NAME).exists()):
            load_saved(saved)           # TournamentError naming the folder when it holds no tournament
        if config_file is not None:
            config = config_mod.load(config_file, players=problem)
        elif saved is not None:
            config = load_saved(saved)
        else:
            config = config_mod.default_config()
        if games_per_pair is not None:
            config = config_mod.with_games_per_pair(config, games_per_pair)
    except (ConfigError, TournamentError) as exc:
        raise click.ClickException(str(exc)) from None
    return config


def _pinned_slots(option: str | None, configured: bool | tuple[int, ...], concurrency: int | None,
                  cluster: str | None) -> tuple[tuple[int, ...], ...] | None:
    """The CPUs of each slot under `--affinity` (over the config's `affinity`), None without;
    UsageError, before anything runs, for a bad CPU list or a -j the CPUs do not allow."""
    from hexarena.referee.tournament.affinity import AffinityError, plan, read_option
    where = "--affinity" if option is not None else "affinity (in the config)"
    try:
        wanted = read_option(option) if option is not None else configured
        if not wanted:
            return None
        if cluster is not None:
            raise AffinityError("pins the engines of this machine's slots; with --cluster the games run "
                                "on the cluster's workers")
        return plan(wanted, concurrency)
    except AffinityError as exc:
        raise click.UsageError(f"{where}: {exc}") from None
