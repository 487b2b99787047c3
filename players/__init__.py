"""Built-in bots, each servable over stdin/stdout (``python -m hexarena.players NAME``).

Names: ``random``, ``greedy``, ``heuristic`` (one ply scored by the game's
evaluation, players/games), ``mcts`` (MCTS, 1 s a move or less when the
clock says so), ``mcts:N`` (exactly N iterations a move, N a positive
integer; fewer only if the clock would otherwise run out) and ``mcts:Xs``
(X seconds a move, X a positive decimal, capped by the clock). Imports
``engine`` and ``protocol`` only (never ``referee`` or trio).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from hexarena.engine.errors import RulesError
from hexarena.engine.numbers import decimal, whole
from hexarena.engine.suggest import did_you_mean

from .base import Bot, Budget
from .random_bot import random_bot      # a module of the same name: imported, not looked up

if TYPE_CHECKING:
    from .greedy import greedy_bot
    from .heuristic import heuristic_bot
    from .mcts import MctsBot

#: Where each other bot and bot class lives: (its module under players/, its name there). A
#: process imports the modules of the bots it uses only (a served `random` imports no search).
_HOMES: dict[str, tuple[str, str]] = {
    "greedy_bot": ("greedy", "greedy_bot"),
    "heuristic_bot": ("heuristic", "heuristic_bot"),
    "MctsBot": ("mcts", "MctsBot"),
}


def __getattr__(name: str) -> Any:
    """The bots and MctsBot, imported at their first use (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _HOMES[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    globals()[name] = value
    return value


class _Bots(Mapping[str, Bot]):
    """The built-in bots by name, each made at its first look-up."""

    def __init__(self, makers: dict[str, Callable[[], Bot]]):
        self._makers = makers
        self._made: dict[str, Bot] = {}

    def __getitem__(self, name: str) -> Bot:
        if name not in self._made:
            self._made[name] = self._makers[name]()     # KeyError for an unknown name
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


def _mcts(**settings: Any) -> Bot:
    bot: Bot = __getattr__("MctsBot")(**settings)
    return bot


#: The built-in bots by name (a read-only mapping; a bot's module is imported at its first look-up).
BOTS: Mapping[str, Bot] = _Bots({
    "random": lambda: random_bot,
    "greedy": lambda: __getattr__("greedy_bot"),
    "heuristic": lambda: __getattr__("heuristic_bot"),
    "mcts": _mcts,
})

#: Bots that take a budget as `NAME:N`, and how N builds them.
BUDGETED: dict[str, Callable[[int], Bot]] = {
    "mcts": lambda n: _mcts(iterations=n, seconds=None),
}

#: Bots that take a time as `NAME:Xs` (X seconds a move), and how X builds them.
TIMED: dict[str, Callable[[float], Bot]] = {
    "mcts": lambda x: _mcts(seconds=x),
}

#: The longest X accepted in `NAME:Xs`.
MAX_SECONDS = 3600.0

#: The largest N accepted in `NAME:N`.
MAX_BUDGET = 10_000_000


def names() -> str:
    """Every built-in player's name and the forms with a budget, for messages."""
    return ", ".join([*BOTS, *(f"{b}:N" for b in BUDGETED), *(f"{b}:Xs" for b in TIMED)])


def problem(name: str) -> str | None:
    """What is wrong with `name` as a built-in player (a sentence with a did-you-mean), None when it is one."""
    try:
        get(name)
    except ValueError as exc:
        return str(exc)
    return None


#: Bots that play only the games declaring their evaluation (players/games: `KNOWLEDGE`).
EVALUATED = ("heuristic",)


def games_of(name: str) -> list[str]:
    """The games the built-in player `name` (`NAME`, `NAME:N`, `NAME:Xs`) plays, in the registry's
    order: every playable game, but only those declaring their evaluation for the bots that need
    it (:data:`EVALUATED`: a game HEXARENA_GAMES adds without `KNOWLEDGE` is not theirs)."""
    from hexarena.engine import registry
    playable = registry.playable()
    if name.partition(":")[0] not in EVALUATED:
        return playable
    from .games import evaluates
    return [g for g in playable if evaluates(g)]


def get(name: str) -> Bot:
    """The bot called `name` (`NAME` or `NAME:N`); ValueError saying what is wrong otherwise."""
    base, sep, count = name.partition(":")
    if not sep:
        try:
            return BOTS[name]
        except KeyError:
            raise ValueError(f"unknown built-in player {name!r}{did_you_mean(name, BOTS)}; players: "
                             f"{names()}") from None
    if count.endswith("s") and base in TIMED:
        try:
            seconds = decimal(count[:-1], "X")
        except RulesError:
            seconds = -1.0
        if not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"{name!r}: X in {base}:Xs must be seconds in (0, {MAX_SECONDS:g}]")
        return TIMED[base](seconds)
    if base not in BOTS:
        raise ValueError(f"unknown built-in player {base!r} in {name!r}{did_you_mean(base, BOTS)}; players: "
                         f"{names()}")
    if base not in BUDGETED:
        raise ValueError(f"built-in player {base!r} takes no budget (write {base}); budgeted players: "
                         f"{', '.join(f'{b}:N' for b in BUDGETED)}")
    try:
        n = whole(count, "N")
    except RulesError:
        n = 0
    if not 1 <= n <= MAX_BUDGET:
        raise ValueError(f"{name!r}: N must be a whole number from 1 to {MAX_BUDGET}")
    return BUDGETED[base](n)


__all__ = ["BOTS", "BUDGETED", "EVALUATED", "TIMED", "Bot", "Budget", "MctsBot", "games_of", "get",
           "greedy_bot", "heuristic_bot", "names", "problem", "random_bot"]
