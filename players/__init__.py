"""Built-in bots, each servable over stdin/stdout (``python -m hexarena.players NAME``).

Names: ``random``, ``greedy``, ``heuristic`` (one ply scored by the game's
evaluation, players/games), ``mcts`` (MCTS, 1 s a move or less when the
clock says so), ``mcts:N`` (exactly N iterations a move, N a positive
integer; fewer only if the clock would otherwise run out) and ``mcts:Xs``
(X seconds a move, X a positive decimal, capped by the clock). Imports
``engine`` and ``protocol`` only (never ``referee`` or trio).
"""
from __future__ import annotations

from collections.abc import Callable

from hexarena.engine.errors import RulesError
from hexarena.engine.numbers import decimal, whole
from hexarena.engine.suggest import did_you_mean

from .base import Bot, Budget
from .greedy import greedy_bot
from .heuristic import heuristic_bot
from .mcts import MctsBot
from .random_bot import random_bot

#: The built-in bots by name.
BOTS: dict[str, Bot] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "heuristic": heuristic_bot,
    "mcts": MctsBot(),
}

#: Bots that take a budget as `NAME:N`, and how N builds them.
BUDGETED: dict[str, Callable[[int], Bot]] = {
    "mcts": lambda n: MctsBot(iterations=n, seconds=None),
}

#: Bots that take a time as `NAME:Xs` (X seconds a move), and how X builds them.
TIMED: dict[str, Callable[[float], Bot]] = {
    "mcts": lambda x: MctsBot(seconds=x),
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


__all__ = ["BOTS", "BUDGETED", "TIMED", "Bot", "Budget", "MctsBot", "get", "greedy_bot",
           "heuristic_bot", "names", "problem", "random_bot"]
