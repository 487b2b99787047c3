"""Engines judging openings (`hexarena openings generate|komi`, docs/openings.md): an engine's
`genmove_analyze` winrate after a line, and self-play games as a tournament of the engine
against itself (the referee's own runner: its journal, its resume).

The first seat is the player who made the game's first action; after a `swap` in a line the
seats hold the other colours (engine/actions.py, `holders_after`).
"""
from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexarena.engine.actions import holders_after
from hexarena.engine.core import Colour
from hexarena.engine.game import GameState


@dataclass(frozen=True)
class Advisers:
    """How to start the judging engine: `new(n)` gives an unstarted Adviser (hexarena/web/adviser.py,
    built by the CLI: only its command modules import the web package) for the n-th line, and
    `failures` are the errors it raises when the engine cannot answer."""

    new: Callable[[int], Any]
    failures: tuple[type[BaseException], ...]


class NoWinrate(Exception):
    """The engine gave no winrate (it lists no `genmove_analyze`, or its info lines carry none)."""


@dataclass(frozen=True)
class Board:
    """What the openings are for: a game, its size, its variant words, the komi sent (None: none)."""

    game: str
    size: int
    variant: str = ""
    komi: int | None = None

    def start(self) -> GameState:
        from hexarena.referee.game.openings import initial
        return initial(self.game, self.size, self.variant, self.komi)

    @property
    def group(self) -> tuple[str, int, str]:
        from hexarena.engine import registry
        info = registry.get(self.game)
        return self.game, self.size, info.describe(info.variant(self.size, self.variant.split())).partition(" ")[2]


def engine_table(cmd: str) -> tuple[str, dict[str, Any]]:
    """The engine's name and its config table (a built-in player's name, or a command line)."""
    from hexarena.commands_play import engine_table as table
    return table(cmd)


def seat_to_move(start: GameState, line: Sequence[str]) -> int:
    """The seat to move after `line`: 1 for the first seat (the player of the game's first action),
    2 for the second, following each `swap` of colours in the line."""
    holders = {Colour.BLACK: 1, Colour.WHITE: 2}
    state = start
    for token in line:
        action = state.parse(token)
        holders = holders_after(holders, action)
        state = state.play(action)
    return holders[state.to_move]


def first_seat_value(start: GameState, line: Sequence[str], winrate: float) -> float:
    """The first seat's value after `line`, from the winrate of the player to move."""
    return winrate if seat_to_move(start, line) == 1 else 1.0 - winrate


async def winrates(advisers: Advisers, board: Board, lines: Sequence[tuple[str, ...]], concurrency: int,
                   done: Callable[[tuple[str, ...], float], None]) -> None:
    """Ask the engine for its `genmove_analyze` winrate after each line, a fresh process a line
    (`advisers.new(n)`: the n-th line's, web/adviser.py's Adviser), `concurrency` at once;
    `done(line, first seat's value)` as each is known. NoWinrate when the engine gives none;
    one of `advisers.failures` when it cannot answer."""
    import trio

    from hexarena.referee.game.openings import replay

    start = board.start()
    todo = iter(enumerate(lines))

    async def judge() -> None:
        for n, line in todo:
            state = replay(start, line)[1]
            adviser = advisers.new(n + 1)        # a fresh process a line: its judgement is the line's alone
            async with trio.open_nursery() as nursery:
                nursery.start_soon(adviser.run)
                answer = await adviser.ask(state, list(line), board.komi or 0)
                nursery.cancel_scope.cancel()
            adviser.log.unlink(missing_ok=True)
            rates = [i["winrate"] for i in answer["info"] if i.get("winrate") is not None]
            if answer["command"] != "genmove_analyze" or not rates:
                raise NoWinrate(f"{adviser.name} gave no winrate after {' '.join(line) or 'the start'}")
            done(line, first_seat_value(start, line, rates[0]))

    try:
        async with trio.open_nursery() as workers:
            for _ in range(concurrency):
                workers.start_soon(judge)
    except BaseExceptionGroup as group:             # the first worker's failure, as itself
        kinds: tuple[type[BaseException], ...] = (NoWinrate, *advisers.failures)
        for kind in kinds:
            found: BaseException | None = group.subgroup(kind)
            while isinstance(found, BaseExceptionGroup):
                found = found.exceptions[0]
            if found is not None:
                raise found from None
        raise


def selfplay_config(cmd: str, board: Board, lines: Sequence[tuple[str, ...]], games: int, seed: int,
                    random_plies: int = 0, move_time: float | None = None):
    """The tournament of the engine against itself: `games` games (in pairs, seats exchanged) from
    each line. ConfigError as the config's reader gives it."""
    from hexarena.referee.tournament import config as config_mod
    _name, table = engine_table(cmd)
    entry: dict[str, Any] = {"game": board.game, "size": board.size, "variant": board.variant}
    if board.komi is not None:
        entry["komi"] = board.komi
    if any(lines):
        entry["openings"] = [" ".join(line) for line in lines]
    if random_plies:
        entry["random_openings"] = random_plies
    time = {"move": move_time} if move_time is not None else {}
    data = {"seed": seed, "games_per_pair": games, "time": time, "games": [entry],
            "engines": {"a": dict(table), "b": dict(table)}}
    return config_mod.from_dict(data, "hexarena openings")


async def selfplay(config, folder: Path, concurrency: int, on_game: Callable[[], None]) -> None:
    """Play (or resume) the self-play tournament `config` in `folder`; `on_game()` after each game."""
    from hexarena.referee.tournament.run import run
    resume = (folder / "tournament.json").exists()
    await run(config, folder, concurrency=concurrency, resume=resume, on_record=lambda _r: on_game(),
              workers=0)


def scores(folder: Path) -> dict[tuple[str, ...], tuple[int, float]]:
    """Per played line of the folder's journal: (games, the first seat's points)."""
    from hexarena.results import openings as op
    from hexarena.results.record.journal import iter_journal
    stats = op.opening_stats(op.collect([iter_journal(folder / "journal.jsonl")]), "played")
    return {s.line: (s.games, s.points) for s in stats}


def work_folder(path: Path | None) -> Path:
    """`path`, created; a fresh temporary folder when None."""
    if path is None:
        return Path(tempfile.mkdtemp(prefix="hexarena-openings-"))
    path.mkdir(parents=True, exist_ok=True)
    return path
