"""Growing a tournament: resuming with a config that only adds games.

A config grows the saved one when every game the saved one schedules is
still scheduled, unchanged (id, seats, seeds, opening): a larger
``games_per_pair``, a new engine, a new ``[[games]]`` entry, size or
variant, more entrants, openings appended to the list. The folder then
keeps its earlier configs, oldest first, in ``history.json`` (absent until
the first growth), and the schedule is :func:`schedule.grown_schedule` of
all of them, so the games of the earlier configs keep their ids.

Any other change (seed, time, pairing, adjudication, an engine's command, a
removed value, a changed opening) is refused, naming the first difference; turning
an engine's transcript (`log_protocol`) on or off, or pinned cores
(`affinity`), is not a change.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from hexarena.results.record.files import MAX_SAVED_BYTES, FileLimitError, read_bytes
from hexarena.results.record.game import GameRecord

from . import config as config_mod
from .config import TournamentConfig
from .schedule import ScheduledGame, grown_schedule

HISTORY_NAME = "history.json"
SUBSETS = ("sizes", "variants", "challengers")          # lists a growth may add values to


def earlier_configs(out: Path) -> list[TournamentConfig]:
    """The configs the folder's tournament had before its current one (oldest first)."""
    path = out / HISTORY_NAME
    if not os.path.lexists(path):
        return []
    tables = read_saved(path)
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ValueError(f"{path}: not a list of configs (JSON objects): not written by hexarena")
    return [config_mod.from_dict(t, f"{path}[{i}]") for i, t in enumerate(tables)]


def read_saved(path: Path) -> object:
    """The JSON value of a saved file of the folder (tournament.json, history.json).

    FileNotFoundError when there is none; ValueError naming the file (and the line, where JSON says
    it) for anything but JSON text of at most MAX_SAVED_BYTES in a regular file (a FIFO is never
    opened): the ConfigError the value may still give is the caller's."""
    try:
        data = read_bytes(path, MAX_SAVED_BYTES)
    except FileNotFoundError:
        raise
    except FileLimitError as exc:
        raise ValueError(str(exc)) from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ValueError(f"{path}:{line}: not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise ValueError(f"{path}: not valid JSON: nested too deeply") from None


def record_growth(out: Path, previous: dict, write) -> None:
    """Append the config being replaced to the folder's history (`write(path, text)` writes atomically)."""
    path = out / HISTORY_NAME
    tables = read_saved(path) if os.path.lexists(path) else []      # checked by earlier_configs
    assert isinstance(tables, list)
    write(path, json.dumps(tables + [previous], indent=2) + "\n")


def growth_problem(old: dict, new: dict) -> str | None:
    """Why `new` (a to_dict table) does not only add to `old`, or None when it does."""
    for key in ("seed", "pairing", "time", "adjudication"):
        if old.get(key) != new.get(key):
            return f"{key}: saved {old.get(key)!r}, now {new.get(key)!r}"
    if new["games_per_pair"] < old["games_per_pair"]:
        return f"games_per_pair: saved {old['games_per_pair']}, now {new['games_per_pair']} (it may only grow)"
    problem = _subset("challengers", old.get("challengers", []), new.get("challengers", []))
    if problem:
        return problem
    for name, spec in old["engines"].items():
        if name not in new["engines"]:
            return f"engines.{name}: removed"
        if _played(new["engines"][name]) != _played(spec):
            return f"engines.{name}: saved {_played(spec)!r}, now {_played(new['engines'][name])!r}"
    if len(new["games"]) < len(old["games"]):
        return f"games: saved {len(old['games'])} [[games]] tables, now {len(new['games'])} (append new ones)"
    for i, (a, b) in enumerate(zip(old["games"], new["games"])):
        problem = _game_problem(f"games[{i}]", a, b, list(old["engines"]))
        if problem:
            return problem
    return None


def same_play(old: dict, new: dict) -> bool:
    """Whether two to_dict tables differ at most in settings that change no game (`restart`,
    `log_protocol`, `pause`, `affinity`): a resume with such a change is no growth."""
    def plain(table: dict) -> dict:
        return {k: v for k, v in table.items() if k != "affinity"} | {
            "engines": {n: _played(e) for n, e in table["engines"].items()}}
    return plain(old) == plain(new)


def _played(engine: dict) -> dict:
    """An engine's table without the keys that do not change how it plays (transcripts,
    the process's lifetime: each game sends the seat's seed, docs/tournament.md; whether it is
    stopped between its turns)."""
    return {k: v for k, v in engine.items() if k not in ("log_protocol", "restart", "pause")}


def _game_problem(key: str, a: dict, b: dict, old_engines: list[str]) -> str | None:
    for name in ("game", "komi", "ply_cap", "random_openings"):
        if a.get(name) != b.get(name):
            return f"{key}.{name}: saved {a.get(name)!r}, now {b.get(name)!r}"
    for name in ("sizes", "variants"):
        problem = _subset(f"{key}.{name}", a[name], b[name])
        if problem:
            return problem
    before = a.get("engines") or old_engines
    if b.get("engines"):
        problem = _subset(f"{key}.engines", before, b["engines"])
        if problem:
            return problem
    old_openings, new_openings = a.get("openings", []), b.get("openings", [])
    if new_openings[:len(old_openings)] != old_openings:
        return (f"{key}.openings: the saved {len(old_openings)} opening(s) must stay, in order "
                "(append new ones at the end)")
    return None


def _subset(key: str, old: list, new: list) -> str | None:
    missing = [v for v in old if v not in new]
    return f"{key}: {', '.join(map(repr, missing))} removed (a grown tournament may only add)" if missing else None


def check_journal(games: list[ScheduledGame], records: Iterable[GameRecord]) -> str | None:
    """The first journaled game whose schedule entry now differs (another game under its id), or None.
    `records` is read to its end."""
    by_id = {g.id: g for g in games}
    found = None
    for r in records:
        g = by_id.get(r.id)
        if found is not None or r.void or g is None:
            continue
        ours = (g.game, g.size, g.variant, g.first, g.second)
        theirs = (r.game, r.size, r.variant, r.first, r.second)
        if ours != theirs or (r.moves is not None and tuple(m.action for m in r.moves[:r.opening]) != g.opening):
            found = (f"journal game {r.id} was {' '.join(map(str, theirs))}, the schedule now says "
                     f"{' '.join(map(str, ours))}")
    return found


def schedule_for(configs: list[TournamentConfig]) -> list[ScheduledGame]:
    """The games of a tournament with this history; ValueError naming an altered game."""
    return grown_schedule(configs)
