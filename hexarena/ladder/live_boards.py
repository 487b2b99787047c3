"""The boards of a pool's games in flight, drawn from their live files for the pool's page.

The ladder's pages are served by the process that referees its games, on the same event loop
that stamps the engines' answers; a page is public. So a board is never replayed on that loop:
:meth:`LiveBoards.draw` runs in a worker thread (:func:`hexarena.web.offload.off_loop`), and
each game's position is kept between requests, so a request reads and plays only the lines
its live file gained since the last one (at most :data:`READ_BYTES` of them a request). A
refresh of a page costs the actions played since, whatever the games' lengths.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexarena.engine import registry
from hexarena.engine.errors import RulesError
from hexarena.referee.tournament.live_files import live_path
from hexarena.results.page.board_svg import board_svg

READ_BYTES = 1 << 20     # of a live file read for one board in one request


@dataclass
class _Board:
    state: Any
    offset: int = 0            # bytes of the live file read (whole lines only)
    plies: int = 0
    last: Any = None
    stuck: bool = False        # a line the rules refused: the board stays where it was
    svg: str = ""
    drawn_at: int = -1         # plies when `svg` was drawn


class LiveBoards:
    """Each game in flight of one pool: its position so far, advanced by its live file's new lines."""

    def __init__(self, out: Path, game: str, size: int, variant: str, komi: int | None):
        self.out = out
        self._info = registry.get(game)
        self._variant = self._info.variant(size, variant.split())
        self._komi = komi or 0
        self._boards: dict[str, _Board] = {}

    def draw(self, game_ids: Iterable[str]) -> dict[str, tuple[int, str]]:
        """(plies, SVG) per game id, (0, "") when its live file cannot be read yet. Boards of
        games not named are forgotten. Call it from one thread at a time."""
        wanted = list(game_ids)
        for gone in set(self._boards) - set(wanted):
            del self._boards[gone]
        drawn = {}
        for game_id in wanted:
            board = self._boards.get(game_id)
            if board is None:
                board = self._boards[game_id] = _Board(self._info.new_game(self._variant, self._komi))
            if not self._advance(game_id, board):
                drawn[game_id] = (0, "")
                continue
            if board.drawn_at != board.plies:
                board.svg, board.drawn_at = board_svg(board.state.to_position(), board.last), board.plies
            drawn[game_id] = (board.plies, board.svg)
        return drawn

    def _advance(self, game_id: str, board: _Board) -> bool:
        """Play the live file's whole lines past `board.offset`; False when the file cannot be read."""
        try:
            with open(live_path(self.out, game_id), "rb") as f:
                f.seek(board.offset)
                chunk = f.read(READ_BYTES)
        except OSError:
            return False
        whole = chunk[:chunk.rfind(b"\n") + 1]
        lines = whole.splitlines()
        if board.offset == 0 and lines:       # the header line
            lines = lines[1:]
        board.offset += len(whole)
        for line in lines if not board.stuck else ():
            try:
                action = board.state.read(json.loads(line)["a"])[0]
                board.state = board.state.play(action)
            except (ValueError, KeyError, TypeError, RulesError):
                board.stuck = True
                break
            board.last, board.plies = action, board.plies + 1
        return True
