"""Tournament configuration: TOML (never executed) into frozen dataclasses.

The format is documented in docs/tournament.md. :func:`load` reads a file;
:func:`from_dict` validates a decoded table (the same path serves the
resolved copy a tournament keeps in its folder); :func:`to_dict` is its
inverse, with every default filled in. Every defect raises ConfigError
naming the file, the key and, when it can be found, the line.
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.errors import UnknownGame, UnknownVariant
from hexarena.results.record.files import FileLimitError, read_text
from hexarena.results.record.sgf import MAX_NODES

from ..engines.log_cap import DEFAULT_LOG_CAP
from ..game.adjudication import Adjudication
from ..game.clock import Limits
from .config_check import ConfigError, KeyReader, key_lines
from .config_edges import check_engine
from .config_sections import (RESOURCE_KEYS, SprtConfig, adjudication_table, affinity_value, komi_value, limits_table,
                              read_adjudication, read_affinity,
                              read_log_cap, read_resources, read_setup_commands,
                              resources_table, sprt_config, sprt_table, time_limits)
from ..engines.spawn import ResourceLimits

PAIRINGS = ("round-robin", "gauntlet")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")
PLAYER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*(:[0-9]+(\.[0-9]+)?s?)?\Z")   # NAME, NAME:N, NAME:Xs (mcts:400, mcts:0.5s)
RESTARTS = ("game", "fault")
PLAYER_CMD = ("{python}", "-P", "-m", "hexarena.players", "NAME", "--seed", "{seed}")   # -P: not from the cwd
#: The range of games_per_pair, in a config and on the command line (`--games-per-pair`).
GAMES_PER_PAIR = (1, 100_000)
#: The most games a schedule may hold, checked before it is built: 200,000 games take about 0.25 GB
#: and a few seconds to schedule, during which the referee cannot answer Ctrl-C.
MAX_GAMES = 200_000
MAX_CONFIG_BYTES = 1 << 20     # a config file; the largest real ones are a few KiB


@dataclass(frozen=True)
class EngineSpec:
    """An engine: its name in tables and its argv (`{python}`, `{seed}` are filled per game);
    `time`: its own limits under time odds (`[engines.X.time]`), None for the tournament's."""

    name: str
    cmd: tuple[str, ...]
    time: Limits | None = None                      # its own limits under time odds ([engines.X.time] over [time])
    cwd: str | None = None                          # working directory (None: the runner's)
    env: tuple[tuple[str, str], ...] = ()           # added to the runner's environment
    log_protocol: bool = False                      # write an HGP transcript per game (docs/tournament.md)
    resources: ResourceLimits = ResourceLimits()     # rlimits set before exec (none by default)
    restart: str = "game"                           # "game": a process per game; "fault": kept until a fault
    analysis: bool = True                           # ask `genmove_analyze` when the engine lists it
    commands: tuple[str, ...] = ()                  # setup command lines, sent once per process
    pause: bool = True                              # its process group is stopped while it is not its turn


@dataclass(frozen=True)
class GameSpec:
    """One game of the tournament, played at each size in each variant."""

    game: str
    sizes: tuple[int, ...]
    variants: tuple[str, ...]       # canonical: balance then options off their default
    komi: int | None = None
    ply_cap: int | None = None
    engines: tuple[str, ...] = ()   # the entrants; () means every engine
    openings: tuple[str, ...] = ()  # each: space-separated actions from the initial position
    random_openings: int = 0        # random plies after the opening (a fresh draw per game pair)

    def entrants(self, names: list[str]) -> list[str]:
        return [n for n in names if not self.engines or n in self.engines]


@dataclass(frozen=True)
class TournamentConfig:
    engines: tuple[EngineSpec, ...]
    games: tuple[GameSpec, ...]
    pairing: str = "round-robin"
    challengers: tuple[str, ...] = ()
    games_per_pair: int = 2
    seed: int = 0
    limits: Limits = field(default_factory=Limits)
    sprt: SprtConfig | None = None
    log_cap: int = DEFAULT_LOG_CAP      # bytes of stderr log kept per engine per game
    affinity: bool | tuple[int, ...] = False    # pinned cores: every usable CPU (True), these CPUs, or none
    adjudication: Adjudication | None = None     # [adjudication]; None: games are played out

    def engine(self, name: str) -> EngineSpec:
        return next(e for e in self.engines if e.name == name)

    def limits_of(self, name: str) -> Limits:
        """The time limits of one engine: its own under time odds, else the tournament's."""
        return self.engine(name).time or self.limits


