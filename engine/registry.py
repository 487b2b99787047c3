"""The five game ids and the modules that implement them.

A game is playable when its module exists and defines ``RULES``; the
registry needs no edit when a game lands.
"""
from __future__ import annotations

import importlib

from .errors import InvalidPosition, UnknownGame
from .game import GameInfo, GameState
from .position import parse_position

#: Every game id of the protocol, in the protocol's order, with its module.
GAME_MODULES: dict[str, str] = {
    "anda": "anda",
    "anda-prison": "anda_prison",
    "spelde": "spelde",
    "vaxandis": "vaxandis",
    "marbanta": "marbanta",
}

_cache: dict[str, GameInfo | None] = {}


def _load(game_id: str) -> GameInfo | None:
    if game_id not in _cache:
        name = f"{__package__}.games.{GAME_MODULES[game_id]}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            _cache[game_id] = None
        else:
            _cache[game_id] = module.RULES
    return _cache[game_id]


def playable() -> list[str]:
    """The ids of the games implemented so far, in protocol order."""
    return [g for g in GAME_MODULES if _load(g) is not None]


def get(game_id: str) -> GameInfo:
    """The rules of a game; UnknownGame if the id is unknown or not playable yet."""
    gid = game_id.lower()
    if gid not in GAME_MODULES:
        raise UnknownGame(f"no game {game_id!r}; games: {', '.join(GAME_MODULES)}")
    info = _load(gid)
    if info is None:
        raise UnknownGame(f"{gid} is not implemented yet")
    return info


def from_position(text: str) -> GameState:
    """A state from a position string; InvalidPosition with the reason on any defect."""
    pos = parse_position(text)
    try:
        info = get(pos.game)
    except UnknownGame as exc:
        raise InvalidPosition(str(exc)) from None
    tokens = [pos.keys.get("variant", "pie")]
    tokens += [f"{k}={pos.keys[k]}" for k, _ in info.options if k in pos.keys]
    try:
        variant = info.variant(pos.size, tokens)
    except ValueError as exc:
        raise InvalidPosition(str(exc)) from None
    return info.from_position(variant, pos)
