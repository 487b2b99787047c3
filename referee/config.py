"""Tournament configuration: TOML (never executed) into frozen dataclasses.

The format is documented in docs/tournament.md. :func:`load` reads a file;
:func:`from_dict` validates a decoded table (the same path serves the
resolved copy a tournament keeps in its folder); :func:`to_dict` is its
inverse, with every default filled in. Every defect raises ConfigError
naming the file, the key and, when it can be found, the line.
"""
from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.errors import UnknownGame, UnknownVariant

from .capped_log import DEFAULT_LOG_CAP
from .clock import Limits
from .spawn import ResourceLimits

PAIRINGS = ("round-robin", "gauntlet")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")
PLAYER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*(:[0-9]+)?\Z")   # NAME or NAME:N (e.g. mcts:400)
PLAYER_CMD = ("{python}", "-P", "-m", "hexarena.players", "NAME", "--seed", "{seed}")   # -P: not from the cwd


class ConfigError(ValueError):
    """A configuration defect: `file:line: key: message` (line when known)."""

    def __init__(self, source: str, key: str, message: str, line: int | None = None):
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.source, self.key, self.line = source, key, line


@dataclass(frozen=True)
class EngineSpec:
    """An engine: its name in tables and its argv (`{python}`, `{seed}` are filled per game)."""

    name: str
    cmd: tuple[str, ...]
    resources: ResourceLimits = ResourceLimits()     # rlimits set before exec (none by default)


@dataclass(frozen=True)
class GameSpec:
    """One game of the tournament, played at each size in each variant."""

    game: str
    sizes: tuple[int, ...]
    variants: tuple[str, ...]       # canonical: balance then options off their default
    komi: int | None = None
    ply_cap: int | None = None


@dataclass(frozen=True)
class TournamentConfig:
    engines: tuple[EngineSpec, ...]
    games: tuple[GameSpec, ...]
    pairing: str = "round-robin"
    challengers: tuple[str, ...] = ()
    games_per_pair: int = 2
    seed: int = 0
    limits: Limits = field(default_factory=Limits)
    log_cap: int = DEFAULT_LOG_CAP      # bytes of stderr log kept per engine per game

    def engine(self, name: str) -> EngineSpec:
        return next(e for e in self.engines if e.name == name)


def player_cmd(name: str) -> tuple[str, ...]:
    """The argv of a built-in player (served by `python -m hexarena.players`)."""
    return tuple(name if w == "NAME" else w for w in PLAYER_CMD)


def load(path: str | Path) -> TournamentConfig:
    """Read and validate a TOML file; ConfigError on any defect, OSError if unreadable."""
    source = str(path)
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, "", f"not valid TOML: {exc}") from None
    return from_dict(data, source, key_lines(text))


def from_dict(data: dict, source: str = "<config>", lines: dict[str, int] | None = None) -> TournamentConfig:
    """Validate a decoded config table (TOML or the saved JSON copy)."""
    ctx = _Ctx(source, lines or {})
    ctx.only(data, "", {"seed", "pairing", "challengers", "games_per_pair", "time", "engines", "games", "logs"})
    engines = _engines(ctx, data.get("engines"))
    names = [e.name for e in engines]
    pairing = ctx.choice(data.get("pairing", "round-robin"), "pairing", PAIRINGS)
    challengers = tuple(ctx.strings(data.get("challengers", []), "challengers"))
    for c in challengers:
        if c not in names:
            raise ctx.error("challengers", f"{c!r} is not an engine (engines: {', '.join(names)})")
    if pairing == "gauntlet" and not challengers:
        raise ctx.error("challengers", "a gauntlet needs at least one challenger")
    if pairing == "gauntlet" and len(set(challengers)) == len(names):
        raise ctx.error("challengers", "a gauntlet needs at least one engine that is not a challenger")
    if pairing == "round-robin" and challengers:
        raise ctx.error("challengers", "only a gauntlet has challengers")
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise ctx.error("games", "expected at least one [[games]] table")
    return TournamentConfig(
        engines=engines,
        games=tuple(_game(ctx, g, i) for i, g in enumerate(games)),
        pairing=pairing,
        challengers=challengers,
        games_per_pair=ctx.integer(data.get("games_per_pair", 2), "games_per_pair", 1, 100_000),
        seed=ctx.integer(data.get("seed", 0), "seed", 0, 2**63 - 1),
        limits=_limits(ctx, data.get("time", {})),
        log_cap=_log_cap(ctx, data.get("logs", {})),
    )


