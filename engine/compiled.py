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
from typing import TYPE_CHECKING, Any, ClassVar

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
    from .geometry import MAX_SIZE, grid_bits
    return tuple(Place(s) for s in range(grid_bits(MAX_SIZE)))


@cache
def board_bytes(n: int) -> int:
    """The bytes of a side-`n` board's bitboard as the core reads it (``hexarena_core.board_bytes``),
    asked once per size."""
    import hexarena_core
    return hexarena_core.board_bytes(n)


def from_le(data: bytes) -> int:
    """A bitboard from the core's little-endian bytes."""
    return int.from_bytes(data, "little")


class PythonFields:
    """Equality, hash, pickling and repr of a core-object state (a class of the core's, engine/games/
    */compiled.py) by the compared fields of its game's Python state class, ``_python``: a core
    state equals, hashes (a frozen dataclass's hash: its fields' tuple) and pickles like the
    Python state of the same position. A pickled state comes back through the rules' conversion
    to the core (``_to_core``, set by :func:`core_rules`)."""

    __slots__ = ()
    _python: ClassVar[type]
    _fields: ClassVar[tuple[str, ...]]
    _to_core: ClassVar[Callable[[Any], Any]]

    def _key(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, self._python):
            return NotImplemented
        return self._key() == tuple(getattr(other, f) for f in self._fields)

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple:
        return _restore, (type(self), self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields) + ")"


def _restore(cls: type[PythonFields], key: tuple) -> Any:
    """The core-object state of class `cls` with these fields (its Python state class's, in order)."""
    return cls._to_core(cls._python(*key))


def core_rules(python: GameInfo, to_core: Callable[[Any], GameState], state_class: type[GameState]) -> GameInfo:
    """A game's core-backed GameInfo: `python`'s, whose `new_game` and `from_position` build the
    Python state and hand it to `to_core` (the core state class of the same position); the
    core state class's `info` is set to it (and its `_to_core` to `to_core`)."""
    def new_game(variant: Variant, komi: int = 0) -> GameState:
        return to_core(python.new_game(variant, komi))

    def from_position(variant: Variant, pos: Position, keys: dict[str, Any]) -> GameState:
        return to_core(python.from_position(variant, pos, keys))

    rules = replace(python, new_game=new_game, from_position=from_position)
    state_class.info = rules
    state_class._to_core = staticmethod(to_core)  # type: ignore[attr-defined]
    return rules
