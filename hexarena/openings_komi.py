"""`hexarena openings komi`: a sequential search for the komi at which the first seat scores one
half, in self-play games of one engine (results/komi.py fits and chooses; each round is a
tournament of the engine against itself in `WORK/round-NN-komi-K`, resumed when it is there).

The komi reaches the game one of two ways (:func:`komi_lines`):

* by the opening: in a variant with a komi pie (`komi=K`, then `swap|keep`), each game opens with
  a line that leads to the komi pie, then ``komi=K keep`` (the first seat's side offers K and the
  other keeps its colour). Where the komi pie opens the game the line is empty; where it follows
  other actions (a dual pie), the lines are an openings file's (each cut before its komi offer)
  or drawn at random (:func:`drawn_prefixes`). A round plays every line as a game
  pair at least.
* by the `komi` command, in a variant whose start position takes the komi setting (a variant
  without a komi pie: docs/openings.md names them per game).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from hexarena.engine.game import GameState
from hexarena.openings_play import Board, scores, seat_to_move, selfplay, selfplay_config
from hexarena.results.komi import KomiFit, fit, next_komi

Line = tuple[str, ...]
#: A komi pie is looked for within this many actions of the start (a dual pie takes 3 or 4).
PIE_PLIES = 6
OFFER = ("komi=0", "keep")


@dataclass(frozen=True)
class Search:
    board: Board
    engine: str
    start: int = 0
    step: int = 2
    batch: int = 8                  # games per round (in pairs; at least a pair per line)
    rounds: int = 8
    random_plies: int = 0
    seed: int = 0
    concurrency: int = 1
    #: The lines each game opens with before ``komi=K keep``; empty: the komi by the `komi` command.
    prefixes: tuple[Line, ...] = ()


def _offers_komi(state: GameState) -> bool:
    """True when `komi=0` then `keep` can be played from `state`."""
    from hexarena.referee.game.openings import OpeningError, replay
    try:
        replay(state, OFFER)
        return True
    except OpeningError:
        return False


def _takes_komi_command(board: Board) -> bool:
    """True when the komi setting changes the variant's start (the `komi` command reaches the game)."""
    return replace(board, komi=0).start().position() != replace(board, komi=1).start().position()


def _draw(start: GameState, rng: random.Random) -> Line | None:
    """One random line from `start` to a komi pie: `keep` where the rules take it, otherwise the
    random player's action (never a swap); None when no komi pie comes within PIE_PLIES actions."""
    from hexarena.engine.actions import Resign, Swap
    from hexarena.referee.game.openings import OpeningError, replay
    state = start
    line: Line = ()
    for _ in range(PIE_PLIES):
        if _offers_komi(state):
            return line
        try:
            token, state = "keep", replay(state, ("keep",))[1]
        except OpeningError:
            action = state.random_action(rng)
            for _ in range(100):
                if not isinstance(action, (Swap, Resign)):
                    break
                action = state.random_action(rng)
            else:
                return None
            token, state = state.format(action), state.play(action)
            if state.outcome() is not None:
                return None
        line += (token,)
    return line if _offers_komi(state) else None


def drawn_prefixes(board: Board, count: int, seed: int) -> list[Line]:
    """Up to `count` seeded random lines from the start to the komi pie (:func:`_draw`), distinct
    under the hexagon's symmetries; empty when the variant has no komi pie within PIE_PLIES actions.
    Random setup stones can leave a line lopsided (docs/tournament.md, "Openings": a setup
    pair that one placement joins); an openings file of judged lines avoids them."""
    from hexarena.referee.game.book import canonical_key
    start, rng = board.start(), random.Random(seed)
    seen: set[str] = set()
    out: list[Line] = []
    for _ in range(20 * count):
        line = _draw(start, rng)
        if line is None:
            return out
        key = canonical_key(start, line)
        if key not in seen:
            seen.add(key)
            out.append(line)
            if len(out) == count or not line:
                break
    return out


