"""The tournament folders a server shows: their keys in addresses and the index page."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from .app import render


@dataclass(frozen=True)
class Folder:
    """A folder given to `hexarena serve`: `key` names it in addresses (``/t/KEY/``)."""

    key: str
    path: Path


def folders_of(paths: list[Path]) -> list[Folder]:
    """Each folder with a key from its name (letters, digits, `.`, `_`, `-`), made unique with a number."""
    out: list[Folder] = []
    seen: set[str] = set()
    for path in paths:
        base = re.sub(r"[^A-Za-z0-9._-]+", "-", path.resolve().name).strip("-.") or "folder"
        key, n = base, 1
        while key in seen:
            n += 1
            key = f"{base}-{n}"
        seen.add(key)
        out.append(Folder(key, path))
    return out


def index_routes(folders: list[Folder]) -> list[BaseRoute]:
    """``/``: the list of folders; with one folder, that folder's page (a redirect to it)."""
    async def index(request: Request) -> Response:
        if len(folders) == 1:
            return RedirectResponse(f"/t/{folders[0].key}/", status_code=303)
        shown = [{"key": f.key, "name": f.path.resolve().name, "path": str(f.path)} for f in folders]
        return render("index.html.j2", title="hexarena serve", folders=shown)
    return [Route("/", index, name="index")]
