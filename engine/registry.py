"""The five game ids and the packages that implement them.

Each game is a package ``engine/games/<module>/`` exporting ``RULES`` (its
GameInfo); adding a game is one line in GAME_MODULES. Modules are imported on
first use, so a game's import cost is paid only by those who play it.
"""
from __future__ import annotations

import importlib

from .errors import InvalidPosition, UnknownGame
from .game import GameInfo, GameState
from .position import parse_position
from .suggest import did_you_mean

#: Every game id of the protocol, in the protocol's order, with its package under engine/games/.
GAME_MODULES: dict[str, str] = {
    "anda": "anda",
    "anda-prison": "anda_prison",
    "spelde": "spelde",
    "vaxandis": "vaxandis",
    "marbanta": "marbanta",
}

_loaded: dict[str, GameInfo] = {}


def playable() -> list[str]:
    """The ids of the games, in protocol order."""
    return list(GAME_MODULES)


def get(game_id: str) -> GameInfo:
    """The rules of a game; UnknownGame if the id is not one of GAME_MODULES."""
    gid = game_id.lower()
    if gid not in GAME_MODULES:
        raise UnknownGame(f"no game {game_id!r}{did_you_mean(game_id, GAME_MODULES)}; games: "
                          f"{', '.join(GAME_MODULES)}")
    info = _loaded.get(gid)
    if info is None:
        module = importlib.import_module(f"{__package__}.games.{GAME_MODULES[gid]}")
        info = _loaded[gid] = module.RULES
    return info


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
