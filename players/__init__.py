"""Built-in bots, each servable over stdin/stdout (``python -m players NAME``).

Imports ``engine`` and ``protocol`` only (never ``referee`` or trio).
"""
from __future__ import annotations

from .base import Bot, Budget
from .greedy import greedy_bot
from .random_bot import random_bot

#: The built-in bots by name.
BOTS: dict[str, Bot] = {
    "random": random_bot,
    "greedy": greedy_bot,
}


def get(name: str) -> Bot:
    """The bot called `name`; ValueError listing the names when there is none."""
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None


__all__ = ["BOTS", "Bot", "Budget", "get", "greedy_bot", "random_bot"]
