"""The compiled rules core: the extension module ``hexarena_core`` (core/, a distribution
of its own), used when it is installed and the environment variable ``HEXARENA_CORE`` is
not ``0``. This module is the one reader of that switch: :func:`active` reads it once, at the
first question (a game package's import, for its rules), and keeps the answer for the
process, so the rules and the search (players/compiled_search.py asks :func:`active` too)
always agree.

Each game whose package has a ``compiled`` module picks its ``RULES`` with :func:`choose`:
the core-backed GameInfo when the core is active and implements the game, its Python
rules otherwise. Both answer through the same GameInfo and GameState API, so nothing
above engine/ knows which is running. The Python rules are the specification; the
differential test (tests/engine/test_core_differential.py) holds the core to them.
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Place
    from .game import GameInfo, GameState, Variant
    from .position import Position

#: The environment variable that turns the core off (value ``0``).
SWITCH = "HEXARENA_CORE"


def installed() -> ModuleType | None:
    """The module ``hexarena_core`` when it imports, else None (whatever the switch says)."""
    try:
        import hexarena_core
    except ImportError:
        return None
    return hexarena_core


@cache
def active() -> ModuleType | None:
    """The core when it is installed and not switched off, else None; the switch is read at the
    first call and the answer kept (a later change of the environment changes nothing)."""
    if os.environ.get(SWITCH, "") == "0":
        return None
    return installed()


def implements(game_id: str) -> bool:
    """Whether the installed core (switch aside) implements game `game_id`."""
    core = installed()
    return core is not None and game_id in core.GAMES


def choose(python: GameInfo, package: str) -> GameInfo:
    """The rules a game's package exports: ``<package>.compiled.RULES`` when the core is
    active and implements the game, else `python`."""
    core = active()
    if core is None or python.id not in core.GAMES:
        return python
    rules: GameInfo = importlib.import_module(f"{package}.compiled").RULES
    return rules


@cache
def places() -> tuple[Place, ...]:
    """One shared :class:`Place` per site bit of the largest board (13): the core's states hand
    these out and take them back, so a placement crosses the boundary without being built."""
    from .actions import Place
    from .geometry import MAX_SIZE, hexagon
    return tuple(Place(s) for s in range(hexagon(MAX_SIZE).mask.bit_length()))


def core_rules(python: GameInfo, to_core: Callable[[Any], GameState], state_class: type[GameState]) -> GameInfo:
    """A game's core-backed GameInfo: `python`'s, whose `new_game` and `from_position` build the
    Python state and hand it to `to_core` (the core state class of the same position); the
    core state class's `info` is set to it."""
    def new_game(variant: Variant, komi: int = 0) -> GameState:
        return to_core(python.new_game(variant, komi))

    def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> GameState:
        return to_core(python.from_position(variant, pos, keys))

    rules = replace(python, new_game=new_game, from_position=from_position)
    state_class.info = rules
    return rules
