"""The app of `hexarena serve DIR...` and `hexarena tournament --serve`: the folders' index,
their pages (:mod:`.views`), the games' analysis boards (:mod:`.game_studies`, with the
server's engine when there is one) and one :class:`~.watch.FolderWatch` task per folder."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from starlette.routing import BaseRoute
from starlette.types import ASGIApp

from .adviser import Adviser
from .app import build_app
from .folders import folders_of, index_routes
from .game_studies import Studies, game_study_routes
from .views import folder_routes
from .watch import FolderWatch


def watch_app(paths: Sequence[Path], token: str, host: str = "127.0.0.1",
              routes: Sequence[BaseRoute] = (), adviser: Adviser | None = None) -> ASGIApp:
    """The guarded app showing the tournament folders `paths` (more `routes` beside them);
    `adviser`: the engine the games' analysis boards ask (its task runs with the app)."""
    folders = folders_of(list(paths))
    watches = {f.key: FolderWatch(f.path) for f in folders}
    studies = Studies(folders, watches, adviser)
    tasks = [w.run for w in watches.values()] + ([adviser.run] if adviser is not None else [])
    return build_app([*index_routes(folders), *folder_routes(folders, watches), *game_study_routes(studies),
                      *routes], token, host=host, tasks=tasks)
