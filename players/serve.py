"""Serve a built-in bot over HGP on stdin/stdout, as an engine of the kit (players/sdk.py,
whose loop it runs).

The bot's randomness comes from ``random.Random(seed)`` only, so a session replayed with the
same seed gives the same answers.
"""
from __future__ import annotations

import gc
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from types import ModuleType
from typing import TextIO

from hexarena.engine.actions import Action, Resign
from hexarena.engine.game import GameState
from hexarena.protocol.analysis import Analysed
from hexarena.protocol.engine_side import EngineSide

from . import games_of, get, sdk
from .base import Budget, Player

#: The bots whose move is valued by the game's evaluation in `genmove_analyze` (players/insight.py).
EVALUATING = ("greedy", "heuristic")
#: The bots that read no clock: served without the clock arithmetic (their Budget is unknown).
UNTIMED = ("random",)

DEFAULT_SEED = 0


class Builtin(sdk.Engine):
    """A built-in bot as an engine of the kit (players/sdk.py).

    A bot with a ``search`` method (MCTS) gets back the tree of its last search, so the
    subtree of the actions played since is reused (:class:`Player`); it searches with the
    cyclic garbage collector paused (:func:`collector_paused`). Every move comes with what
    the bot thinks of it (players/insight.py), which `genmove_analyze` prints: MCTS its
    search, greedy and heuristic the game's evaluation, random nothing.
    """

    def __init__(self, bot_name: str) -> None:
        self.player = Player(get(bot_name))
        self.evaluating = bot_name in EVALUATING
        self.name = f"hexarena-{bot_name}"
        self.version = sdk.package_version()
        self.insight: ModuleType | None = None      # players/insight.py, for the bots that say something
        if self.evaluating or self.player.search is not None:
            from . import insight
            self.insight = insight

    def choose(self, state: GameState, budget: Budget, rng: random.Random) -> Action | Analysed:
        player = self.player
        if player.search is None:
            action = player.bot(state, rng, budget)
        else:
            with collector_paused():
                action = player(state, rng, budget)
        insight = self.insight
        if isinstance(action, Resign) or insight is None:
            return action
        info = insight.search_info(player.result) if player.result is not None else \
            insight.evaluation_info(state, action) if self.evaluating else None
        return action if info is None else Analysed(action, (info,))

    def forget(self) -> None:
        self.player.forget()


def make_engine(bot_name: str, seed: int = DEFAULT_SEED) -> EngineSide:
    """An EngineSide answering `genmove` with the named bot (:class:`Builtin`), listing the
    games it plays (players.games_of); ValueError for an unknown name. Each move's
    ``Budget.move_seconds`` comes from what the engine was told (players/clock.py), but for
    the bots that read no clock (:data:`UNTIMED`)."""
    engine = Builtin(bot_name)
    side = sdk.engine_side(engine, seed, timed=bot_name not in UNTIMED)
    side.games = partial(games_of, bot_name)       # the heuristic player lists the games it can evaluate only
    return side


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body without Python's cyclic garbage collector; then freeze what survived.

    A search allocates hundreds of thousands of objects, so the collector runs
    often, and its full collections walk every live node of the tree: single
    iterations of 36-127 ms that the search's deadline cannot see. In Anda-prison (n=7) a
    0.65 s search (byo-yomi's 1 s period) took up to 1.12 s, and mcts lost a
    game on time in `bench.bench_clock_safety` under byo-yomi; with the collector
    paused the longest took 0.67 s. The tree holds no reference cycles (a search
    leaves 0 cyclic garbage objects in every game, measured with gc.collect()),
    so reference counting frees it all the same. What survives (the tree kept
    for the next move) is frozen (gc.freeze) so that no later collection walks
    it either; a collector the body found disabled stays so.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def serve(bot_name: str, seed: int = DEFAULT_SEED, log: str | None = None,
          stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Serve `bot_name` until `quit` or end of input (players/sdk.py's loop); the exit status
    (0, or 1 if stdout broke). ValueError (listing the bot names) for an unknown bot, before
    any I/O."""
    return sdk.serve(make_engine(bot_name, seed), seed, log, stdin, stdout)
