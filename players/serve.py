"""Serve a built-in bot over HGP on stdin/stdout.

Reads a line, answers it, flushes; stops after `quit` or at end of input.
The bot's randomness comes from ``random.Random(seed)`` only, so a session
replayed with the same seed gives the same answers. ``log`` names a file
that receives a timestamped transcript of every line received and sent.
"""
from __future__ import annotations

import gc
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import datetime, timezone
from importlib import metadata
from typing import IO, TextIO

from hexarena.engine.actions import Action, Resign
from hexarena.engine.game import GameState
from hexarena.engine.numbers import whole
from hexarena.protocol.analysis import Analysed
from hexarena.protocol.clock import MoveClock
from hexarena.protocol.commands import SEED_COMMAND
from hexarena.protocol.engine_side import EngineSide
from hexarena.protocol.framing import CommandError

from . import get
from .base import Budget, Player
from .clock import move_budget, moves_ahead
from .insight import evaluation_info, search_info

#: The bots whose move is valued by the game's evaluation in `genmove_analyze` (players/insight.py).
EVALUATING = ("greedy", "heuristic")

DEFAULT_SEED = 0


def _version() -> str:
    try:
        return metadata.version("hexarena")
    except metadata.PackageNotFoundError:
        return "0.0.0"


def make_engine(bot_name: str, seed: int = DEFAULT_SEED) -> EngineSide:
    """An EngineSide answering `genmove` with the named bot; ValueError for an unknown name.

    The loop owns the clock: each move's ``Budget.move_seconds`` comes from what
    the engine was told (players/clock.py). A bot with a ``search`` method
    (MCTS) gets back the tree of its last search, so the subtree of the
    actions played since is reused (:class:`Player`); it searches with the
    cyclic garbage collector paused (:func:`collector_paused`). Every move comes with what
    the bot thinks of it (players/insight.py), which `genmove_analyze` prints: MCTS its
    search, greedy and heuristic the game's evaluation, random nothing.
    """
    player = Player(get(bot_name))
    evaluating = bot_name in EVALUATING
    rng = random.Random(seed)

    def reseed(eng: EngineSide, args: tuple[str, ...]) -> str:
        """`hexarena-seed N`: play from here as a process started with ``--seed N`` would."""
        if len(args) != 1:
            raise CommandError("syntax error: expected hexarena-seed N (a whole number)")
        rng.seed(whole(args[0], "seed"))            # InvalidNotation: `syntax error`
        player.forget()
        return ""

    def choose(state: GameState, clock: MoveClock) -> Action | Analysed:
        budget = Budget(clock.left.seconds if clock.left else None,
                        move_budget(clock, moves_ahead(state)))
        with collector_paused() if player.search is not None else nullcontext():
            action = player(state, rng, budget)
        if isinstance(action, Resign):
            return action
        info = search_info(player.result) if player.result is not None else \
            evaluation_info(state, action) if evaluating else None
        return action if info is None else Analysed(action, (info,))

    return EngineSide(choose, name=f"hexarena-{bot_name}", version=_version(), extensions={SEED_COMMAND: reseed})


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


class Transcript:
    """Appends `TIMESTAMP <direction> text` lines to a log file (`>` received, `<` sent)."""

    def __init__(self, path: str):
        self._file: IO[str] = open(path, "a", encoding="utf-8")

    def write(self, direction: str, text: str) -> None:
        stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        for line in text.split("\n"):
            self._file.write(f"{stamp} {direction} {line}\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _read_line(stdin: TextIO) -> str:
    """One line as text ('' at end of input); undecodable bytes become U+FFFD."""
    raw = getattr(stdin, "buffer", None)
    if raw is not None:
        return raw.readline().decode("utf-8", "replace")
    return stdin.readline()


def serve(bot_name: str, seed: int = DEFAULT_SEED, log: str | None = None,
          stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Serve `bot_name` until `quit` or end of input; the exit status (0, or 1 if stdout broke).

    ValueError (listing the bot names) for an unknown bot, before any I/O.
    """
    engine = make_engine(bot_name, seed)
    transcript = Transcript(log) if log else None
    if transcript:
        transcript.write("#", f"serving {bot_name} seed={seed}")
    try:
        while not engine.finished:
            line = _read_line(stdin)
            if not line:
                if transcript:
                    transcript.write("#", "end of input")
                break
            if transcript:
                transcript.write(">", line.rstrip("\r\n"))
            response = engine.handle(line)
            if response is None:
                continue
            stdout.write(response)
            stdout.flush()
            if transcript:
                transcript.write("<", response[:-2])
    except BrokenPipeError:
        if transcript:
            transcript.write("#", "stdout closed")
        return 1
    finally:
        if transcript:
            transcript.close()
    return 0
