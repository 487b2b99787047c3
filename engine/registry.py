"""The games: the five built in, each with its package, and any added by the setting
``HEXARENA_GAMES``.

Each built-in game is a package ``engine/games/<module>/`` exporting ``RULES`` (its
GameInfo), listed in GAME_MODULES. A game kept anywhere else (another project, a
test) is added without changing this package: the environment variable
``HEXARENA_GAMES`` holds comma-separated ``MODULE:ATTR`` entries, each an importable
module and the name of its GameInfo (docs/architecture.md, "A sixth game"). Every
process that reads the variable (the referee, the engines it starts, which inherit
its environment, the web server) knows the same games. The variable is read at every
look-up (a change is seen at once) and each value's games are imported once.
Modules are imported on first use, so a game's import cost is paid only by those
who play it.
"""
from __future__ import annotations

import importlib
import os

from .errors import InvalidPosition, UnknownGame
from .game import GameInfo, GameState
from .position import parse_position
from .suggest import did_you_mean

#: The built-in game ids, in the protocol's order, each with its package under engine/games/.
GAME_MODULES: dict[str, str] = {
    "anda": "anda",
    "anda-prison": "anda_prison",
    "spelde": "spelde",
    "vaxandis": "vaxandis",
    "marbanta": "marbanta",
}

#: The game a tool starts with when none is named (docs/protocol.md: the engine's initial game).
DEFAULT_GAME = "spelde"

#: The environment variable naming added games: ``MODULE:ATTR[,MODULE:ATTR...]``.
GAMES_SETTING = "HEXARENA_GAMES"

_loaded: dict[str, GameInfo] = {}
_added: dict[str, dict[str, tuple[str, GameInfo]]] = {}   # setting's text -> id -> (module, GameInfo)


def added() -> dict[str, tuple[str, GameInfo]]:
    """The games ``HEXARENA_GAMES`` adds: id -> (the module that holds it, its GameInfo).

    UnknownGame naming the entry when one is not ``MODULE:ATTR``, its module cannot be
    imported, its attribute is not a GameInfo, or its id is taken.
    """
    text = os.environ.get(GAMES_SETTING, "").strip()
    if text not in _added:
        _added[text] = _read_setting(text)
    return _added[text]


def _read_setting(text: str) -> dict[str, tuple[str, GameInfo]]:
    games: dict[str, tuple[str, GameInfo]] = {}
    for entry in filter(None, (e.strip() for e in text.split(","))):
        where = f"{GAMES_SETTING} entry {entry!r}"
        module_name, colon, attr = entry.partition(":")
        if not colon or not module_name or not attr.isidentifier():
            raise UnknownGame(f"{where}: expected MODULE:ATTR (e.g. mygames.tiny:RULES)")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise UnknownGame(f"{where}: cannot import {module_name}: {exc}") from None
        info = getattr(module, attr, None)
        if not isinstance(info, GameInfo):
            raise UnknownGame(f"{where}: {module_name} has no GameInfo named {attr}")
        if info.id in GAME_MODULES or info.id in games:
            raise UnknownGame(f"{where}: game id {info.id!r} is taken")
        games[info.id] = (module_name, info)
    return games


def playable() -> list[str]:
    """The ids of the games: the built-in ones in protocol order, then the added ones."""
    return [*GAME_MODULES, *added()]


def get(game_id: str) -> GameInfo:
    """The rules of a game; UnknownGame if the id is not one of playable()."""
    gid = game_id.lower()
    info = _loaded.get(gid)
    if info is not None:
        return info
    if gid in GAME_MODULES:
        module = importlib.import_module(f"{__package__}.games.{GAME_MODULES[gid]}")
        info = _loaded[gid] = module.RULES
        return info
    extra = added()
    if gid not in extra:
        raise UnknownGame(f"no game {game_id!r}{did_you_mean(game_id, playable())}; games: {', '.join(playable())}")
    return extra[gid][1]


def from_position(text: str) -> GameState:
    """A state from a position string; InvalidPosition with the reason on any defect."""
    pos = parse_position(text)
    try:
        info = get(pos.game)
    except UnknownGame as exc:
        raise InvalidPosition(str(exc)) from None
    balance = pos.keys.get("variant", info.balances[0])
    if balance not in info.balances:
        raise InvalidPosition(f"variant={balance}: {info.id} balances are {', '.join(info.balances)}")
    tokens = [balance]
    tokens += [f"{k}={pos.keys[k]}" for k, _ in info.options if k in pos.keys]
    try:
        variant = info.variant(pos.size, tokens)
    except ValueError as exc:
        raise InvalidPosition(str(exc)) from None
    values = info.read_keys(pos)
    if not info.stacks:
        for bit, (_, height) in pos.stacks.items():
            if height != 1:
                raise InvalidPosition(f"{info.id} stones have no height ({variant.board.name(bit)})")
    return info.from_position(variant, pos, values)
