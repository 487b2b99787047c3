"""The ladder's config (TOML, read like a tournament's: errors name file, key and line).

    interval = 10            # seconds between the rounds of each pool
    provisional = 10         # games below which a player's rating is marked provisional
    [bounds]                 # optional: see :class:`Bounds`
    [adjudication]           # optional: as a tournament's, for every pool
    [[pools]]
    name = "GAME-5"
    game = "GAME"            # a game id (registry.playable())
    size = 5
    variant = "pie"          # optional: the game's default
    network = 0.5            # seconds added to each deadline of a remote engine (default 0.5)
    anchors = ["random"]     # built-in players the server runs; the first is pinned at rating 0
    [pools.time]             # as a tournament's [time]
    move = 1
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.errors import UnknownGame, UnknownVariant
from hexarena.players import get as get_bot
from hexarena.referee.game.adjudication import Adjudication
from hexarena.referee.game.clock import Limits
from hexarena.referee.tournament.config import EngineSpec, GameSpec, TournamentConfig, player_cmd
from hexarena.referee.tournament.config_check import ConfigError, KeyReader, key_lines
from hexarena.referee.tournament.config_sections import komi_value, read_adjudication, time_limits

__all__ = ["Bounds", "ConfigError", "LadderConfig", "PoolSpec", "load", "loads"]

POOL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
MAX_CONFIG_BYTES = 1 << 20


@dataclass(frozen=True)
class Bounds:
    """What one server accepts (each excess is refused with a message saying which bound)."""

    message_bytes: int = 65_536        # one WebSocket message
    messages_per_second: float = 50.0  # per connection, averaged over a burst of `burst`
    burst: int = 200
    per_account: int = 4               # connections of one account at once
    connections: int = 200             # connections at once in all
    per_address: int = 8               # connections at once of one address that have not logged in yet
    login_seconds: float = 10.0        # to send the login message after connecting
    idle_seconds: float = 120.0        # without any message from an idle bridge (it pings every 20 s)
    pages_per_second: float = 20.0     # page answers in all (429 past them), over a burst of `pages_burst`
    pages_burst: int = 40


@dataclass(frozen=True)
class PoolSpec:
    """One pool: what is played, its clock, the allowance for the network and its anchors."""

    name: str
    game: str
    size: int
    variant: str                        # canonical words
    limits: Limits
    network: float = 0.5
    anchors: tuple[str, ...] = ()
    komi: int | None = None

    def tournament(self, adjudication: Adjudication | None) -> TournamentConfig:
        """The pool as a tournament config (its folder's tournament.json): the anchors as its
        engines; accounts are added per game."""
        engines = tuple(EngineSpec(a, player_cmd(a)) for a in self.anchors)
        return TournamentConfig(engines, (GameSpec(self.game, (self.size,), (self.variant,), self.komi),),
                                games_per_pair=1, limits=self.limits, adjudication=adjudication)


@dataclass(frozen=True)
class LadderConfig:
    pools: tuple[PoolSpec, ...]
    interval: float = 10.0
    provisional: int = 10
    bounds: Bounds = field(default_factory=Bounds)
    adjudication: Adjudication | None = None

    def pool(self, name: str) -> PoolSpec | None:
        return next((p for p in self.pools if p.name == name), None)


def load(path: str | Path) -> LadderConfig:
    """Read and check a ladder config; ConfigError naming file, key and line on any defect."""
    source = str(path)
    try:
        raw = Path(path).read_bytes()[:MAX_CONFIG_BYTES + 1]
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(source, "", f"larger than {MAX_CONFIG_BYTES} bytes")
        text = raw.decode("utf-8")
    except OSError as exc:
        raise ConfigError(source, "", f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(source, "", f"not UTF-8 text: {exc}") from None
    return loads(text, source)


def loads(text: str, source: str = "<ladder config>") -> LadderConfig:
    """Check a ladder config's TOML text; ConfigError naming `source`, key and line on any defect."""
    try:
        data = tomllib.loads(text)
    except ValueError as exc:
        raise ConfigError(source, "", f"not valid TOML: {exc}") from None
    return from_dict(data, KeyReader(source, key_lines(text)))


def from_dict(data: dict, ctx: KeyReader) -> LadderConfig:
    ctx.only(data, "", {"pools", "interval", "provisional", "bounds", "adjudication"})
    pools = data.get("pools")
    if not isinstance(pools, list) or not pools:
        raise ctx.error("pools", "expected one or more [[pools]] tables")
    specs = tuple(_pool(ctx, entry, i) for i, entry in enumerate(pools))
    names = [p.name for p in specs]
    if len(set(names)) != len(names):
        raise ctx.error("pools", "two pools have the same name")
    interval = _seconds(ctx, data.get("interval", 10.0), "interval", 0.1, 86_400)
    provisional = ctx.integer(data.get("provisional", 10), "provisional", 0, 100_000)
    adjudication = read_adjudication(ctx, data["adjudication"]) if "adjudication" in data else None
    return LadderConfig(specs, interval, provisional, _bounds(ctx, data.get("bounds", {})), adjudication)


def _pool(ctx: KeyReader, entry: object, i: int) -> PoolSpec:
    key = f"pools[{i}]"
    if not isinstance(entry, dict):
        raise ctx.error(key, "expected a table")
    ctx.only(entry, key, {"name", "game", "size", "variant", "time", "anchors", "network", "komi"})
    name = ctx.string(entry.get("name"), f"{key}.name")
    if not POOL_NAME.fullmatch(name):
        raise ctx.error(f"{key}.name", f"{name!r} is not a pool name (letters, digits, _ . -; it names a folder)")
    try:
        info = registry.get(ctx.string(entry.get("game"), f"{key}.game"))
    except UnknownGame as exc:
        raise ctx.error(f"{key}.game", str(exc)) from None
    size = ctx.integer(entry.get("size", info.default_size), f"{key}.size", 2, 13)
    try:
        variant = info.variant(size, ctx.string(entry.get("variant", ""), f"{key}.variant", empty=True).split())
    except (UnknownVariant, ValueError) as exc:
        raise ctx.error(f"{key}.variant", str(exc)) from None
    limits = time_limits(ctx, entry.get("time", {}), f"{key}.time")
    anchors = tuple(ctx.strings(entry.get("anchors", []), f"{key}.anchors"))
    for a in anchors:
        try:
            get_bot(a)
        except ValueError as exc:
            raise ctx.error(f"{key}.anchors", str(exc)) from None
    if len(set(anchors)) != len(anchors):
        raise ctx.error(f"{key}.anchors", "lists a player twice")
    komi = entry.get("komi")
    if komi is not None:
        if not info.uses_komi:
            raise ctx.error(f"{key}.komi", f"{info.id} has no komi setting")
        komi = komi_value(ctx, komi, f"{key}.komi", (size,))
    network = _seconds(ctx, entry.get("network", 0.5), f"{key}.network", 0.0, 60.0)
    return PoolSpec(name, info.id, size, info.describe(variant).split(" ", 1)[1], limits, network, anchors, komi)


def _seconds(ctx: KeyReader, value: object, key: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise ctx.error(key, f"expected a number of seconds in {lo:g}..{hi:g}, got {value!r}")
    return float(value)


def _bounds(ctx: KeyReader, table: object) -> Bounds:
    if not isinstance(table, dict):
        raise ctx.error("bounds", "expected a [bounds] table")
    known = {f.name: f for f in fields(Bounds)}
    ctx.only(table, "bounds", set(known))
    values: dict = {}
    for name, value in table.items():
        if known[name].type == "int":
            values[name] = ctx.integer(value, f"bounds.{name}", 1, 1 << 30)
        else:
            values[name] = _seconds(ctx, value, f"bounds.{name}", 0.01, 1e6)
    return Bounds(**values)
