"""The engine kit for Python: write one method, get a complete HGP engine.

An author subclasses :class:`Engine` and fills in :meth:`Engine.choose`: the action to play
in a state (the rules' ``GameState``, with the compiled core when it is installed) under a
clock :class:`Budget`, optionally with what the engine thinks (:func:`analysed`).
:func:`run` (or :func:`serve`) does the rest: the HGP loop on stdin/stdout with every
command of docs/protocol.md (play, analysis and time commands, ``set_position``,
``genmove_analyze`` info lines), the move's share of the clock (players/clock.py), a
seeded ``random.Random`` (``--seed N``, and the ``hexarena-seed N`` command), a transcript
(``--log FILE``) and diagnostics on stderr. hexarena's built-in players serve through it
(players/serve.py). Public as ``hexarena.sdk``; API version :data:`API_VERSION` (the one
number of the Python, Rust and C kits, docs/engines.md).
"""
from __future__ import annotations

import random
import sys
from collections.abc import Iterator, Sequence
from typing import IO, TextIO

from hexarena.engine.actions import (Accept, Action, Decline, Grow, Keep, Komi, Move, Pair, Pass, PieStones, Place,
                                     Propose, Release, Resign, Split, Swap)
from hexarena.engine.game import GameState
from hexarena.engine.numbers import whole
from hexarena.protocol.analysis import Analysed, Info
from hexarena.protocol.clock import MoveClock
from hexarena.protocol.commands import SEED_COMMAND
from hexarena.protocol.engine_side import EngineSide
from hexarena.protocol.framing import MAX_COMMAND_BYTES, OVERLONG, CommandError

from . import installed
from .base import Budget
from .clock import move_budget, moves_ahead

#: The kits' API version: a minor step adds to the API, a major step changes or removes.
API_VERSION = "1.1"

__all__ = ["API_VERSION", "Accept", "Action", "Analysed", "Budget", "Decline", "Engine", "GameState", "Grow", "Info",
           "Keep", "Komi", "Move", "Pair", "Pass", "PieStones", "Place", "Propose", "Release", "Resign", "Split", "Swap",
           "analysed", "engine_side", "run", "serve"]


class Engine:
    """An HGP engine: override :meth:`choose`; `name` and `version` are what it answers to
    ``name`` and ``version``."""

    name: str = "python-engine"
    version: str = "1.0"

    def choose(self, state: GameState, budget: Budget, rng: random.Random) -> Action | Analysed:
        """The action for the side to move in `state` (not over): one of
        ``state.legal_actions()``, or ``Resign()``; or :func:`analysed` (the action and its
        info lines for ``genmove_analyze``). `budget.move_seconds` is this move's share of
        the clock (None: no clock), `budget.seconds` what is left on it; `rng` is the
        engine's seeded randomness."""
        raise NotImplementedError

    def forget(self) -> None:
        """Called when the engine is reseeded (``hexarena-seed``): drop what was kept
        between moves (a search tree)."""

    def log(self, *words: object) -> None:
        """A diagnostic line on stderr (stdout carries HGP answers only)."""
        print(f"[{self.name}]", *words, file=sys.stderr, flush=True)


def analysed(action: Action, winrate: float | None = None, score: float | None = None, visits: int | None = None,
             depth: int | None = None, pv: Sequence[str] = ()) -> Analysed:
    """`action` with one ``genmove_analyze`` info line (docs/protocol.md "Analysis"): the
    engine's chance to win (0..1), the expected margin, the positions searched, the plies,
    the principal variation (tokens, the action played first)."""
    return Analysed(action, (Info(winrate=winrate, score=score, visits=visits, depth=depth, pv=tuple(pv)),))


def engine_side(engine: Engine, seed: int = 0, timed: bool = True) -> EngineSide:
    """The sans-I/O HGP engine of `engine` (protocol/engine_side.py): one line in, the
    answer out. Each move's :class:`Budget` comes from what the engine was told; `timed`
    False: the engine's `choose` reads no budget, and gets ``Budget()`` (unknown) without the
    clock arithmetic."""
    rng = random.Random(seed)

    def reseed(eng: EngineSide, args: tuple[str, ...]) -> str:
        """`hexarena-seed N`: play from here as a process started with ``--seed N`` would."""
        if len(args) != 1:
            raise CommandError("syntax error: expected hexarena-seed N (a whole number)")
        rng.seed(whole(args[0], "seed"))            # InvalidNotation: `syntax error`
        engine.forget()
        return ""

    unknown = Budget()

    def choose(state: GameState, clock: MoveClock) -> Action | Analysed:
        budget = Budget(clock.left.seconds if clock.left else None, move_budget(clock, moves_ahead(state))) \
            if timed else unknown
        try:
            return engine.choose(state, budget, rng)
        except Exception:
            import traceback
            engine.log("choose failed:\n" + traceback.format_exc().rstrip())
            raise

    return EngineSide(choose, name=engine.name, version=engine.version, extensions={SEED_COMMAND: reseed},
                      note=engine.log)


