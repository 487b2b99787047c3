"""The pages of `hexarena play`: the board, the person's clicks, the game's changes pushed.

* ``GET /``: the page (the board drawing of the report, results/page/board_svg.py; the game's
  data in a JSON island; static/play.js);
* ``GET /play/state``: the game as JSON (:meth:`PlayGame.snapshot`);
* ``GET /play/events``: the same, pushed as Server-Sent Events at every change (once the game's
  final state went out on it, :attr:`PlayGame.shown` is set: `hexarena play` then stops);
* ``GET /play/rules``: the game's rules page, as text: the file its GameInfo names
  (`rules_page`, a game ``HEXARENA_GAMES`` adds), else `docs/rules/<game>.md` where the source
  tree is installed (``pip install -e``); the page links to it when there is one;
* ``POST /play/click`` ``{"clicks": [SITE...], "site": SITE}``: the builder's next step
  (engine/building.py): the sites that may come next, the action when the clicks make one, or
  why the click is refused (HTTP 200 either way: a refused click is an answer, not an error);
* ``POST /play/action`` ``{"token": ACTION}``: the person's action, checked by the rules and
  sent to the referee; 409 with the reason when it is not the person's turn or the rules refuse
  it (then nothing changes).

Every POST passes the app's Origin check (hexarena/web/app.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from collections.abc import AsyncIterator

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from hexarena.engine import registry
from hexarena.engine.building import Refused
from hexarena.results.page.board_svg import board_template

from .app import json_body, json_island, render
from .play_game import PlayGame, Refusal

MAX_BODY = 65536
#: The source tree's rules pages, one per game id (absent from an installed wheel).
RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_page(game_id: str) -> Path | None:
    """The rules page of `game_id`: the file its GameInfo names (`rules_page`), else
    `docs/rules/<game>.md` when the source tree has it; None when neither is a file."""
    own = registry.get(game_id).rules_page
    path = Path(own) if own is not None else RULES_DIR / f"{game_id}.md"
    return path if path.is_file() else None


def step_json(game: PlayGame, clicks: list[str], site: str) -> dict:
    """The builder's answer to one click, for the page."""
    builder = game.builder()
    board = builder.board
    try:
        step = builder.click([board.parse(c) for c in clicks], board.parse(site))
    except (Refused, ValueError) as exc:
        return {"refused": str(exc)}
    return {"clicks": [board.name(c) for c in step.clicks], "roles": list(step.roles),
            "targets": board.names(step.targets), "token": None if step.action is None else builder.state.format(step.action),
            "more": step.more, "hint": step.hint, "exact": step.exact}


def play_routes(game: PlayGame) -> list[BaseRoute]:
    async def page(request: Request) -> Response:
        setup = game.setup.game
        title = f"{setup.game} {setup.size}: {setup.first} vs {setup.second}"
        return render("play.html.j2", title=title, data=json_island(game.snapshot()),
                      board=Markup(board_template(setup.game, setup.size)), game=setup.game,
                      rules=rules_page(setup.game) is not None)

    async def rules(request: Request) -> Response:
        path = rules_page(game.setup.game.game)
        if path is None:
            return PlainTextResponse("404 Not Found: no rules page (a game's GameInfo.rules_page, or the "
                                     "source tree's docs/rules/)\n", status_code=404)
        return PlainTextResponse(path.read_text(encoding="utf-8"))

    async def state(request: Request) -> Response:
        return JSONResponse(game.snapshot())

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            version = -1
            while True:
                if version == game.version:
                    await game.wait_change(version)
                version = game.version
                snapshot = game.snapshot()
                yield f"data: {json.dumps(snapshot, separators=(',', ':'))}\n\n"
                if snapshot["result"] is not None:
                    game.shown.set()
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    async def click(request: Request) -> Response:
        try:
            data = await json_body(request, MAX_BODY)
            clicks, site = data.get("clicks", []), data.get("site", "")
            if not isinstance(clicks, list) or not all(isinstance(c, str) for c in clicks) or not isinstance(site, str):
                raise ValueError("expected clicks (a list of sites) and site")
        except ValueError as exc:
            return JSONResponse({"refused": f"bad request: {exc}"}, status_code=400)
        if not game.your_turn():
            return JSONResponse({"refused": "it is not your turn" if game.record is None else "the game is over"})
        return JSONResponse(step_json(game, clicks, site))

    async def action(request: Request) -> Response:
        try:
            data = await json_body(request, MAX_BODY)
            token = data.get("token")
            if not isinstance(token, str) or not token or len(token) > 4096:
                raise ValueError("expected token, an action")
        except ValueError as exc:
            return JSONResponse({"refused": f"bad request: {exc}"}, status_code=400)
        try:
            played = game.act(token)
        except Refusal as exc:
            return JSONResponse({"refused": str(exc)}, status_code=409)
        return JSONResponse({"played": played})

    return [Route("/", page), Route("/play/state", state), Route("/play/events", events), Route("/play/rules", rules),
            Route("/play/click", click, methods=["POST"]), Route("/play/action", action, methods=["POST"])]
