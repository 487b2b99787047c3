"""The output folder of a tournament: checked or created, its saved config, and what is left to play.

:func:`prepare` is the start of every run and resume (docs/tournament.md,
"Resume" and "Growing a tournament"): the folder's ``tournament.json`` (the
resolved config, written on the first run; a resume with a different config
is refused unless it only grows the tournament), its journal read (a torn
last line cut off), and the scheduled games minus those journaled with a
non-void result.
"""
from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path

from hexarena.results.record.files import FileLimitError, check_regular
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JOURNAL_NAME, JournalError, cut_torn_tail, iter_journal, write_atomic

from . import config as config_mod
from . import growth
from .config import ConfigError, TournamentConfig
from .schedule import ScheduledGame

__all__ = ["CONFIG_NAME", "TournamentError", "load_saved", "prepare"]

CONFIG_NAME = "tournament.json"
_LOST = ("{out} holds a journal but no " + CONFIG_NAME + " (the config the run was started with): resume "
         "with that config, `hexarena tournament CONFIG --resume --out {out}`, which writes it again once "
         "every game of the journal is found in its schedule")


class TournamentError(Exception):
    """The output folder cannot be used as asked (message says why and what to do)."""


def load_saved(out: str | os.PathLike) -> TournamentConfig:
    """The config a tournament folder was started with; TournamentError if there is none, or it
    cannot be read (growth.read_saved) or is no valid config."""
    path = Path(out) / CONFIG_NAME
    try:
        data = growth.read_saved(path)
    except FileNotFoundError:
        if (Path(out) / JOURNAL_NAME).exists():
            raise TournamentError(_LOST.format(out=out)) from None
        raise TournamentError(f"{out} holds no tournament ({CONFIG_NAME} is missing): check --out") from None
    except ValueError as exc:                   # not a regular file, too large, not UTF-8, not JSON
        raise TournamentError(str(exc)) from None
    if not isinstance(data, dict):
        raise TournamentError(f"{path}: not a config (a JSON object): not written by hexarena")
    try:
        return config_mod.from_dict(data, str(path))
    except ConfigError as exc:
        raise TournamentError(str(exc)) from None


def prepare(config: TournamentConfig, out: str | os.PathLike, resume: bool,
            warn: Callable[[str], None] = lambda s: None) -> tuple[list[ScheduledGame], list[GameRecord]]:
    """Check or create the folder; return the games still to play and the journal so far, its
    records as summaries (:meth:`GameRecord.summary`: read one at a time, no per-action list kept)."""
    out = Path(out)
    saved, journal = out / CONFIG_NAME, out / JOURNAL_NAME
    wanted = config_mod.to_dict(config)
    # a resume of a journal whose saved config is gone, with the config given again: written back
    # once every game of the journal is one of its schedule (below)
    found_again = resume and not saved.exists() and journal.exists()
    if resume and not saved.exists() and not journal.exists():
        raise TournamentError(f"{out} holds no tournament to resume ({CONFIG_NAME} is missing); "
                              "check --out, or start a new tournament without --resume")
    history: list[TournamentConfig] = []
    if saved.exists():
        if not resume:
            raise TournamentError(f"{out} already holds a tournament: add --resume to continue it, "
                                  "or choose another --out")
        stored = config_mod.to_dict(load_saved(out))
        history = _earlier_configs(out)
        if stored != wanted and growth.same_play(stored, wanted):     # a setting such as `restart`
            write_atomic(saved, json.dumps(wanted, indent=2) + "\n")
        elif stored != wanted:
            problem = growth.growth_problem(stored, wanted)
            if problem:
                raise TournamentError(f"the config differs from the one {out} was started with "
                                      f"({problem}); resume with the same config, one that only adds "
                                      "games, or none to use the saved config")
            history.append(load_saved(out))
            _check_schedule(history + [config], out)
            growth.record_growth(out, stored, write_atomic)
            write_atomic(saved, json.dumps(wanted, indent=2) + "\n")
            warn(f"the tournament in {out} grows: its games keep their ids, new games are added")
    elif not found_again:
        if journal.exists():
            raise TournamentError(f"{journal} exists but {saved} does not: not a hexarena tournament folder "
                                  "(if it is one whose config was lost: " + _LOST.format(out=out) + ")")
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(saved, json.dumps(wanted, indent=2) + "\n")
    games = _check_schedule(history + [config], out)
    records: list[GameRecord] = []
    mismatch = None
    if journal.exists():
        try:
            check_regular(journal)          # a FIFO or /dev/zero would hang or fill the memory
        except FileLimitError as exc:
            raise TournamentError(f"{exc}: a journal is a file of JSON lines") from None
        torn = cut_torn_tail(journal)
        if torn is not None:
            warn(torn)
        errors: list[JournalError] = []
        mismatch = growth.check_journal(games, _kept(iter_journal(journal, errors), records))
        if errors:
            shown = "\n  ".join(str(e) for e in errors[:20])
            more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
            raise TournamentError(f"{journal} has {len(errors)} unreadable line(s):\n  {shown}{more}\n"
                                  f"repair it with: hexarena repair {shlex.quote(str(out))}  (bad lines move, "
                                  "verbatim, to a side file; a game left without a record is replayed)")
    if mismatch:
        raise TournamentError(f"{journal}: {mismatch}; was it written by another config or version?")
    ids = {g.id for g in games}
    if found_again:
        lost = next((r.id for r in records if not r.void and r.id not in ids), None)
        if lost is not None:
            raise TournamentError(f"{journal}: game {lost} is not in this config's schedule: resume with the "
                                  f"config {out} was started with ({CONFIG_NAME} is missing)")
        write_atomic(saved, json.dumps(wanted, indent=2) + "\n")
        warn(f"{saved} was missing: written again from the config given, whose schedule holds every game "
             "of the journal")
    stray = [r.id for r in records if r.id not in ids]
    if stray:
        warn(f"{journal}: {len(stray)} record(s) of games not in the schedule, not counted ({shown_ids(stray)}): "
             "edited by hand? `hexarena status` names them")
    done = {r.id for r in records if not r.void}
    return [g for g in games if g.id not in done], records


def shown_ids(ids: list[str]) -> str:
    """The first three of `ids`, each printable and cut to 60 characters, and how many more."""
    shown = ", ".join(repr(i[:60]) for i in ids[:3])
    return shown + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")


def _earlier_configs(out: Path) -> list[TournamentConfig]:
    """growth.earlier_configs, its errors (a history.json that cannot be read, or holds no valid
    config) a TournamentError: raised inside the run, that is what the CLI reports."""
    try:
        return growth.earlier_configs(out)
    except ValueError as exc:                   # ConfigError too
        raise TournamentError(str(exc)) from None


def _kept(records: Iterator[GameRecord], summaries: list[GameRecord]) -> Iterator[GameRecord]:
    """`records`, each also appended to `summaries` as its summary."""
    for r in records:
        summaries.append(r.summary())
        yield r


def _check_schedule(configs: list[TournamentConfig], out: Path) -> list[ScheduledGame]:
    try:
        return growth.schedule_for(configs)
    except ValueError as exc:
        raise TournamentError(f"the config would change a game of the tournament in {out}: {exc}") from None
