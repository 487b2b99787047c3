"""The app of `hexarena serve DIR...` and `hexarena tournament --serve`: the folders' index,
their pages (:mod:`.views`) and one :class:`~.watch.FolderWatch` task per folder."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from starlette.routing import BaseRoute
from starlette.types import ASGIApp

from .app import build_app
from .folders import folders_of, index_routes
from .views import folder_routes
from .watch import FolderWatch


def watch_app(paths: Sequence[Path], token: str, host: str = "127.0.0.1",
              routes: Sequence[BaseRoute] = ()) -> ASGIApp:
    """The guarded app showing the tournament folders `paths` (more `routes` beside them)."""
    folders = folders_of(list(paths))
    watches = {f.key: FolderWatch(f.path) for f in folders}
    return build_app([*index_routes(folders), *folder_routes(folders, watches), *routes], token, host=host,
                     tasks=[w.run for w in watches.values()])
