"""Built-in bots, each servable over stdin/stdout (``python -m hexarena.players NAME``).

Names: ``random``, ``greedy``, ``mcts`` (MCTS at its default budget, about
0.5-1 s a move) and ``mcts:N`` (MCTS with exactly N iterations a move, N a
positive integer). Imports ``engine`` and ``protocol`` only (never
``referee`` or trio).
"""
from __future__ import annotations

from collections.abc import Callable

from .base import Bot, Budget
from .greedy import greedy_bot
from .mcts import MctsBot
from .random_bot import random_bot

#: The built-in bots by name.
BOTS: dict[str, Bot] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "mcts": MctsBot(),
}

#: Bots that take a budget as `NAME:N`, and how N builds them.
BUDGETED: dict[str, Callable[[int], Bot]] = {
    "mcts": lambda n: MctsBot(iterations=n, plies=None),
}

#: The largest N accepted in `NAME:N`.
MAX_BUDGET = 10_000_000


def get(name: str) -> Bot:
    """The bot called `name` (`NAME` or `NAME:N`); ValueError saying what is wrong otherwise."""
    base, sep, count = name.partition(":")
    if not sep:
        try:
            return BOTS[name]
        except KeyError:
            raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}, "
                             f"{', '.join(f'{b}:N' for b in BUDGETED)}") from None
    if base not in BUDGETED:
        raise ValueError(f"bot {base!r} takes no budget; budgeted bots: "
                         f"{', '.join(f'{b}:N' for b in BUDGETED)}")
    if not count.isdigit() or not 1 <= int(count) <= MAX_BUDGET:
        raise ValueError(f"{name!r}: N must be a whole number from 1 to {MAX_BUDGET}")
    return BUDGETED[base](int(count))


__all__ = ["BOTS", "BUDGETED", "Bot", "Budget", "MctsBot", "get", "greedy_bot", "random_bot"]