def player_cmd(name: str) -> tuple[str, ...]:
    """The argv of a built-in player (served by `python -m hexarena.players`)."""
    return tuple(name if w == "NAME" else w for w in PLAYER_CMD)


#: What is wrong with a built-in player's name (a sentence), None when it names one: the players'
#: own check (hexarena.players.problem), given by the layer that may import the players.
PlayerCheck = Callable[[str], "str | None"]


def load(path: str | Path, players: PlayerCheck | None = None) -> TournamentConfig:
    """Read and validate a TOML file; ConfigError on any defect: text that is not UTF-8, a path
    that is no regular file of at most MAX_CONFIG_BYTES, or one that cannot be read. `players`
    as in from_dict."""
    try:
        text = read_text(path, MAX_CONFIG_BYTES)
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), "", f"not UTF-8 text: {exc}") from None
    except FileLimitError as exc:
        raise ConfigError(str(path), "", exc.reason) from None
    except OSError as exc:
        raise ConfigError(str(path), "", f"cannot read: {exc.strerror or exc}") from None
    return loads(text, str(path), Path(path).parent, players)


def loads(text: str, source: str = "<config>", base: Path | None = None,
          players: PlayerCheck | None = None) -> TournamentConfig:
    """Validate the text of a TOML config (`source` names it in errors; `base` and `players` as in
    from_dict); ConfigError on any defect."""
    try:
        data = tomllib.loads(text)
    except ValueError as exc:   # TOMLDecodeError, or int()'s digit limit on an integer of thousands of digits
        raise ConfigError(source, "", f"not valid TOML: {exc}") from None
    return from_dict(data, source, key_lines(text), base, players)


def from_dict(data: dict, source: str = "<config>", lines: dict[str, int] | None = None,
              base: Path | None = None, players: PlayerCheck | None = None) -> TournamentConfig:
    """Validate a decoded config table (TOML or the saved JSON copy).

    `base` is the folder relative paths (openings files, cwd) are read from;
    None: the current folder. `players` checks each `player = "NAME"` (the name and its budget)
    as the config is read; None: only its form is checked here, the rest when the player starts.
    """
    ctx = KeyReader(source, lines or {}, base)
    ctx.players = players
    ctx.only(data, "", {"seed", "pairing", "challengers", "games_per_pair", "time", "engines", "games", "sprt", "logs",
                        "affinity", "adjudication"})
    engines = _engines(ctx, data.get("engines"), data.get("time", {}))
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
    games_per_pair = ctx.integer(data.get("games_per_pair", 2), "games_per_pair", *GAMES_PER_PAIR)
    def games_of(spec: GameSpec) -> int:
        return _games_of(spec, names, pairing, challengers, games_per_pair)
    return _bounded(ctx, TournamentConfig(
        engines=engines,
        games=tuple(_game(ctx, g, i, names, games_of) for i, g in enumerate(games)),
        pairing=pairing,
        challengers=challengers,
        games_per_pair=games_per_pair,
        seed=ctx.integer(data.get("seed", 0), "seed", 0, 2**63 - 1),
        limits=time_limits(ctx, data.get("time", {})),
        sprt=sprt_config(ctx, data["sprt"], names) if "sprt" in data else None,
        log_cap=read_log_cap(ctx, data.get("logs", {})),
        affinity=read_affinity(ctx, data.get("affinity", False)),
        adjudication=read_adjudication(ctx, data["adjudication"]) if "adjudication" in data else None,
    ))


def scheduled_games(config: TournamentConfig) -> int:
    """How many games the schedule of `config` holds (referee/tournament/schedule.py), counted without building it."""
    names = [e.name for e in config.engines]
    return sum(_games_of(spec, names, config.pairing, config.challengers, config.games_per_pair)
               for spec in config.games)


def _games_of(spec: GameSpec, names: list[str], pairing: str, challengers: tuple[str, ...],
              games_per_pair: int) -> int:
    """How many games the schedule holds of one [[games]] entry."""
    entrants = spec.entrants(names)
    if pairing == "round-robin":
        pairs = len(entrants) * (len(entrants) - 1) // 2
    else:
        pairs = len([c for c in challengers if c in entrants]) * len([n for n in entrants if n not in challengers])
    return pairs * len(spec.sizes) * len(spec.variants) * max(1, len(spec.openings)) * games_per_pair


def _bounded(ctx: KeyReader, config: TournamentConfig) -> TournamentConfig:
    """`config`, or ConfigError when its schedule would hold more than MAX_GAMES games."""
    count = scheduled_games(config)
    if count > MAX_GAMES:
        raise ctx.error("games_per_pair", f"the schedule would hold {count} games, more than {MAX_GAMES} "
                        "(pairings x sizes x variants x openings x games_per_pair)")
    return config


