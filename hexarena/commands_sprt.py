"""`hexarena sprt DIR` and the live SPRT of `hexarena match --sprt` / a `[sprt]` config (docs/sprt.md).

A pair is two journaled games with the same pair number in one (game, size,
variant) group. Journal lines of schema 1 carry no pair number: theirs come
from the schedule of the folder's tournament.json.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hexarena.terminal import echo
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JOURNAL_NAME, JournalError, iter_journal, journal_path, read_journal
from hexarena.results.sprt import MODELS, SprtSettings, evaluate, pairs, unpaired
from hexarena.results.sprt_tracker import SprtTracker

if TYPE_CHECKING:           # imported when used: `hexarena engine` loads this module too
    from hexarena.referee.tournament.config import TournamentConfig


def schedule_pairs(config: TournamentConfig) -> dict[str, tuple[str, int, str, int]]:
    """Game id -> (game, size, variant, pair number) of every paired game of the schedule."""
    from hexarena.referee.tournament.schedule import schedule
    return {g.id: (g.game, g.size, g.variant, g.pair) for g in schedule(config) if g.pair is not None}


def tracker_for_run(config: TournamentConfig, out: Path) -> SprtTracker | None:
    """The SPRT tracker of a run into `out` (seeded with its journal when resuming); None without [sprt]."""
    if config.sprt is None:
        return None
    path = out / JOURNAL_NAME
    records = iter_journal(path, summary=True) if path.exists() else []        # read one at a time: the tracker keeps counts
    return SprtTracker(config.sprt.settings, config.sprt.engine, config.sprt.opponent, records,
                       schedule_pairs(config), out)


@click.command("sprt")
@click.argument("folder", type=click.Path(exists=True))
@click.option("--elo0", type=float, default=None, help="H0: elo <= ELO0 (default: the folder's [sprt]).")
@click.option("--elo1", type=float, default=None, help="H1: elo >= ELO1 (default: the folder's [sprt]).")
@click.option("--alpha", type=float, default=None, help="False positive rate (default 0.05).")
@click.option("--beta", type=float, default=None, help="False negative rate (default 0.05).")
@click.option("--model", type=click.Choice(MODELS), default=None, help="Elo model (default normalized).")
@click.option("--engine", default=None, help="The engine under test (default: the [sprt] one, or the first).")
def sprt(folder: str, elo0: float | None, elo1: float | None, alpha: float | None, beta: float | None,
         model: str | None, engine: str | None) -> None:
    """Recompute the SPRT of a two-engine match from its journal: the LLR with its bounds,
    the pentanomial counts and the Elo estimate with its 95% interval."""
    try:
        records = read_journal(journal_path(folder), summary=True)
    except (OSError, JournalError) as exc:
        raise click.ClickException(f"cannot read the journal of {folder}: {exc}") from None
    config = _saved_config(folder)
    saved = config.sprt if config is not None else None
    names = [e.name for e in config.engines] if config is not None else _engines_of(records)
    if len(names) != 2:
        raise click.ClickException(f"{folder}: an SPRT needs a match of two engines, found {', '.join(names)}")
    engine = engine or (saved.engine if saved else names[0])
    if engine not in names:
        raise click.BadParameter(f"{engine!r} is not one of {', '.join(names)}", param_hint="--engine")
    opponent = next(n for n in names if n != engine)
    base = saved.settings if saved else None
    given: dict[str, Any] = {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "model": model}
    values = {k: v for k, v in given.items() if v is not None}
    if base is None and ("elo0" not in values or "elo1" not in values):
        raise click.UsageError("the folder has no [sprt] settings: give --elo0 and --elo1")
    try:
        start: dict[str, Any] = ({"elo0": base.elo0, "elo1": base.elo1, "alpha": base.alpha, "beta": base.beta,
                                  "model": base.model} if base else {})
        settings = SprtSettings(**start | values)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    order = schedule_pairs(config) if config is not None else None
    found = pairs(records, engine, opponent, order)
    try:
        echo(evaluate(settings, found).report(engine, opponent))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if order is None and unpaired(records):
        echo(f"({unpaired(records)} games without a pair number, from a journal of schema 1 "
                   "without its tournament.json, are left out)")


def _saved_config(folder: str) -> TournamentConfig | None:
    from hexarena.referee.tournament.folder import CONFIG_NAME, TournamentError, load_saved
    path = Path(folder) / CONFIG_NAME
    if Path(folder).is_file() or not os.path.lexists(path):
        return None
    try:
        return load_saved(folder)       # bounded, a regular file, JSON of a valid config: else TournamentError
    except TournamentError as exc:
        raise click.ClickException(str(exc)) from None


def _engines_of(records: list[GameRecord]) -> list[str]:
    names: list[str] = []
    for r in records:
        for n in (r.first, r.second):
            if n not in names:
                names.append(n)
    return names


def parse_sprt_words(words: tuple[str, ...]) -> dict:
    """`elo0=0 elo1=10 [alpha=.. beta=.. model=.. max_games=..]` into an [sprt] table; UsageError if malformed."""
    table: dict = {}
    for word in (w for text in words for w in text.split()):
        key, sep, value = word.partition("=")
        if not sep:
            raise click.UsageError(f"--sprt: {word!r} is not KEY=VALUE (e.g. elo0=0 elo1=10)")
        if key in ("model", "engine"):
            table[key] = value
            continue
        from hexarena.engine.errors import RulesError
        from hexarena.engine.numbers import signed_decimal, whole
        try:
            table[key] = whole(value, "max_games=", digits=9) if key == "max_games" else \
                signed_decimal(value, f"{key}=", digits=9)
        except RulesError as exc:
            raise click.UsageError(f"--sprt: {exc}") from None
    return table
