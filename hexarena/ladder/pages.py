"""The ladder's public pages: read-only, no token, every answer small at any pool size.

* ``/``: the pools, the address bridges connect to;
* ``/pool/NAME``: standings (rating, 95% interval, games, provisional), games in flight on live
  boards (drawn from the pool's live files off the event loop: :mod:`.live_boards`), finished games newest first, :data:`PAGE` a page
  (``?page=N``);
* ``/pool/NAME/standings.json``: the standings as JSON (the same numbers as ``hexarena ratings
  DIR/NAME --pooled --anchor ANCHOR=0``);
* ``/pool/NAME/player/PLAYER``: a player's identities (engine name and version) and games;
* ``/pool/NAME/game/ID.sgf``: a finished game's record.

Only GET and HEAD routes exist, so nothing here changes the server's state. Every answer carries
the web server's security headers (hexarena/web/app.py: CSP without inline scripts).
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hexarena.web.app import SECURITY_HEADERS, base_routes
from hexarena.web.offload import off_loop

from .live_boards import LiveBoards


if TYPE_CHECKING:
    from .rounds import Ladder

PAGE = 50            # finished games a page
BOARDS = 12          # live boards drawn on a pool's page (the rest listed)


_env = jinja2.Environment(loader=jinja2.ChoiceLoader([jinja2.PackageLoader("hexarena.ladder", "templates"),
                                                      jinja2.PackageLoader("hexarena.web", "templates")]),
                          autoescape=True)


def _html(template: str, status: int = 200, **context) -> HTMLResponse:
    return HTMLResponse(_env.get_template(template).render(**context), status_code=status)


def build_app(ladder: Ladder) -> ASGIApp:
    """The pages (the bridges' endpoint is served beside them: :mod:`.sockets`)."""

    live: dict[str, LiveBoards] = {}

    def boards_of(pool) -> LiveBoards:
        spec = pool.spec
        if spec.name not in live:
            live[spec.name] = LiveBoards(pool.out, spec.game, spec.size, spec.variant, spec.komi)
        return live[spec.name]

    def pool_of(request: Request):
        pool = ladder.pools.get(request.path_params["name"])
        if pool is None:
            raise _NotFound(f"no pool {request.path_params['name']!r}")
        return pool

    async def index(request: Request) -> Response:
        ws = ladder.ws_url
        return _html("ladder_index.html.j2", title="hexarena ladder", pools=list(ladder.pools.values()), ws=ws,
                     connected=len(ladder.hub.links))

    async def pool_page(request: Request) -> Response:
        pool = pool_of(request)
        try:
            page = max(0, int(request.query_params.get("page", "0")))
        except ValueError:
            page = 0
        end = max(0, len(pool.finished) - page * PAGE)
        newest = pool.finished[max(0, end - PAGE):end][::-1]
        flight = sorted(pool.in_flight.items())
        shown = flight[:BOARDS]
        drawn = await off_loop(boards_of(pool).draw, [gid for gid, _ in shown])
        boards = [(gid, players, drawn[gid]) for gid, players in shown]
        return _html("ladder_pool.html.j2", title=f"pool {pool.spec.name}", pool=pool, standings=pool.standings,
                     boards=boards, more_flight=flight[BOARDS:], games=newest, page=page,
                     pages=(len(pool.finished) + PAGE - 1) // PAGE, provisional=ladder.config.provisional)

    async def standings(request: Request) -> Response:
        pool = pool_of(request)
        return JSONResponse({"pool": pool.spec.name, "anchor": pool.anchor,
                             "provisional": ladder.config.provisional,
                             "standings": [s.__dict__ for s in pool.standings]})

    async def player(request: Request) -> Response:
        pool = pool_of(request)
        name = request.path_params["player"]
        places = pool.games_of.get(name, [])
        games = [pool.finished[i] for i in places[-500:]]
        identities = pool.identities_of.get(name, {})
        standing = next((s for s in pool.standings if s.name == name), None)
        if not games and standing is None:
            raise _NotFound(f"no player {name!r} in pool {pool.spec.name}")
        return _html("ladder_player.html.j2", title=f"{name} in {pool.spec.name}", pool=pool, name=name,
                     standing=standing, identities=identities, games=games[::-1], total=len(places))

    async def sgf(request: Request) -> Response:
        pool = pool_of(request)
        game = request.path_params["game"]
        summary = pool.by_id.get(game)
        if summary is None or summary.void:
            raise _NotFound(f"no finished game {game!r}")
        try:
            text = (pool.out / "games" / f"{game}.sgf").read_text(encoding="utf-8")
        except OSError:
            raise _NotFound(f"no record of {game!r}") from None
        return PlainTextResponse(text, media_type="application/x-go-sgf")

    routes = [Route("/", index), Route("/pool/{name}", pool_page), Route("/pool/{name}/standings.json", standings),
              Route("/pool/{name}/player/{player}", player), Route("/pool/{name}/game/{game}.sgf", sgf),
              *base_routes()]
    app = Starlette(routes=routes, exception_handlers={_NotFound: _not_found})
    bounds = ladder.config.bounds
    return _secured(_rate_bound(app, bounds.pages_per_second, bounds.pages_burst))


class _NotFound(Exception):
    pass


async def _not_found(request: Request, exc: Exception) -> Response:
    return PlainTextResponse(f"404 Not Found: {exc}\n", status_code=404)


def _rate_bound(app: ASGIApp, per_second: float, burst: int) -> ASGIApp:
    """`app` answering at most `per_second` requests a second in all, over a burst of `burst`;
    past them ``429 Too Many Requests`` (Retry-After: 1) at once. The pages are public and share
    the event loop that reads the engines' answers: the bound keeps what pages take of it bounded
    whoever asks (a proxy in front makes every client one address, so the bound is global)."""
    bucket = {"tokens": float(burst), "at": time.monotonic()}

    async def bounded_app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            now = time.monotonic()
            tokens = min(float(burst), bucket["tokens"] + (now - bucket["at"]) * per_second)
            bucket["at"] = now
            if tokens < 1:
                bucket["tokens"] = tokens
                await PlainTextResponse("429 Too Many Requests: the pages answer a bounded rate; try again\n",
                                        status_code=429, headers={"retry-after": "1"})(scope, receive, send)
                return
            bucket["tokens"] = tokens - 1
        await app(scope, receive, send)
    return bounded_app


def _secured(app: ASGIApp) -> ASGIApp:
    """`app` with the web server's security headers on every HTTP answer."""
    async def secured_app(scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                message = {**message, "headers": headers + SECURITY_HEADERS}
            await send(message)
        await app(scope, receive, send_with_headers if scope["type"] == "http" else send)
    return secured_app
