"""Books of openings: candidate lines expanded from a start, told apart under the hexagon's
symmetries, and the book file (`hexarena openings generate` writes it; `openings = "book:NAME"`
or a file name reads it, see openings.py).

Pure: the rules replay every line; nothing runs an engine here (hexarena/openings_play.py does).

A book file is an openings file (openings.py): one line of actions per opening, ``#`` comments.
Its first line is a header comment saying how it was made; each opening's comment gives the
first seat's value it was judged at, e.g. ``e5 d4  # first seat 0.512``.
"""
from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from hexarena.engine.actions import Resign
from hexarena.engine.game import GameState
from hexarena.engine.symmetry import map_token, site_maps

from .openings import OpeningError, replay

HEADER = "# hexarena book"


def canonical_key(start: GameState, line: Sequence[str]) -> str:
    """The least position string of the line's images under the 12 symmetries (images the rules
    refuse are skipped; the line itself never is): two lines with the same key reach positions
    equal under a symmetry, with the same player to move."""
    tables = site_maps(start.board.n)
    keys = []
    for table in tables:
        try:
            keys.append(replay(start, [map_token(t, table) for t in line])[1].position())
        except OpeningError:
            if table is tables[0]:
                raise
    return min(keys)


def expand(start: GameState, plies: int, limit: int, seed: int, prefix: Sequence[str] = ()
           ) -> list[tuple[str, ...]]:
    """Lines of `plies` actions from `start`, distinct under the symmetries, none ending the game
    and none a resignation, in a seeded random order.

    Ply by ply: every action of every line kept so far, one line per class of symmetric
    positions; when a ply holds more than `limit` lines, a seeded sample of `limit` goes on
    (so the last ply holds at most `limit`). With a `prefix` (a line from `start`), the lines go on
    from where it leads and begin with it. OpeningError when no line of `plies` actions leaves a
    game to play, or the prefix cannot be played.
    """
    rng = random.Random(seed)
    prefix = tuple(prefix)
    frontier: list[tuple[tuple[str, ...], GameState]] = [replay(start, prefix)]
    for _ in range(plies):
        per_line = -(-4 * limit // len(frontier))        # children read per line: enough to sample from
        seen: set[str] = set()
        children: list[tuple[tuple[str, ...], GameState]] = []
        for line, state in frontier:
            actions = [a for a in state.legal_actions() if not isinstance(a, Resign)]
            rng.shuffle(actions)
            taken = 0
            for action in actions:
                if taken >= per_line:
                    break
                after = state.play(action)
                if after.outcome() is not None:
                    continue
                child = line + (state.format(action),)
                key = canonical_key(start, child)
                if key not in seen:
                    seen.add(key)
                    children.append((child, after))
                    taken += 1
        rng.shuffle(children)
        frontier = children[:limit]
        if not frontier:
            raise OpeningError(f"no line of {plies} actions from {start.position()!r} leaves a game to play")
    return [line for line, _ in frontier]


def format_book(header: str, judged: Iterable[tuple[Sequence[str], float]]) -> str:
    """The text of a book file: the header comment, then each line with its first-seat value."""
    lines = [f"{HEADER} {header}".rstrip()]
    lines += [f"{' '.join(line)}  # first seat {value:.3f}" for line, value in judged]
    return "\n".join(lines) + "\n"


def book_group(path: str | Path) -> str | None:
    """The group (``spelde-5-pie``) the header of the book file at `path` names, the word before its
    first `:` or `,`; None for a file without a header (or one that cannot be read: its reader says why)."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline(4096).decode("utf-8", "replace")
    except OSError:
        return None
    name = header_of(first).split(":", 1)[0].split(",", 1)[0].strip()
    return name if re.fullmatch(r"[a-z][a-z0-9-]*-\d+(?:-[a-z0-9]+)*", name) else None


def header_of(text: str) -> str:
    """The header of a book file's text (its first line without the marker), or "" for an openings
    file that has none."""
    first = text.split("\n", 1)[0]
    return first[len(HEADER):].strip() if first.startswith(HEADER) else ""
