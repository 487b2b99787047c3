"""The tables of a tournament config beside the engines and games: `[time]` (also an engine's
`[engines.X.time]`, time odds), `[sprt]`, `[logs]`, `[adjudication]`, and an engine's resource limits. Each table has
its reader (the context `ctx` names file, key and line in errors) and its writer (the inverse,
defaults filled in) for the copy a tournament keeps in its folder. See referee/tournament/config.py.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from hexarena.engine.geometry import hexagon
from hexarena.results.sprt import MODELS as SPRT_MODELS
from hexarena.results.sprt import SprtSettings

from ..engines.log_cap import DEFAULT_LOG_CAP
from ..game.adjudication import KEYS as ADJUDICATION_KEYS, MAX_MOVES, Adjudication
from ..game.clock import Limits
from .affinity import AffinityError, format_cpus, parse_cpus
from .config_check import KeyReader
from ..engines.spawn import ResourceLimits


def komi_value(ctx: KeyReader, value: object, key: str, sizes: tuple[int, ...] | list[int]) -> int:
    """A `komi` setting: an integer from 0 to the site count of the smallest of `sizes` (the bound
    of a komi pie's offer, of a position's `komi=` and of the kits' games; docs/rules.md)."""
    small = min(sizes)
    sites = hexagon(small).site_count
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= sites:
        raise ctx.error(key, f"expected an integer in 0..{sites} (the sites of a board of size {small}), "
                             f"got {value!r}")
    return value


@dataclass(frozen=True)
class SprtConfig:
    """`[sprt]`: the test (docs/sprt.md) of `engine` against `opponent`, the match's two engines."""

    settings: SprtSettings
    engine: str
    opponent: str


TIME_KEYS = ("control", "move", "main", "increment", "period", "periods", "stones", "margin", "start", "command")
_CLOCK_KEYS = ("move", "main", "increment", "period", "periods", "stones")


def _real(value: object) -> float | None:
    """A TOML number as a finite float; None for anything else (a bool, a string, inf, nan, and
    an integer past a float's range, which float() and math.isfinite refuse with OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def time_limits(ctx: KeyReader, table: object, key: str = "time", base: object = None) -> Limits:
    """A `[time]` table (or an engine's `[engines.X.time]`, laid over `base`, the
    `[time]` table: an engine table naming its own `control` keeps only `margin`,
    `start` and `command` from it) into Limits; ConfigError naming the key."""
    if not isinstance(table, dict):
        raise ctx.error(key, f"expected a [{key}] table")
    ctx.only(table, key, set(TIME_KEYS))
    merged = dict(base) if isinstance(base, dict) else {}
    if "control" in table:
        merged = {k: v for k, v in merged.items() if k not in _CLOCK_KEYS + ("control",)}
    merged.update(table)
    values: dict = {}
    for name, value in merged.items():
        where = f"{key}.{name}" if name in table else f"time.{name}"
        if name == "control":
            values[name] = ctx.choice(value, where, ("none", "move", "fischer", "byoyomi", "canadian"))
            continue
        if name in ("periods", "stones"):
            values[name] = ctx.integer(value, where, 1, 1_000_000)
            continue
        if _real(value) is None:
            raise ctx.error(where, f"expected a number of seconds, got {value!r}")
        zero_ok = name in ("increment", "margin") or (name == "main" and merged.get("control") in
                                                       ("byoyomi", "canadian"))
        if value < 0 or (value == 0 and not zero_ok):
            raise ctx.error(where, f"expected {'>= 0' if zero_ok else '> 0'} seconds, got {value!r}")
        values[name] = float(value)
    try:
        return Limits(**values)
    except ValueError as exc:
        raise ctx.error(key, str(exc)) from None


#: The most setup commands of one engine.
MAX_SETUP = 100
_SETUP_WORD = re.compile(r"[^\x00-\x20#\x7f]+\Z")
#: Commands the referee sends itself, never as setup commands.
_NOT_SETUP = ("quit", "play", "genmove", "genmove_analyze", "undo", "clear_board", "set_position", "game",
              "boardsize")


def read_setup_commands(ctx: KeyReader, spec: dict, key: str) -> tuple[str, ...]:
    """`commands` of an [engines.NAME] table: command lines (a name and its arguments, without
    an id) sent once to every process of the engine after its handshake. ConfigError naming
    the key for a line that is not HGP words or is one of the referee's own commands."""
    if "commands" not in spec:
        return ()
    lines = ctx.strings(spec["commands"], f"{key}.commands")
    if len(lines) > MAX_SETUP:
        raise ctx.error(f"{key}.commands", f"at most {MAX_SETUP} commands, got {len(lines)}")
    out = []
    for line in lines:
        words = line.split(" ")
        if not line or not all(_SETUP_WORD.match(w) for w in words):
            raise ctx.error(f"{key}.commands", f"{line!r} is not a command line (words of printable "
                                               f"characters but #, separated by single spaces)")
        if words[0].isdigit():
            raise ctx.error(f"{key}.commands", f"{line!r}: give the command without an id")
        if words[0].lower() in _NOT_SETUP:
            raise ctx.error(f"{key}.commands", f"{line!r}: `{words[0]}` is the referee's to send")
        out.append(line)
    return tuple(out)


def read_affinity(ctx: KeyReader, value: object) -> bool | tuple[int, ...]:
    """`affinity = true | false | "0-3,6"` (docs/tournament.md, "Pinned cores"): True for every
    CPU the referee may use, a CPU list as its sorted numbers, False for none."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, str):
        raise ctx.error("affinity", f"expected true, false or a list of CPUs such as \"0-3\", got {value!r}")
    try:
        return parse_cpus(value)
    except AffinityError as exc:
        raise ctx.error("affinity", str(exc)) from None


def affinity_value(affinity: bool | tuple[int, ...]) -> bool | str:
    """read_affinity's inverse."""
    return affinity if isinstance(affinity, bool) else format_cpus(affinity)


RESOURCE_KEYS = ("memory_mb", "cpu_seconds")


def read_resources(ctx: KeyReader, spec: dict, key: str) -> ResourceLimits:
    """`memory_mb`, `cpu_seconds` of an [engines.NAME] table (rlimits; absent: unlimited)."""
    memory, cpu = (ctx.integer(spec[k], f"{key}.{k}", 1, 10**7) if k in spec else None for k in RESOURCE_KEYS)
    return ResourceLimits(memory_mb=memory, cpu_seconds=cpu)


def resources_table(resources: ResourceLimits) -> dict:
    return {k: getattr(resources, k) for k in RESOURCE_KEYS if getattr(resources, k) is not None}


def read_log_cap(ctx: KeyReader, table: object) -> int:
    """[logs] cap_kb: the stderr kept per engine per game (first and last halves), in KiB."""
    if not isinstance(table, dict):
        raise ctx.error("logs", "expected a [logs] table")
    ctx.only(table, "logs", {"cap_kb"})
    return ctx.integer(table.get("cap_kb", DEFAULT_LOG_CAP // 1024), "logs.cap_kb", 1, 10**8) * 1024


def limits_table(lim: Limits) -> dict:
    """time_limits' inverse: the keys of a Limits that its control uses, defaults filled in."""
    out: dict = {"control": lim.control}
    if lim.move is not None:
        out["move"] = lim.move
    used = {"move": (), "fischer": ("main", "increment"), "byoyomi": ("main", "period", "periods"),
            "canadian": ("main", "period", "stones")}[lim.control]
    out.update({k: getattr(lim, k) for k in used})
    out.update(margin=lim.margin, start=lim.start, command=lim.command)
    return out


SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model", "max_games", "engine")


def sprt_config(ctx: KeyReader, table: object, names: list[str]) -> SprtConfig:
    """An `[sprt]` table: a two-engine match only; `engine` (the one under test) defaults
    to the first engine listed. ConfigError naming the key."""
    if not isinstance(table, dict):
        raise ctx.error("sprt", "expected an [sprt] table")
    ctx.only(table, "sprt", set(SPRT_KEYS))
    if len(names) != 2:
        raise ctx.error("sprt", f"an SPRT needs exactly two engines, not {len(names)}")
    for key in ("elo0", "elo1"):
        if key not in table:
            raise ctx.error("sprt", f"missing `{key}` (e.g. elo0 = 0, elo1 = 10)")
    values: dict = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key in table:
            value = _real(table[key])
            if value is None:
                raise ctx.error(f"sprt.{key}", f"expected a number, got {table[key]!r}")
            values[key] = value
    if "model" in table:
        values["model"] = ctx.choice(table["model"], "sprt.model", SPRT_MODELS)
    if "max_games" in table:
        values["max_games"] = ctx.integer(table["max_games"], "sprt.max_games", 2, 10_000_000)
    engine = table.get("engine", names[0])
    if engine not in names:
        raise ctx.error("sprt.engine", f"{engine!r} is not an engine (engines: {', '.join(names)})")
    try:
        settings = SprtSettings(**values)
    except ValueError as exc:
        raise ctx.error("sprt", str(exc)) from None
    return SprtConfig(settings, engine, next(n for n in names if n != engine))


def sprt_table(sprt: SprtConfig) -> dict:
    """sprt_config's inverse, defaults filled in."""
    s = sprt.settings
    out = {"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta, "model": s.model,
           "engine": sprt.engine}
    return out | ({"max_games": s.max_games} if s.max_games is not None else {})


def read_adjudication(ctx: KeyReader, table: object) -> Adjudication:
    """An `[adjudication]` table (referee/game/adjudication.py), defaults filled in; ConfigError naming the key."""
    if not isinstance(table, dict):
        raise ctx.error("adjudication", "expected an [adjudication] table")
    ctx.only(table, "adjudication", set(ADJUDICATION_KEYS))
    values: dict = {}
    for key in ("resign_winrate", "draw_margin"):
        if key in table:
            value = _real(table[key])
            if value is None:
                raise ctx.error(f"adjudication.{key}", f"expected a number, got {table[key]!r}")
            values[key] = value
    for key in ("resign_moves", "draw_moves"):
        if key in table:
            values[key] = ctx.integer(table[key], f"adjudication.{key}", 0, MAX_MOVES)
    if "draw_after" in table:
        values["draw_after"] = ctx.integer(table["draw_after"], "adjudication.draw_after", 0, 10_000_000)
    if "two_sided" in table:
        if not isinstance(table["two_sided"], bool):
            raise ctx.error("adjudication.two_sided", f"expected true or false, got {table['two_sided']!r}")
        values["two_sided"] = table["two_sided"]
    try:
        return Adjudication(**values)
    except ValueError as exc:
        key, _, message = str(exc).partition(": ")
        where = f"adjudication.{key}" if key in ADJUDICATION_KEYS else "adjudication"
        raise ctx.error(where, message if key in ADJUDICATION_KEYS else str(exc)) from None


def adjudication_table(adjudication: Adjudication) -> dict:
    """read_adjudication's inverse, every key given."""
    return {key: getattr(adjudication, key) for key in ADJUDICATION_KEYS}
