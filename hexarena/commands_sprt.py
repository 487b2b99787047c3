"""`hexarena sprt DIR` and the live SPRT of `hexarena match --sprt` / a `[sprt]` config (docs/sprt.md).

Pairs follow the schedule when the folder holds its tournament.json (a
group's games between the two engines at positions 2k and 2k+1 form pair k),
else games 2k and 2k+1 of a group by the number in their ids.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hexarena.results.records import JOURNAL_NAME, GameRecord, JournalError, journal_path, read_journal
from hexarena.results.sprt import MODELS, SprtSettings, SprtState, evaluate, pairs

if TYPE_CHECKING:           # imported when used: `hexarena engine` loads this module too
    from hexarena.referee.config import SprtConfig, TournamentConfig


def schedule_order(config: TournamentConfig, engine: str, opponent: str) -> list[str]:
    """The ids of every game between the two engines, in schedule order."""
    from hexarena.referee.schedule import schedule
    return [g.id for g in schedule(config) if {g.first, g.second} == {engine, opponent}]


class SprtTracker:
    """The test during a run: fed every journaled record (`add`), asked `should_stop` by the runner."""

    def __init__(self, sprt: SprtConfig, config: TournamentConfig, records: list[GameRecord]):
        self.sprt = sprt
        self.order = schedule_order(config, sprt.engine, sprt.opponent)
        self.records = list(records)
        self.state = self._evaluate()

    @classmethod
    def for_run(cls, config: TournamentConfig, out: Path) -> SprtTracker | None:
        """The tracker of a run into `out` (seeded with its journal when resuming); None without [sprt]."""
        if config.sprt is None:
            return None
        path = out / JOURNAL_NAME
        return cls(config.sprt, config, read_journal(path) if path.exists() else [])

    def _evaluate(self) -> SprtState:
        return evaluate(self.sprt.settings, pairs(self.records, self.sprt.engine, self.sprt.opponent, self.order))

    def add(self, record: GameRecord) -> str | None:
        """Count a finished game; the new LLR line when it completed a pair, else None."""
        self.records.append(record)
        before = sum(self.state.counts)
        try:
            self.state = self._evaluate()
        except ValueError as exc:          # no likelihood maximum found: keep the last state, say so
            return f"SPRT not updated: {exc}"
        if sum(self.state.counts) == before:
            return None
        return f"{self.sprt.settings.line(self.state.llr)} {self.state.counts}"

    def games(self) -> int:
        return sum(not r.void for r in self.records)

    def should_stop(self) -> bool:
        """True once a hypothesis is accepted or `max_games` games are finished."""
        cap = self.sprt.settings.max_games
        return self.state.verdict is not None or (cap is not None and self.games() >= cap)

    def summary(self) -> str:
        text = self.state.report(self.sprt.engine, self.sprt.opponent)
        if self.state.verdict is None:
            cap = self.sprt.settings.max_games
            stopped = "max_games reached" if cap is not None and self.games() >= cap else "schedule finished"
            text += f"\nno decision ({stopped})"
        return text


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
        records = read_journal(journal_path(folder))
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
    order = schedule_order(config, engine, opponent) if config is not None else None
    found = pairs(records, engine, opponent, order)
    try:
        click.echo(evaluate(settings, found).report(engine, opponent))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if order is None:
        click.echo("(no tournament.json: games 2k and 2k+1 of each group, by id, form a pair)")


def _saved_config(folder: str) -> TournamentConfig | None:
    from hexarena.referee import config as config_mod
    from hexarena.referee.config import ConfigError
    path = Path(folder) / "tournament.json"
    if Path(folder).is_file() or not path.exists():
        return None
    try:
        return config_mod.from_dict(json.loads(path.read_text(encoding="utf-8")), str(path))
    except (ConfigError, json.JSONDecodeError) as exc:
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
        try:
            table[key] = int(value) if key == "max_games" else float(value)
        except ValueError:
            raise click.UsageError(f"--sprt: {key}={value!r} is not a number") from None
    return table
