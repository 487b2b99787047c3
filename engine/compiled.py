"""The compiled rules core: the extension module ``hexarena_core`` (core/, a distribution
of its own), used when it is installed and the environment variable ``HEXARENA_CORE`` is
not ``0``.

Each game whose package has a ``compiled`` module picks its ``RULES`` with :func:`choose`:
the core-backed GameInfo when the core is active and implements the game, its Python
rules otherwise. Both answer through the same GameInfo and GameState API, so nothing
above engine/ knows which is running. The Python rules are the specification; the
differential test (tests/engine/test_core_differential.py) holds the core to them.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import GameInfo

#: The environment variable that turns the core off (value ``0``).
SWITCH = "HEXARENA_CORE"


def installed() -> ModuleType | None:
    """The module ``hexarena_core`` when it imports, else None (whatever the switch says)."""
    try:
        import hexarena_core
    except ImportError:
        return None
    return hexarena_core


def active() -> ModuleType | None:
    """The core when it is installed and not switched off, else None."""
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
