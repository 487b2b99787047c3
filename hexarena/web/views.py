"""The pages of `hexarena serve`: a folder's standings, games in flight and finished games
(``/t/KEY/``), its event stream (``/t/KEY/events``: the first event holds the newest page of
finished games), older finished games by page (``/t/KEY/finished?before=SLOT``, JSON), a game (``/t/KEY/game/ID``, live or
finished, in the report's replay viewer, with a link to its analysis board, :mod:`.game_studies`),
and the empty boards (``/board/GAME-SIZE.svg``).

Pages are shells filled by their scripts (hexarena/web/static) from JSON: the folder page
from its event stream's first event (a snapshot), the game page from a JSON island of the
report's shape (:func:`hexarena.results.page.html_report.game_entry`); engine strings are
only ever set as text.
"""
from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import quote

import trio
from starlette.requests import Request
from markupsafe import Markup
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from hexarena.engine import registry
from hexarena.engine.errors import RulesError
from hexarena.engine.geometry import MAX_SIZE, MIN_SIZE
from hexarena.engine.numbers import whole
from hexarena.results.page.board_svg import board_template
from hexarena.results.page.html_report import VIEWER_SCRIPTS, game_entry
from hexarena.results.page.replay_cache import RecordFieldError, record_file, replay_file
from hexarena.results.record.journal import parse_line

from .app import json_island, render
from .offload import off_loop
from .folders import Folder
from .watch import FolderWatch, sse

#: Seconds between two comments on an idle event stream (a closed page is noticed then).
KEEPALIVE = 15.0


def not_found(what: str) -> Response:
    return PlainTextResponse(f"404 Not Found: {what}\n", status_code=404)


def folder_routes(folders: list[Folder], watches: dict[str, FolderWatch]) -> list[BaseRoute]:
    """The routes of the folders' pages; `watches` maps each folder's key to its watch."""

    def watch_of(request: Request) -> tuple[Folder, FolderWatch] | None:
        key = request.path_params["key"]
        folder = next((f for f in folders if f.key == key), None)
        return None if folder is None else (folder, watches[key])

    async def folder_page(request: Request) -> Response:
        found = watch_of(request)
        if found is None:
            return not_found("no such folder")
        folder, _ = found
        return render("folder.html.j2", title=folder.path.resolve().name, key=folder.key, path=str(folder.path))

    async def events(request: Request) -> Response:
        found = watch_of(request)
        if found is None:
            return not_found("no such folder")
        watch = found[1]
        game = request.query_params.get("game")
        subscriber, receive = watch.hub.subscribe(game)
        first = first_events(watch, game)

        async def stream() -> AsyncIterator[bytes]:
            try:
                for message in first:
                    yield message
                while True:
                    with trio.move_on_after(KEEPALIVE) as idle:
                        batch = [await receive.receive()]
                    if idle.cancelled_caught:
                        yield b": idle\n\n"
                        continue
                    while True:                       # what one poll published goes out as one write
                        try:
                            batch.append(receive.receive_nowait())
                        except trio.WouldBlock:
                            break
                    yield b"".join(batch)
            except (trio.EndOfChannel, trio.ClosedResourceError):
                return                                # dropped as too slow: the browser reconnects
            finally:
                watch.hub.leave(subscriber)
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    async def game_page(request: Request) -> Response:
        found = watch_of(request)
        if found is None:
            return not_found("no such folder")
        folder, watch = found
        game_id = request.path_params["game"]
        entry = await off_loop(game_data, watch, game_id)
        if entry is None:
            return not_found(f"no game {game_id} in {folder.key}")
        live = entry.get("r") == "*"
        row = await off_loop(watch.summary, game_id)
        analysable = live or (row is not None and bool(row.sgf))
        key = str(entry.get("bd", ""))
        drawn = board_of(key)
        svg = "" if drawn is None else Markup(board_template(*drawn))
        return render("game.html.j2", title=f"{game_id}", key=folder.key, folder=folder.path.resolve().name,
                      game_id=game_id, live=live, data=json_island({"games": [entry]}),
                      analyse=f"/t/{folder.key}/analyse/{quote(game_id, safe='/')}" if analysable else "",
                      board=key, board_svg=svg, scripts=VIEWER_SCRIPTS)

    async def game_json(request: Request) -> Response:
        found = watch_of(request)
        if found is None:
            return not_found("no such folder")
        entry = await off_loop(game_data, found[1], request.path_params["game"])
        return not_found("no such game") if entry is None else JSONResponse(entry)

    async def finished_page(request: Request) -> Response:
        found = watch_of(request)
        if found is None:
            return not_found("no such folder")
        try:
            before = whole(request.query_params.get("before", ""), "before", digits=12)
        except RulesError:
            return PlainTextResponse("400 Bad Request: before must be a game's slot (a whole number)\n",
                                     status_code=400)
        return JSONResponse(await off_loop(found[1].page, before))

    async def board(request: Request) -> Response:
        drawn = board_of(request.path_params["board"])
        if drawn is None:
            return not_found("no such board")
        return Response(board_template(*drawn, standalone=False), media_type="image/svg+xml")

    return [Route("/t/{key}/", folder_page, name="folder"), Route("/t/{key}/events", events, name="events"),
            Route("/t/{key}/game/{game:path}", game_page, name="game"),
            Route("/t/{key}/data/{game:path}", game_json, name="game-data"),
            Route("/t/{key}/finished", finished_page, name="finished"),
            Route("/board/{board}.svg", board, name="board")]


def board_of(key: str) -> tuple[str, int] | None:
    """The game and size of a board's key ``GAME-SIZE`` (`spelde-5`), or None when it names no
    board: a game not played here, a size not in ASCII digits (``²``, thousands of digits) or
    outside MIN_SIZE..MAX_SIZE."""
    game, _, size = key.rpartition("-")
    try:
        n = whole(size, "size", digits=2)
    except RulesError:
        return None
    return (game, n) if game in registry.playable() and MIN_SIZE <= n <= MAX_SIZE else None


def first_events(watch: FolderWatch, game: str | None) -> list[bytes]:
    """What a page hears when it connects: the folder's snapshot, or the game's state."""
    if game is None:
        return [sse("snapshot", watch.snapshot())]
    live = watch.game(game)
    if live is not None:
        return [sse("live", live.view()), sse("entry", live.entry())]
    return [sse("finished", {"id": game})] if game in watch.lines else []


def game_data(watch: FolderWatch, game_id: str) -> dict | None:
    """The viewer's data of a game: from its journal line and SGF record once it is journaled,
    else from its live file while it is in flight (None when the folder has no such game)."""
    line = watch.record_line(game_id)
    if line is None:
        live = watch.game(game_id)
        return None if live is None else live.entry()
    try:
        record = parse_line(line)
    except (ValueError, TypeError) as exc:
        return {"id": game_id, "err": f"journal line unreadable: {exc}"}
    replayed = None
    if record.sgf:
        try:
            replayed = replay_file(record_file(watch.path, record.sgf)[0])
        except (RecordFieldError, OSError) as exc:
            replayed = {"err": str(exc)}
    return game_entry(record, replayed)
