"""The games: the five built in, each with its package, and any added by the setting
``HEXARENA_GAMES``.

Each built-in game is a package ``engine/games/<module>/`` exporting ``RULES`` (its
GameInfo), listed in GAME_MODULES. A game kept anywhere else (another project, a
test) is added without changing this package: the environment variable
``HEXARENA_GAMES`` holds comma-separated ``MODULE:ATTR`` entries, each an importable
module and the name of its GameInfo (docs/architecture.md, "A sixth game"); an entry
that cannot add its game (its module raises on import, its id is not valid or taken, ...)
is left out and said by :func:`setting_problems`, and a look-up of a game that is not
there names the setting and those entries. Every
process that reads the variable (the referee, the engines it starts, which inherit
its environment, the web server) knows the same games. The variable is read at every
look-up (a change is seen at once) and each value's games are imported once.
Modules are imported on first use, so a game's import cost is paid only by those
who play it.
"""
from __future__ import annotations

import importlib
import os
import re

from .errors import InvalidPosition, UnknownGame, raised
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

#: What an added game's id may be: lower-case ASCII letters and digits, words joined by single
#: hyphens, starting with a letter, at most 32 characters (as the built-in ids are; look-ups
#: lower-case the id asked for, and the id is a word of positions, records and folder names).
GAME_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
GAME_ID_TEXT = "lower-case letters a-z, digits and single hyphens between them, starting with a letter, at most 32 characters"

_loaded: dict[str, GameInfo] = {}
_added: dict[str, tuple[dict[str, tuple[str, GameInfo]], list[str]]] = {}   # setting's text -> (games, problems)


def added() -> dict[str, tuple[str, GameInfo]]:
    """The games ``HEXARENA_GAMES`` adds: id -> (the module that holds it, its GameInfo).

    An entry that cannot add its game is left out (:func:`setting_problems` says why); the
    other entries' games and the built-in ones are unaffected.
    """
    return _setting()[0]


def setting_problems() -> list[str]:
    """Why entries of ``HEXARENA_GAMES`` add no game, one message each, naming the entry: not
    ``MODULE:ATTR``; its module raised on import (any exception: its type, message and the
    module's file:line); its attribute is not a GameInfo; its id is not a valid id
    (:data:`GAME_ID_TEXT`) or is taken. Empty when every entry adds its game."""
    return _setting()[1]


def setting_text() -> str:
    """The value of ``HEXARENA_GAMES`` as this process sees it ("" when unset)."""
    return os.environ.get(GAMES_SETTING, "").strip()


def _setting() -> tuple[dict[str, tuple[str, GameInfo]], list[str]]:
    text = setting_text()
    if text not in _added:
        _added[text] = _read_setting(text)
    return _added[text]


def _read_setting(text: str) -> tuple[dict[str, tuple[str, GameInfo]], list[str]]:
    games: dict[str, tuple[str, GameInfo]] = {}
    problems: list[str] = []
    for entry in filter(None, (e.strip() for e in text.split(","))):
        try:
            module_name, info = _read_entry(entry, games)
        except UnknownGame as exc:
            problems.append(str(exc))
        else:
            games[info.id] = (module_name, info)
    return games, problems


def _read_entry(entry: str, games: dict[str, tuple[str, GameInfo]]) -> tuple[str, GameInfo]:
    where = f"{GAMES_SETTING} entry {entry!r}"
    module_name, colon, attr = entry.partition(":")
    if not colon or not module_name or not attr.isidentifier():
        raise UnknownGame(f"{where}: expected MODULE:ATTR (e.g. mygames.tiny:RULES)")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:                 # the module's own code may raise anything on import
        raise UnknownGame(f"{where}: cannot import {module_name}: {raised(exc)}") from None
    info = getattr(module, attr, None)
    if not isinstance(info, GameInfo):
        raise UnknownGame(f"{where}: {module_name} has no GameInfo named {attr}")
    if not isinstance(info.id, str) or len(info.id) > 32 or not GAME_ID.fullmatch(info.id):
        raise UnknownGame(f"{where}: game id {info.id!r} is not a valid id: {GAME_ID_TEXT}")
    if info.id in GAME_MODULES or info.id in games:
        raise UnknownGame(f"{where}: game id {info.id!r} is taken")
    return module_name, info


def playable() -> list[str]:
    """The ids of the games: the built-in ones in protocol order, then the added ones."""
    return [*GAME_MODULES, *added()]


def get(game_id: str) -> GameInfo:
    """The rules of a game; UnknownGame (:func:`unknown`) if the id is not one of playable()."""
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
        raise UnknownGame(unknown(game_id))
    return extra[gid][1]


def unknown(game_id: str) -> str:
    """The message for a game id that is not one of playable(): the games there are, and, as
    any id not built in may be a game added by the setting, what ``HEXARENA_GAMES`` is in this
    process and why any of its entries adds no game."""
    message = f"no game {game_id!r}{did_you_mean(game_id, playable())}; games: {', '.join(playable())}"
    text = setting_text()
    now = f"it is {text!r} here" if text else "it is not set here"
    message += f" (a game added by {GAMES_SETTING} needs that setting: {now})"
    problems = setting_problems()
    return message + "".join(f"; {p}" for p in problems)


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
