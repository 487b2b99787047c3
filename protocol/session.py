"""The engine side's game: the selected game and variant, the komi setting,
the current state and the undo history.

Generic over ``engine.game.GameInfo`` / ``GameState`` and ``engine.registry``;
nothing here knows a particular game. Errors of the rules layer
(``engine.errors``) pass through unchanged; the command table maps them to
failure words.
"""
from __future__ import annotations

import dataclasses

from hexarena.engine import registry
from hexarena.engine.actions import Action
from hexarena.engine.errors import IllegalMove
from hexarena.engine.game import GameInfo, GameState, Variant
from hexarena.engine.geometry import MAX_SIZE, MIN_SIZE

DEFAULT_GAME = registry.DEFAULT_GAME


class Session:
    """Mutable holder of one engine's board. Owns its history list.

    The komi setting survives `clear_board` and `boardsize`; `select` (the
    `game` command) resets it to 0. A komi change applies at once while the
    board is a cleared board with no action on it, otherwise (after a play
    or a `set_position`) at the next clear.
    """

    info: GameInfo
    variant: Variant
    state: GameState

    def __init__(self) -> None:
        """The default game's initial board, loaded at the first look at it (:meth:`__getattr__`):
        an engine told another game first never loads the default one."""
        self.komi = 0
        self.history: list[GameState] = []
        self._cleared = True      # the board came from clear(), not from set_position

    def __getattr__(self, name: str) -> object:
        """`info`, `variant` and `state` before any was set: the default game's."""
        if name not in ("info", "variant", "state"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.info = registry.get(DEFAULT_GAME)
        self.variant = self.info.variant()
        self.state = self.info.new_game(self.variant, self.komi)
        return getattr(self, name)

    # -- configuration ---------------------------------------------------

    def select(self, game_id: str, tokens: tuple[str, ...]) -> None:
        """`game ID [BALANCE] [OPTION=VALUE ...]`: UnknownGame / UnknownVariant leave the board as it was."""
        info = registry.get(game_id)
        variant = info.variant(None, list(tokens))
        self.info, self.variant, self.komi = info, variant, 0
        self.clear()

    def describe(self) -> str:
        return self.info.describe(self.variant)

    def resize(self, size: int) -> None:
        """`boardsize N`; ValueError when N is outside 2..13 (the table answers `unacceptable size`)."""
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"side {size} outside {MIN_SIZE}..{MAX_SIZE}")
        self.variant = dataclasses.replace(self.variant, size=size)
        self.clear()

    def set_komi(self, komi: int) -> None:
        self.komi = komi
        if self._cleared and not self.history:
            self.clear()

    def clear(self) -> None:
        self.state = self.info.new_game(self.variant, self.komi)
        self.history = []
        self._cleared = True

    def load(self, text: str) -> None:
        """`set_position`: InvalidPosition leaves the board as it was."""
        state = registry.from_position(text)
        if state.info.id != self.info.id:
            self.komi = 0
        self.info, self.variant, self.state = state.info, state.variant, state
        self.history = []
        self._cleared = False

    # -- play --------------------------------------------------------------

    @property
    def current(self) -> GameState:
        return self.state

    def play(self, action: Action) -> None:
        """Play on the board; IllegalMove (from the rules) leaves it unchanged."""
        state = self.current
        if state.outcome() is not None:
            raise IllegalMove("the game is over")
        after = state.play(action)
        self.history.append(state)
        self.state = after

    def undo(self) -> bool:
        """Revert one action; False when there is none to revert."""
        if not self.history:
            return False
        self.state = self.history.pop()
        return True

