"""`hexarena openings komi`: a sequential search for the komi at which the first seat scores one
half, in self-play games of one engine (results/komi.py fits and chooses; each round is a
tournament of the engine against itself in `WORK/round-NN-komi-K`, resumed when it is there).

The komi reaches the game one of two ways: by the `komi` command (variants that take it, e.g.
Anda `nopie`, Anda-prison `corners`), or, in a variant whose first actions are a komi pie
(Anda `pie`), as the opening ``komi=K keep`` (the first seat offers K and the second keeps its
seat).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from hexarena.openings_play import Board, scores, selfplay, selfplay_config
from hexarena.results.komi import KomiFit, fit, next_komi


@dataclass(frozen=True)
class Search:
    board: Board
    engine: str
    start: int = 0
    step: int = 2
    batch: int = 8                  # games per round (in pairs)
    rounds: int = 8
    random_plies: int = 0
    seed: int = 0
    concurrency: int = 1


def komi_way(board: Board) -> str:
    """``opening`` when the variant's first actions are `komi=K` then `keep`, ``command`` when the game
    takes the `komi` command; ValueError naming the game and variant otherwise."""
    from hexarena.engine import registry
    from hexarena.referee.game.openings import OpeningError, replay
    try:
        replay(board.start(), ("komi=0", "keep"))
        return "opening"
    except OpeningError:
        pass
    if registry.get(board.game).uses_komi:
        return "command"
    raise ValueError(f"{board.game} {board.variant!r} has no komi (neither a `komi` setting nor a komi pie)")


def top_komi(board: Board) -> int:
    """The largest komi: the number of sites."""
    return board.start().board.site_count


def run_search(search: Search, work: Path, tick: Callable[[], None], say: Callable[[str], None]
               ) -> tuple[dict[int, tuple[int, float]], KomiFit | None]:
    """Play the rounds (or resume them from `work`): per komi (games, first seat's points), and the fit."""
    import trio
    way = komi_way(search.board)
    top = top_komi(search.board)
    results: dict[int, tuple[int, float]] = {}
    for r in range(search.rounds):
        k = next_komi(results, search.start, search.step, top)
        board, lines = (search.board, [("komi=%d" % k, "keep")]) if way == "opening" else \
            (replace(search.board, komi=k), [()])
        config = selfplay_config(search.engine, board, lines, search.batch, search.seed + r, search.random_plies)
        folder = work / f"round-{r + 1:02d}-komi-{k}"
        trio.run(selfplay, config, folder, search.concurrency, tick)
        games = sum(g for g, _ in scores(folder).values())
        points = sum(p for _, p in scores(folder).values())
        before = results.get(k, (0, 0.0))
        results[k] = (before[0] + games, before[1] + points)
        say(f"round {r + 1}: komi {k}: first seat {points:g} of {games} games")
    return results, fit(results)
