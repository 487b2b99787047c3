"""The analysis board of a game of `hexarena serve DIR` (``/t/KEY/analyse/ID``, linked from its
game page): the game's record, or a game in flight at the plies played so far, on the board of
:mod:`.analysis_board`, with the server's engine when it was started with `--engine CMD`.

A study is made when a page asks for it and kept for the requests of that page: the
:data:`KEPT` most recently used ones (per folder and game), so no client makes the server
hold more. A study keeps no board (each request replays its line from the start), so one
dropped meanwhile is made again by the next request. Opening the page always makes a fresh
one: a game in flight opens at its plies so far, a game finished since at its record.
"""
from __future__ import annotations

from collections import OrderedDict
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from hexarena.engine.errors import RulesError
from hexarena.results.page.replay import replay_record
from hexarena.results.page.replay_cache import RecordFieldError, record_file
from hexarena.results.record.journal import parse_line
from hexarena.results.record.sgf import SgfError

from .adviser import Adviser
from .analysis_board import Study, study_routes
from .folders import Folder
from .views import not_found
from .watch import FolderWatch

#: The studies a server keeps (the most recently used).
KEPT = 8


def analyse_path(key: str, game_id: str) -> str:
    """The address of a game's analysis board."""
    return f"/t/{key}/analyse/{quote(game_id, safe='/')}"


class Studies:
    """The studies of the games of `folders` (`watches`: each folder key's watch), at most `kept`."""

    def __init__(self, folders: list[Folder], watches: dict[str, FolderWatch], adviser: Adviser | None,
                 kept: int = KEPT):
        self.folders = {f.key: f for f in folders}
        self.watches, self.adviser, self.kept = watches, adviser, kept
        self._studies: OrderedDict[tuple[str, str], Study] = OrderedDict()

    def __len__(self) -> int:
        return len(self._studies)

    def study(self, key: str, game_id: str, fresh: bool = False) -> Study | str:
        """The study of game `game_id` of folder `key` (`fresh`: made again from the files), or
        why there is none."""
        kept = self._studies.get((key, game_id))
        if kept is not None and not fresh:
            self._studies.move_to_end((key, game_id))
            return kept
        made = self._make(key, game_id)
        if isinstance(made, Study):
            self._studies[(key, game_id)] = made
            self._studies.move_to_end((key, game_id))
            while len(self._studies) > self.kept:
                self._studies.popitem(last=False)
        return made

    def _make(self, key: str, game_id: str) -> Study | str:
        folder, watch = self.folders.get(key), self.watches.get(key)
        if folder is None or watch is None:
            return "no such folder"
        name = folder.path.resolve().name
        base = analyse_path(key, game_id)
        crumbs = [(f"/t/{key}/", name), (f"/t/{key}/game/{quote(game_id, safe='/')}", game_id), (base, "analysis")]
        title = f"analysis: {game_id}"
        line = watch.record_line(game_id)
        if line is None:
            live = watch.game(game_id)
            if live is None:
                return f"no game {game_id} in {key}"
            live.catch_up()
            header = live.header or {}
            return Study(title, live.states[0], int(header.get("komi") or 0), list(live.tokens), self.adviser,
                         base=base, crumbs=crumbs)
        try:
            record = parse_line(line)
            if not record.sgf:
                return f"{game_id} has no record of its actions"
            path = record_file(watch.path, record.sgf)[0]
            return Study.of(replay_record(path.read_text(encoding="utf-8")), title, self.adviser,
                            base=base, crumbs=crumbs)
        except (RecordFieldError, SgfError, OSError, UnicodeDecodeError, ValueError, TypeError, RulesError) as exc:
            return f"{game_id}: its record cannot be read: {exc}"


def game_study_routes(studies: Studies) -> list[BaseRoute]:
    """The routes of the games' analysis boards: the page at ``/t/KEY/analyse/ID``, its requests
    under the same address."""
    def find(request: Request) -> Study | Response:
        params = request.path_params
        found = studies.study(params["key"], params["game"], fresh=request.method in ("GET", "HEAD"))
        return not_found(found) if isinstance(found, str) else found

    return study_routes("/t/{key}/analyse/{game:path}", "/t/{key}/analyse/{game:path}", find)