class Transcript:
    """Appends `TIMESTAMP <direction> text` lines to a log file (`>` received, `<` sent)."""

    def __init__(self, path: str):
        self._file: IO[str] = open(path, "a", encoding="utf-8")

    def write(self, direction: str, text: str) -> None:
        from datetime import datetime, timezone
        stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        for line in text.split("\n"):
            self._file.write(f"{stamp} {direction} {line}\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


#: The most bytes taken from the input in one read.
READ_BYTES = 1 << 16


def _batches(stdin: TextIO) -> Iterator[list[str | None]]:
    """The input's lines as text, each with its end of line (undecodable bytes become U+FFFD), in
    batches: each batch the lines completed by one read, so the lines that had arrived together
    (the last line of the input comes too when it has no end of line). Blocks only when no
    complete line is left. A stream without a byte buffer (io.StringIO) gives one line a batch.

    A line of more than MAX_COMMAND_BYTES bytes comes as None, once, and no more of it than that
    is kept (the rest is read and dropped up to its end of line), so memory and time stay linear
    in the input whatever its lines' lengths."""
    read1 = getattr(getattr(stdin, "buffer", None), "read1", None)
    if read1 is None:
        yield from _text_batches(stdin)
        return
    pending = bytearray()           # the unfinished line's start, at most MAX_COMMAND_BYTES bytes
    skipping = False                # the unfinished line is over-long: dropped up to its end
    while chunk := read1(READ_BYTES):
        if b"\n" not in chunk:
            if not skipping:
                if len(pending) + len(chunk) > MAX_COMMAND_BYTES:
                    pending.clear()
                    skipping = True
                else:
                    pending += chunk
            continue
        batch: list[str | None] = []
        if skipping:
            chunk = chunk[chunk.index(b"\n") + 1:]
            batch.append(None)
            skipping = False
        data = pending + chunk if pending else chunk
        *lines, tail = data.split(b"\n")
        if len(data) > MAX_COMMAND_BYTES:
            batch += [None if len(line) > MAX_COMMAND_BYTES else line.decode("utf-8", "replace") + "\n"
                      for line in lines]
        else:
            batch += [line.decode("utf-8", "replace") + "\n" for line in lines]
        pending = bytearray(tail)
        if len(tail) > MAX_COMMAND_BYTES:
            pending.clear()
            skipping = True
        yield batch
    if skipping:
        yield [None]
    elif pending:
        yield [pending.decode("utf-8", "replace")]


def _text_batches(stdin: TextIO) -> Iterator[list[str | None]]:
    """:func:`_batches` of a stream of text without a byte buffer: one line a batch, a line of
    more than MAX_COMMAND_BYTES characters as None."""
    while line := stdin.readline(MAX_COMMAND_BYTES + 1):
        if line.endswith("\n") or len(line) <= MAX_COMMAND_BYTES:
            yield [line]
            continue
        while not line.endswith("\n") and (line := stdin.readline(MAX_COMMAND_BYTES + 1)):
            pass
        yield [None]


def serve(engine: Engine | EngineSide, seed: int = 0, log: str | None = None, stdin: TextIO = sys.stdin,
          stdout: TextIO = sys.stdout) -> int:
    """Serve `engine` over HGP until `quit` or end of input; the exit status: 0, or 1 if stdout
    broke. `log` names a file that receives a timestamped transcript of every line received and
    sent.

    Each answer is written and flushed as soon as it is complete, in order (PROTOCOL.md: "flushes
    after each response"), however many commands came in one read. While it serves on the
    process's stdout, ``sys.stdout`` is stderr: a ``print`` in the engine's code (a debugging
    line in ``choose``) goes to stderr, where the referee logs it, not into the answers."""
    side = engine if isinstance(engine, EngineSide) else engine_side(engine, seed)
    transcript = Transcript(log) if log else None
    if transcript:
        transcript.write("#", f"serving {side.name} seed={seed}")
    guarded = stdout is sys.stdout
    if guarded:
        sys.stdout = sys.stderr
    try:
        for batch in _batches(stdin):
            for line in batch:
                if line is None:
                    response: str | None = OVERLONG
                    if transcript:
                        transcript.write(">", f"(a line of more than {MAX_COMMAND_BYTES} bytes, skipped)")
                else:
                    if transcript:
                        transcript.write(">", line.rstrip("\r\n"))
                    response = side.handle(line)
                if response is None:
                    continue
                stdout.write(response)
                stdout.flush()
                if transcript:
                    transcript.write("<", response[:-2])
                if side.finished:
                    break
            if side.finished:
                break
        else:
            if transcript:
                transcript.write("#", "end of input")
    except BrokenPipeError:
        if transcript:
            transcript.write("#", "stdout closed")
        return 1
    finally:
        if guarded:
            sys.stdout = stdout
        if transcript:
            transcript.close()
    return 0


def run(engine: Engine, argv: Sequence[str] | None = None) -> None:
    """The engine's program: ``[--seed N] [--log FILE]`` from the command line, then
    :func:`serve` on stdin/stdout; exits with its status."""
    import argparse
    parser = argparse.ArgumentParser(prog=engine.name, description=f"{engine.name}: an HGP engine (hexarena.sdk)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    parser.add_argument("--log", default=None, help="append a timestamped transcript to FILE")
    args = parser.parse_args(argv)
    sys.exit(serve(engine, args.seed, args.log))


def package_version() -> str:
    """hexarena's installed version (the built-in engines' `version`; players/installed.py)."""
    return installed.version()