def file_prefixes(board: Board, source: str) -> list[Line]:
    """The distinct lines of an openings file (or ``book:NAME``), each cut before its `komi=` offer;
    OpeningError naming the file and line when a line does not lead to the komi pie."""
    from hexarena.referee.game.book import book_group
    from hexarena.referee.game.openings import OpeningError, book_path, read_file, replay
    from hexarena.referee.tournament.schedule import group_name
    path = book_path(source[len("book:"):]) if source.startswith("book:") else Path(source)
    out: list[Line] = []
    try:
        rows = read_file(path)
    except OSError as exc:
        raise OpeningError(f"{source}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        number = exc.object[:exc.start].count(b"\n") + 1
        raise OpeningError(f"{source} line {number}: not UTF-8 text ({exc.reason})") from None
    named, wanted = book_group(path), group_name(*board.group)
    if named is not None and named != wanted:
        raise OpeningError(f"{source} is a book of {named}, not of {wanted} (a book's lines are for one game, "
                           f"size and variant)")
    for number, text in rows:
        tokens = text.split()
        cut = next((i for i, t in enumerate(tokens) if t.lower().startswith("komi=")), len(tokens))
        try:
            line, state = replay(board.start(), tokens[:cut])
        except OpeningError as exc:
            raise OpeningError(f"{source} line {number}: {exc}") from None
        if not _offers_komi(state):
            raise OpeningError(f"{source} line {number}: {' '.join(line) or 'the start'} does not lead to the "
                               f"komi pie (komi=K, then keep)")
        if line not in out:
            out.append(line)
    if not out:
        raise OpeningError(f"{source}: no opening in it")
    return out


def komi_lines(board: Board, openings: str | None = None, draw: int = 8, seed: int = 0) -> list[Line]:
    """The lines each game opens with before ``komi=K keep`` (Search.prefixes): `openings`' lines
    (an openings file or ``book:NAME``) when given; ``[()]`` when the komi pie opens the game; ``[]``
    when the komi goes by the `komi` command; otherwise `draw` lines drawn to the komi pie.
    ValueError naming the game and variant when it has no komi; OpeningError for a bad file."""
    if openings is not None:
        return file_prefixes(board, openings)
    if _offers_komi(board.start()):
        return [()]
    if _takes_komi_command(board):
        return []
    drawn = drawn_prefixes(board, draw, seed)
    if not drawn:
        raise ValueError(f"{board.game} {board.variant!r} has no komi (neither a `komi` setting nor a komi pie)")
    return drawn


def top_komi(board: Board) -> int:
    """The largest komi: the number of sites."""
    return board.start().board.site_count


def per_line(search: Search) -> int:
    """Games a round plays from each line: the batch shared among the lines, a game pair at least."""
    lines = max(1, len(search.prefixes))
    return max(2, 2 * round(search.batch / lines / 2))


class SearchMismatch(Exception):
    """The work folder holds rounds of a search with other parameters."""


SEARCH_FILE = "search.json"         # what the rounds in WORK were played with


def claim(search: Search, work: Path) -> None:
    """Record in `work` the parameters its rounds are played with, or check that a resumed search
    plays them the same way (only --rounds and -j may change); SearchMismatch naming the options
    that differ otherwise."""
    import json

    from hexarena.results.record.journal import write_atomic
    b = search.board
    wanted = {"--game": b.game, "--size": b.size, "--variant": b.variant, "--engine": search.engine,
              "--seed": search.seed, "--start": search.start, "--step": search.step, "--batch": search.batch,
              "--random-plies": search.random_plies,
              "--openings/--draw": [" ".join(p) for p in search.prefixes]}
    path = work / SEARCH_FILE
    if not path.exists():
        write_atomic(path, json.dumps(wanted) + "\n")
        return
    try:
        held = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        held = {}
    held = held if isinstance(held, dict) else {}
    changed = [f"{key}: saved {held.get(key)!r}, now {value!r}" if key != "--openings/--draw"
               else f"{key}: other lines" for key, value in wanted.items() if held.get(key) != value]
    if changed:
        raise SearchMismatch(f"{work} holds the rounds of a search with other parameters ({'; '.join(changed)}): "
                             f"give another --work, or the same parameters")


def run_search(search: Search, work: Path, tick: Callable[[], None], say: Callable[[str], None]
               ) -> tuple[dict[int, tuple[int, float]], KomiFit | None]:
    """Play the rounds (or resume them from `work`): per komi (games, first seat's points), and the fit.
    SearchMismatch when `work` holds a search with other parameters (:func:`claim`)."""
    import trio
    claim(search, work)
    top = top_komi(search.board)
    results: dict[int, tuple[int, float]] = {}
    for r in range(search.rounds):
        k = next_komi(results, search.start, search.step, top)
        board, lines = _round(search, k)
        config = selfplay_config(search.engine, board, lines, per_line(search), search.seed + r,
                                 search.random_plies)
        folder = work / f"round-{r + 1:02d}-komi-{k}"
        trio.run(selfplay, config, folder, search.concurrency, tick)
        games, points = _offering_seat_points(search, scores(folder))
        before = results.get(k, (0, 0.0))
        results[k] = (before[0] + games, before[1] + points)
        say(f"round {r + 1}: komi {k}: first seat {points:g} of {games} games")
    return results, fit(results)


def _offering_seat_points(search: Search, found: dict[Line, tuple[int, float]]) -> tuple[int, float]:
    """Games and the points of the seat that offers (or, by the command, gives) the komi: the first
    seat, except after a line in which the seats exchanged colours before the komi pie."""
    start = search.board.start()
    second = [p for p in search.prefixes if offering_seat(start, p) == 2]
    games, points = 0, 0.0
    for line, (g, p) in found.items():
        games += g
        points += g - p if any(line[:len(q)] == q for q in second) else p
    return games, points


def offering_seat(start: GameState, prefix: Line) -> int:
    """1 when the first seat (the player of the game's first action) offers the komi after
    `prefix`, 2 when the second seat does (the colours were exchanged in it)."""
    return seat_to_move(start, prefix)


def _round(search: Search, k: int) -> tuple[Board, Sequence[Line]]:
    """The board and opening lines of a round at komi `k`."""
    if search.prefixes:
        return search.board, [(*p, f"komi={k}", "keep") for p in search.prefixes]
    return replace(search.board, komi=k), [()]