def to_dict(config: TournamentConfig) -> dict:
    """The config as a plain table with every default filled in (from_dict's inverse)."""
    lim = config.limits
    time = {"move": lim.move, "increment": lim.increment, "start": lim.start, "command": lim.command}
    if lim.main is not None:
        time["main"] = lim.main
    games = []
    for g in config.games:
        entry: dict = {"game": g.game, "sizes": list(g.sizes), "variants": list(g.variants)}
        if g.komi is not None:
            entry["komi"] = g.komi
        if g.ply_cap is not None:
            entry["ply_cap"] = g.ply_cap
        games.append(entry)
    out = {
        "seed": config.seed, "pairing": config.pairing, "challengers": list(config.challengers),
        "games_per_pair": config.games_per_pair, "time": time,
        "engines": {e.name: {"cmd": list(e.cmd), **_resources_dict(e.resources)} for e in config.engines},
        "games": games,
    }
    if config.log_cap != DEFAULT_LOG_CAP:
        out["logs"] = {"cap_kb": config.log_cap // 1024}
    return out


def default_config(games_per_pair: int = 4) -> TournamentConfig:
    """`hexarena tournament` with no config: random and greedy, every playable
    game at its smallest recommended size, in its default variant."""
    games = []
    for gid in registry.playable():
        info = registry.get(gid)
        games.append(GameSpec(gid, (min(info.sizes),), (info.describe(info.variant(None)).split(" ", 1)[1],)))
    engines = tuple(EngineSpec(n, player_cmd(n)) for n in ("random", "greedy"))
    return TournamentConfig(engines, tuple(games), games_per_pair=games_per_pair)


def _engines(ctx: _Ctx, table: object) -> tuple[EngineSpec, ...]:
    if not isinstance(table, dict) or len(table) < 2:
        raise ctx.error("engines", "expected at least two [engines.NAME] tables")
    out = []
    for name, spec in table.items():
        key = f"engines.{name}"
        if not NAME.match(name):
            raise ctx.error(key, "an engine name is letters, digits and _ . + - (no spaces)")
        if not isinstance(spec, dict):
            raise ctx.error(key, "expected a table with `cmd` or `player`")
        ctx.only(spec, key, {"cmd", "player", *RESOURCE_KEYS})
        if ("cmd" in spec) == ("player" in spec):
            raise ctx.error(key, "give exactly one of `cmd` (a list of words) or `player` (a built-in player)")
        if "player" in spec:
            player = spec["player"]
            if not isinstance(player, str) or not PLAYER.match(player):
                raise ctx.error(f"{key}.player", f"expected a player name, got {player!r}")
            cmd = player_cmd(player)
        else:
            cmd = tuple(ctx.strings(spec["cmd"], f"{key}.cmd"))
            if not cmd or not cmd[0]:
                raise ctx.error(f"{key}.cmd", "expected a non-empty list of words, e.g. [\"./engine\", \"--hgp\"]")
        out.append(EngineSpec(name, cmd, _resources(ctx, spec, key)))
    return tuple(out)


def _game(ctx: _Ctx, entry: object, i: int) -> GameSpec:
    key = f"games[{i}]"
    if not isinstance(entry, dict):
        raise ctx.error(key, "expected a table")
    ctx.only(entry, key, {"game", "size", "sizes", "variant", "variants", "komi", "ply_cap"})
    try:
        info = registry.get(ctx.string(entry.get("game"), f"{key}.game"))
    except UnknownGame as exc:
        raise ctx.error(f"{key}.game", str(exc)) from None
    if "size" in entry and "sizes" in entry:
        raise ctx.error(f"{key}.size", "give `size` or `sizes`, not both")
    raw_sizes = [entry["size"]] if "size" in entry else entry.get("sizes", [info.default_size])
    if not isinstance(raw_sizes, list) or not raw_sizes:
        raise ctx.error(f"{key}.sizes", "expected a non-empty list of board sides")
    sizes = tuple(ctx.integer(s, f"{key}.sizes", 2, 13) for s in raw_sizes)
    if "variant" in entry and "variants" in entry:
        raise ctx.error(f"{key}.variant", "give `variant` or `variants`, not both")
    raw = [entry["variant"]] if "variant" in entry else entry.get("variants", [""])
    if not isinstance(raw, list) or not raw:
        raise ctx.error(f"{key}.variants", "expected a non-empty list such as [\"pie\", \"nopie\"]")
    variants = []
    for text in raw:
        try:
            v = info.variant(None, ctx.string(text, f"{key}.variants", empty=True).split())
        except UnknownVariant as exc:
            raise ctx.error(f"{key}.variants", str(exc)) from None
        variants.append(info.describe(v).split(" ", 1)[1])
    for name, values in (("sizes", sizes), ("variants", variants)):
        if len(set(values)) != len(values):
            raise ctx.error(f"{key}.{name}", "lists a value twice")
    komi = entry.get("komi")
    if komi is not None:
        komi = ctx.integer(komi, f"{key}.komi", 0, 10_000)
        if not info.uses_komi:
            raise ctx.error(f"{key}.komi", f"{info.id} has no komi setting")
    cap = entry.get("ply_cap")
    if cap is not None:
        cap = ctx.integer(cap, f"{key}.ply_cap", 1, 10_000_000)
    return GameSpec(info.id, sizes, tuple(variants), komi, cap)


def _limits(ctx: _Ctx, table: object) -> Limits:
    if not isinstance(table, dict):
        raise ctx.error("time", "expected a [time] table")
    ctx.only(table, "time", {"move", "main", "increment", "start", "command"})
    values = {}
    for name, value in table.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ctx.error(f"time.{name}", f"expected a number of seconds, got {value!r}")
        if value < 0 or (value == 0 and name != "increment"):
            raise ctx.error(f"time.{name}", f"expected {'>= 0' if name == 'increment' else '> 0'} seconds, "
                            f"got {value!r}")
        values[name] = float(value)
    return Limits(**values)


RESOURCE_KEYS = ("memory_mb", "cpu_seconds")


def _resources(ctx: _Ctx, spec: dict, key: str) -> ResourceLimits:
    """`memory_mb`, `cpu_seconds` of an [engines.NAME] table (rlimits; absent: unlimited)."""
    values = {k: ctx.integer(spec[k], f"{key}.{k}", 1, 10**7) for k in RESOURCE_KEYS if k in spec}
    return ResourceLimits(**values)


def _resources_dict(resources: ResourceLimits) -> dict:
    return {k: getattr(resources, k) for k in RESOURCE_KEYS if getattr(resources, k) is not None}


def _log_cap(ctx: _Ctx, table: object) -> int:
    """[logs] cap_kb: the stderr kept per engine per game (first and last halves), in KiB."""
    if not isinstance(table, dict):
        raise ctx.error("logs", "expected a [logs] table")
    ctx.only(table, "logs", {"cap_kb"})
    return ctx.integer(table.get("cap_kb", DEFAULT_LOG_CAP // 1024), "logs.cap_kb", 1, 10**8) * 1024


class _Ctx:
    """Error construction and the small type checks, with line lookup."""

    def __init__(self, source: str, lines: dict[str, int]):
        self.source, self.lines = source, lines

    def error(self, key: str, message: str) -> ConfigError:
        line = self.lines.get(key)
        probe = key
        while line is None and probe:          # fall back to the enclosing table
            probe = probe.rpartition(".")[0]
            line = self.lines.get(probe)
        return ConfigError(self.source, key, message, line)

    def only(self, table: dict, key: str, allowed: set[str]) -> None:
        for k in table:
            if k not in allowed:
                full = f"{key}.{k}" if key else k
                raise self.error(full, f"unknown key (expected one of {', '.join(sorted(allowed))})")

    def string(self, value: object, key: str, empty: bool = False) -> str:
        if not isinstance(value, str) or (not empty and not value):
            raise self.error(key, f"expected a string, got {value!r}")
        return value

    def strings(self, value: object, key: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, f"expected a list of strings, got {value!r}")
        return value

    def integer(self, value: object, key: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.error(key, f"expected an integer in {lo}..{hi}, got {value!r}")
        return value

    def choice(self, value: object, key: str, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise self.error(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return value  # type: ignore[return-value]


_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(r"\s*([A-Za-z0-9_.\"' -]+?)\s*=")


def key_lines(text: str) -> dict[str, int]:
    """Best-effort map from dotted keys (`engines.random.cmd`, `games[1].sizes`) to line numbers."""
    lines: dict[str, int] = {}
    table = ""
    counts: dict[str, int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m:
            name = ".".join(p.strip().strip("\"'") for p in m.group(2).split("."))
            if m.group(1) == "[[":
                counts[name] = counts.get(name, -1) + 1
                name = f"{name}[{counts[name]}]"
            table = name
            lines.setdefault(table, no)
            continue
        m = _ASSIGN.match(line)
        if m and not line.lstrip().startswith("#"):
            key = ".".join(p.strip().strip("\"'") for p in m.group(1).split("."))
            lines.setdefault(f"{table}.{key}" if table else key, no)
    return lines
