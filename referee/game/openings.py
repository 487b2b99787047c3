"""Openings: the first actions of a game, fixed by the organiser, not chosen by the engines.

An opening is a tuple of canonical action tokens played from the initial
position. They come from a file (``openings = "FILE"``: one opening per
line, space-separated actions; ``#`` starts a comment; blank lines are
skipped; ``openings = "book:NAME"`` reads a shipped book, :func:`book_path`) or are drawn at random (``random_openings = N``: N actions of the
random player's distribution, from a seed derived from the tournament seed,
the group and the opening's number, so the same config always gives the
same openings and raising N keeps the first ones).

Pure: no I/O but :func:`read_file`; every check replays the opening through
the rules and raises OpeningError naming the opening and the action.
"""
from __future__ import annotations

import hashlib
import random
from pathlib import Path

from hexarena.engine import registry
from hexarena.engine.actions import Resign
from hexarena.engine.errors import IllegalMove, InvalidNotation, InvalidPosition
from hexarena.engine.game import GameState
from hexarena.engine.numbers import shown
from hexarena.results.record.files import read_text

BOOKS = Path(__file__).parent / "books"      # the shipped books: NAME.txt, selected as "book:NAME"
BOOK_PREFIX = "book:"
MAX_FILE_BYTES = 64 << 20   # an openings file: a million openings of 60 characters
RANDOM_TRIES = 100      # draws of one random opening before giving up (each game must go on after it)


class OpeningError(ValueError):
    """An opening that cannot be played: the message names the action and why."""


def read_file(path: str | Path) -> list[tuple[int, str]]:
    """The openings of a file as (line number, text), comments and blank lines dropped.

    OSError when the file cannot be read or is not a regular file of at most MAX_FILE_BYTES;
    UnicodeDecodeError when it is not UTF-8.
    """
    out = []
    for no, line in enumerate(read_text(path, MAX_FILE_BYTES).splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if text:
            out.append((no, text))
    return out


def book_names() -> list[str]:
    """The names of the shipped books (`openings = "book:NAME"`), sorted."""
    return sorted(p.stem for p in BOOKS.glob("*.txt"))


def book_path(name: str) -> Path:
    """The file of the shipped book `name` (``GAME-SIZE-VARIANT``, as the file names in game/books/ say); OpeningError naming the books there are."""
    if name in book_names():
        return BOOKS / f"{name}.txt"
    raise OpeningError(f"no shipped book {name!r} (books: {', '.join(book_names()) or 'none'})")


def initial(game: str, size: int, variant: str, komi: int | None = None) -> GameState:
    info = registry.get(game)
    return info.new_game(info.variant(size, variant.split()), komi or 0)


def replay(state: GameState, tokens: tuple[str, ...] | list[str]) -> tuple[tuple[str, ...], GameState]:
    """Canonical tokens of an opening and the state after it.

    OpeningError if an action is not notation, is illegal, is a resignation,
    or ends the game (an opening must leave a game to play).
    """
    canonical = []
    for ply, token in enumerate(tokens, 1):
        try:
            action = state.parse(token)
            if isinstance(action, Resign):
                raise OpeningError(f"action {ply} {shown(token)}: an opening cannot resign")
            after = state.play(action)
        except (InvalidNotation, IllegalMove) as exc:
            raise OpeningError(f"action {ply} {shown(token)}: {exc}") from None
        canonical.append(state.format(action))
        state = after
        if state.outcome() is not None:
            raise OpeningError(f"action {ply} {shown(token)} ends the game; an opening must leave a game to play")
    return tuple(canonical), state


def parse_line(text: str, game: str, size: int, variant: str, komi: int | None = None) -> tuple[str, ...]:
    """One line of an openings file as canonical tokens, checked on this board and variant.

    A line that is a position string rather than actions is refused: engines
    receive openings as `play` commands, so an opening must be the actions
    that lead to it.
    """
    start = initial(game, size, variant, komi)
    try:
        return replay(start, text.split())[0]
    except OpeningError:
        if _is_position(game, size, variant, text):
            raise OpeningError("a position string; give the actions that lead to it (engines receive "
                               "openings as `play` commands from the initial position)") from None
        raise


def _is_position(game: str, size: int, variant: str, text: str) -> bool:
    from hexarena.engine.position import parse_position
    info = registry.get(game)
    try:
        pos = parse_position(text)
        info.from_position(info.variant(size, variant.split()), pos, info.read_keys(pos))
    except (InvalidPosition, ValueError, KeyError):
        return False
    return True


def opening_seed(config_seed: int, group: str, index: int) -> int:
    digest = hashlib.sha256(f"{config_seed}:{group}:opening:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def random_tail(start: GameState, plies: int, seed: int) -> tuple[str, ...]:
    """`plies` random actions (the random player's distribution) from `start` that leave the game going.

    OpeningError when RANDOM_TRIES draws all end the game (`plies` too large for the board).
    """
    rng = random.Random(seed)
    for _ in range(RANDOM_TRIES):
        state, tokens = start, []
        for _ in range(plies):
            action = state.random_action(rng)
            tokens.append(state.format(action))
            state = state.play(action)
            if state.outcome() is not None:
                break
        else:
            return tuple(tokens)
    raise OpeningError(f"{plies} random actions end every game tried from {start.position()!r}")