def with_games_per_pair(config: TournamentConfig, games_per_pair: int,
                        source: str = "--games-per-pair") -> TournamentConfig:
    """`config` with another games_per_pair (the command line's override), under the config's own
    limits: ConfigError naming `source` when it is outside GAMES_PER_PAIR or the schedule too large."""
    ctx = KeyReader(source, {}, None)
    value = ctx.integer(games_per_pair, "", *GAMES_PER_PAIR)
    return _bounded(ctx, replace(config, games_per_pair=value))


def to_dict(config: TournamentConfig) -> dict:
    """The config as a plain table with every default filled in (from_dict's inverse)."""
    games = []
    for g in config.games:
        entry: dict = {"game": g.game, "sizes": list(g.sizes), "variants": list(g.variants)}
        if g.komi is not None:
            entry["komi"] = g.komi
        if g.ply_cap is not None:
            entry["ply_cap"] = g.ply_cap
        if g.engines:
            entry["engines"] = list(g.engines)
        if g.openings:
            entry["openings"] = list(g.openings)
        if g.random_openings:
            entry["random_openings"] = g.random_openings
        games.append(entry)
    out = {
        "seed": config.seed, "pairing": config.pairing, "challengers": list(config.challengers),
        "games_per_pair": config.games_per_pair, "time": limits_table(config.limits),
        "engines": {e.name: _engine_dict(e) for e in config.engines}, "games": games,
    } | ({"sprt": sprt_table(config.sprt)} if config.sprt else {})
    if config.log_cap != DEFAULT_LOG_CAP:
        out["logs"] = {"cap_kb": config.log_cap // 1024}
    if config.affinity:
        out["affinity"] = affinity_value(config.affinity)
    if config.adjudication is not None:
        out["adjudication"] = adjudication_table(config.adjudication)
    return out


def _engine_dict(e: EngineSpec) -> dict:
    out: dict = {"cmd": list(e.cmd), "restart": e.restart, **resources_table(e.resources)}
    if e.cwd is not None:
        out["cwd"] = e.cwd
    if e.env:
        out["env"] = dict(e.env)
    if e.log_protocol:
        out["log_protocol"] = True
    if not e.analysis:
        out["analysis"] = False
    if e.commands:
        out["commands"] = list(e.commands)
    if not e.pause:
        out["pause"] = False
    if e.time is not None:
        out["time"] = limits_table(e.time)
    return out


#: The players of `hexarena tournament` with no config: the built-in players quick enough for a
#: first run (mcts thinks 1 s a move).
DEFAULT_PLAYERS = ("random", "greedy", "heuristic")


def default_config(games_per_pair: int = 2) -> TournamentConfig:
    """`hexarena tournament` with no config: a round-robin of DEFAULT_PLAYERS on every playable
    game at its smallest recommended side (GameInfo.first_run_size where its games would not end), in its
    default variant, `games_per_pair` games per pair and game (seats alternating)."""
    games = []
    for gid in registry.playable():
        info = registry.get(gid)
        side = info.first_run_size or min(info.sizes)
        games.append(GameSpec(gid, (side,), (info.describe(info.variant(None)).split(" ", 1)[1],)))
    engines = tuple(EngineSpec(n, player_cmd(n), restart="fault") for n in DEFAULT_PLAYERS)
    return TournamentConfig(engines, tuple(games), games_per_pair=games_per_pair)


def _engines(ctx: KeyReader, table: object, time: object = None) -> tuple[EngineSpec, ...]:
    if not isinstance(table, dict) or len(table) < 2:
        raise ctx.error("engines", "expected at least two [engines.NAME] tables")
    out = []
    for name, spec in table.items():
        key = f"engines.{name}"
        if not NAME.match(name):
            raise ctx.error(key, "an engine name is letters, digits and _ . + - (no spaces)")
        if not isinstance(spec, dict):
            raise ctx.error(key, "expected a table with `cmd` or `player`")
        ctx.only(spec, key, {"cmd", "player", "cwd", "env", "log_protocol", "time", "restart", "analysis",
                             "commands", "pause", *RESOURCE_KEYS})
        if ("cmd" in spec) == ("player" in spec):
            raise ctx.error(key, "give exactly one of `cmd` (a list of words) or `player` (a built-in player)")
        if "player" in spec:
            player = spec["player"]
            if not isinstance(player, str) or not PLAYER.match(player):
                raise ctx.error(f"{key}.player", f"expected a player name, got {player!r}")
            if ctx.players is not None and (wrong := ctx.players(player)) is not None:
                raise ctx.error(f"{key}.player", wrong)
            cmd = player_cmd(player)
        else:
            cmd = tuple(ctx.strings(spec["cmd"], f"{key}.cmd"))
            if not cmd or not cmd[0]:
                raise ctx.error(f"{key}.cmd", "expected a non-empty list of words, e.g. [\"./engine\", \"--hgp\"]")
        odds = time_limits(ctx, spec["time"], f"{key}.time", time) if "time" in spec else None
        restart = ctx.choice(spec.get("restart", "fault" if "player" in spec else "game"), f"{key}.restart", RESTARTS)
        analysis = spec.get("analysis", True)
        if not isinstance(analysis, bool):
            raise ctx.error(f"{key}.analysis", f"expected true or false, got {analysis!r}")
        pause = spec.get("pause", True)
        if not isinstance(pause, bool):
            raise ctx.error(f"{key}.pause", f"expected true or false, got {pause!r}")
        settings = _engine_settings(ctx, spec, key)
        if "cmd" in spec:
            cmd = _program_from_base(ctx.base, cmd, settings[0])
        out.append(EngineSpec(name, cmd, odds, *settings,
                              resources=read_resources(ctx, spec, key), restart=restart, analysis=analysis,
                              commands=read_setup_commands(ctx, spec, key), pause=pause))
        check_engine(ctx, key, name, cmd, out[-1].cwd, out[-1].env)
    return tuple(out)


def _program_from_base(base: Path | None, cmd: tuple[str, ...], cwd: str | None) -> tuple[str, ...]:
    """`cmd` with a relative program path (`./engine`, `bin/engine`) made absolute against the
    config file's folder `base`, as every relative path in a config file is read. A bare name
    (`stockfish`) is left to PATH; with a `cwd`, the program is relative to the cwd, as exec reads it."""
    program = cmd[0]
    if base is None or cwd is not None or "/" not in program or Path(program).is_absolute():
        return cmd
    return (str(base.absolute() / program), *cmd[1:])


def _engine_settings(ctx: KeyReader, spec: dict, key: str) -> tuple[str | None, tuple[tuple[str, str], ...], bool]:
    """cwd, env and log_protocol of one [engines.X] table."""
    cwd = spec.get("cwd")
    if cwd is not None:
        cwd = ctx.string(cwd, f"{key}.cwd")
        if ctx.base is not None and not Path(cwd).is_absolute():
            cwd = str(ctx.base.absolute() / cwd)
    env = spec.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise ctx.error(f"{key}.env", "expected a table of strings, e.g. env = { OMP_NUM_THREADS = \"1\" }")
    log = spec.get("log_protocol", False)
    if not isinstance(log, bool):
        raise ctx.error(f"{key}.log_protocol", f"expected true or false, got {log!r}")
    return cwd, tuple(sorted(env.items())), log


def _game(ctx: KeyReader, entry: object, i: int, names: list[str], games_of: Callable[[GameSpec], int]) -> GameSpec:
    key = f"games[{i}]"
    if not isinstance(entry, dict):
        raise ctx.error(key, "expected a table")
    ctx.only(entry, key, {"game", "size", "sizes", "variant", "variants", "komi", "ply_cap", "engines",
                          "openings", "random_openings"})
    try:
        info = registry.get(ctx.string(entry.get("game"), f"{key}.game"))
    except UnknownGame as exc:
        raise ctx.error(f"{key}.game", str(exc)) from None
    if "size" in entry and "sizes" in entry:
        raise ctx.error(f"{key}.size", "give `size` or `sizes`, not both")
    sizes_key = f"{key}.size" if "size" in entry else f"{key}.sizes"        # errors name the key as written
    raw_sizes = [entry["size"]] if "size" in entry else entry.get("sizes", [info.default_size])
    if not isinstance(raw_sizes, list) or not raw_sizes:
        raise ctx.error(sizes_key, "expected a non-empty list of board sides")
    sizes = tuple(ctx.integer(s, sizes_key, 2, 13) for s in raw_sizes)
    if "variant" in entry and "variants" in entry:
        raise ctx.error(f"{key}.variant", "give `variant` or `variants`, not both")
    variants_key = f"{key}.variant" if "variant" in entry else f"{key}.variants"
    raw = [entry["variant"]] if "variant" in entry else entry.get("variants", [""])
    if not isinstance(raw, list) or not raw:
        raise ctx.error(variants_key, "expected a non-empty list such as [\"pie\", \"nopie\"]")
    variants = []
    for text in raw:
        try:
            v = info.variant(None, ctx.string(text, variants_key, empty=True).split())
        except UnknownVariant as exc:
            raise ctx.error(variants_key, str(exc)) from None
        variants.append(info.describe(v).split(" ", 1)[1])
    for name, values in (("sizes", sizes), ("variants", variants)):
        if len(set(values)) != len(values):
            raise ctx.error(f"{key}.{name}", "lists a value twice")
    komi = entry.get("komi")
    if komi is not None:
        if not info.uses_komi:
            raise ctx.error(f"{key}.komi", f"{info.id} has no komi setting")
        komi = komi_value(ctx, komi, f"{key}.komi", sizes)
    cap = entry.get("ply_cap")
    if cap is not None:
        cap = ctx.integer(cap, f"{key}.ply_cap", 1, MAX_NODES - 1)     # a record holds its root and each ply
    entrants = tuple(ctx.strings(entry.get("engines", []), f"{key}.engines"))
    for name in entrants:
        if name not in names:
            raise ctx.error(f"{key}.engines", f"{name!r} is not an engine (engines: {', '.join(names)})")
    if entrants and len(set(entrants)) < 2:
        raise ctx.error(f"{key}.engines", "expected at least two engines")
    spec = GameSpec(info.id, sizes, tuple(variants), komi, cap, entrants)
    return _openings(ctx, entry, key, spec, games_of)


def _openings(ctx: KeyReader, entry: dict, key: str, spec: GameSpec, games_of: Callable[[GameSpec], int]) -> GameSpec:
    """The `openings` (a file name, or the list the saved copy keeps) and `random_openings` of a game,
    each opening checked on every size and variant of the game (`games_of(spec)`: the games the
    entry schedules, bounded before any line is replayed). A file whose book header names another
    group than the entry's is refused."""
    from ..game import openings as op
    raw = entry.get("openings")
    lines: list[tuple[str, str]] = []             # (where, text)
    if isinstance(raw, str):
        path = Path(raw) if ctx.base is None or Path(raw).is_absolute() else ctx.base / raw
        if raw.startswith(op.BOOK_PREFIX):
            try:
                path = op.book_path(raw[len(op.BOOK_PREFIX):])
            except op.OpeningError as exc:
                raise ctx.error(f"{key}.openings", str(exc)) from None
        try:
            lines = [(f"{path}:{no}", text) for no, text in op.read_file(path)]
        except FileLimitError as exc:
            raise ctx.error(f"{key}.openings", str(exc)) from None
        except OSError as exc:
            raise ctx.error(f"{key}.openings", f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise ctx.error(f"{key}.openings", f"{path} is not UTF-8 text: {exc}") from None
        if not lines:
            raise ctx.error(f"{key}.openings", f"{path} holds no opening")
        _same_group(ctx, f"{key}.openings", raw, path, spec)
        count = games_of(replace(spec, openings=tuple(t for _, t in lines)))
        if count > MAX_GAMES:
            raise ctx.error(f"{key}.openings", f"the {len(lines)} openings of {path} would make the schedule hold "
                            f"{count} games, more than {MAX_GAMES} (pairings x sizes x variants x openings x "
                            "games_per_pair)")
    elif raw is not None:
        for n, text in enumerate(ctx.strings(raw, f"{key}.openings")):
            lines.append((f"{key}.openings[{n}]", text))
    plies = ctx.integer(entry.get("random_openings", 0), f"{key}.random_openings", 0, 10_000)
    for where, text in lines:
        for size in spec.sizes:
            for variant in spec.variants:
                try:
                    op.parse_line(text, spec.game, size, variant, spec.komi)
                except op.OpeningError as exc:
                    raise ctx.error(f"{key}.openings", f"{where}: on {spec.game} size {size} "
                                    f"{variant!r}: {exc}") from None
    return replace(spec, openings=tuple(" ".join(t.split()) for _, t in lines), random_openings=plies)


def group_name(game: str, size: int, variant: str) -> str:
    """A game, size and variant's group: `spelde-6-pie` (the schedule's ids and a book's name)."""
    return "-".join([game, str(size), *variant.split()])


def _same_group(ctx: KeyReader, key: str, raw: str, path: Path, spec: GameSpec) -> None:
    """ConfigError when the book header of `path` names another group than one of the entry's (a
    book's lines are for one game, size and variant); a file without a header is checked by replay alone."""
    from ..game.book import book_group
    named = book_group(path)
    groups = (group_name(spec.game, size, v) for size in spec.sizes for v in spec.variants)
    wrong = [g for g in groups if g != named]
    if named is not None and wrong:
        raise ctx.error(key, f"{raw} is a book of {named}, not of {', '.join(wrong)} (a book's lines are for "
                        "one game, size and variant)")
