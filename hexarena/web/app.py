"""The ASGI app of the web server: routes behind one guard, static files, templates.

:func:`build_app` takes the routes of the views (each view module makes its own list of
starlette routes) and wraps them in :class:`Guard`, which every request passes:

* the Host must be one of the server's own names (against DNS rebinding; any Host when the
  server listens beyond the loopback, `--host`);
* the token: as ``?token=T`` on the first visit (answered by a redirect to the same address
  without it, setting the cookie ``hexarena-PORT``), then the cookie, or an
  ``Authorization: Bearer T`` header (scripts); else 403;
* a state-changing request (any method but GET, HEAD, OPTIONS) also needs an ``Origin``
  header naming the server itself; else 403;
* a WebSocket's opening passes the same Host and token checks and always needs the server's own
  ``Origin`` (a browser sends any site's WebSocket to any address with the cookie: no same-origin
  rule guards it); else it is refused before it is accepted (403); other scopes (lifespan) pass;
* every answer carries :data:`SECURITY_HEADERS`: the report's Content-Security-Policy
  (no inline script, no network beyond the server itself), no framing, no referrer.

Pages are rendered with autoescaping (:func:`render`); engine-supplied strings reach scripts
only inside JSON (:func:`json_island`), which the scripts assign with ``textContent``.
"""
from __future__ import annotations

import ipaddress
import json
import secrets
from collections.abc import Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from importlib.resources import files
from typing import Any
from urllib.parse import parse_qsl, urlencode

import jinja2
import trio
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hexarena.results.page.board_svg import STYLE as BOARD_STYLE
from hexarena.results.page.html_report import VIEWER_SCRIPTS

#: The Content-Security-Policy of every answer: scripts, styles and images from the server
#: only, no inline script, connections (Server-Sent Events, fetch) to the server only.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer"),
                    (b"cross-origin-resource-policy", b"same-origin")]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

#: A background task of the app: runs from the app's start to its end (cancelled then).
Task = Callable[[], Awaitable[None]]


def new_token() -> str:
    """A fresh random token (as Jupyter's): 32 bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    """The token cookie's name: cookies do not tell ports apart, so each port has its own."""
    return f"hexarena-{port}"


def is_loopback(host: str) -> bool:
    """Whether `host` names the loopback interface only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bracketed(host: str) -> str:
    """`host` as it is written in an address: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class Guard:
    """The ASGI middleware every request passes (see the module docstring). `host`: the
    address the server listens on; when it is a loopback address, a request's Host must be a
    loopback name (or `host`) with the server's port."""

    def __init__(self, app: ASGIApp, token: str, host: str = "127.0.0.1"):
        self.app, self.token = app, token
        self.names = {*LOOPBACK_NAMES, bracketed(host)} if is_loopback(host) else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._opening(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        async with trio.open_nursery() as nursery:
            async def finishing(message: Message) -> None:
                if message["type"] == "http.response.body" and not message.get("more_body", False):
                    nursery.start_soon(_drain, receive)
                await send(message)
            await self._answer(scope, receive, finishing)
            nursery.cancel_scope.cancel()

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        port = (scope.get("server") or ("", 0))[1] or 0
        refused = self._refusal(request, port)
        if refused is not None:
            await _with_headers(PlainTextResponse(f"403 Forbidden: {refused}\n", status_code=403))(scope, receive, send)
            return
        if "token" in request.query_params and request.method in ("GET", "HEAD"):
            rest = urlencode([(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                                                             keep_blank_values=True) if k != "token"])
            response = Response(status_code=303, headers={"location": scope["path"] + ("?" + rest if rest else "")})
            response.set_cookie(cookie_name(port), self.token, httponly=True, samesite="strict", path="/")
            await _with_headers(response)(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + SECURITY_HEADERS}
            await send(message)
        await self.app(scope, receive, secured)

    async def _opening(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket's opening: refused (closed before it is accepted: 403 to the client) unless
        it passes :meth:`_refusal` as a state-changing request does."""
        port = (scope.get("server") or ("", 0))[1] or 0
        if self._refusal(HTTPConnection(scope), port, "WebSocket") is None:
            await self.app(scope, receive, send)
            return
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 1008})

    def _refusal(self, request: HTTPConnection, port: int, method: str | None = None) -> str | None:
        """Why the request (of `method`, by default the request's own) is refused, or None."""
        method = method or request.scope.get("method", "GET")
        host = request.headers.get("host", "")
        if self.names is not None and host not in {f"{name}:{port}" for name in self.names}:
            return f"unknown Host {host!r}: open the address the server printed"
        given = (request.query_params.get("token") or request.cookies.get(cookie_name(port))
                 or _bearer(request.headers.get("authorization", "")))
        if not given or not secrets.compare_digest(given.encode(), self.token.encode()):
            return "this server needs its token: open the address it printed at start (with ?token=...)"
        if method not in SAFE_METHODS:
            origin = request.headers.get("origin")
            scheme = "https" if request.url.scheme in ("https", "wss") else "http"
            if origin is None or origin != f"{scheme}://{host}":
                return f"a {method} request from another origin ({origin or 'none given'})"
        return None


def _bearer(value: str) -> str:
    kind, _, token = value.partition(" ")
    return token.strip() if kind.lower() == "bearer" else ""


def _with_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS:
        response.headers[name.decode()] = value.decode()
    return response


def asset(package: str, name: str) -> str:
    """A text file of a package's `templates/` folder (the report's script and style sheet)."""
    return files(package).joinpath("templates", name).read_text(encoding="utf-8")


#: The shared assets: the report's viewer scripts and style sheet, the board drawing's style
#: sheet (results/page/board_svg.py), served as files (the page's CSP forbids inline ones).
SHARED_ASSETS: dict[str, tuple[str, Callable[[], str]]] = {
    **{name: ("text/javascript", partial(asset, "hexarena.results.page", name)) for name in VIEWER_SCRIPTS},
    "report.css": ("text/css", partial(asset, "hexarena.results.page", "report.css")),
    "board.css": ("text/css", lambda: BOARD_STYLE),
}


async def _shared_asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in SHARED_ASSETS:
        return PlainTextResponse("404 Not Found\n", status_code=404)
    kind, text = SHARED_ASSETS[name]
    return Response(text(), media_type=kind + "; charset=utf-8")


def base_routes() -> list[BaseRoute]:
    """The routes every app has: /static/ (hexarena/web/static) and /assets/NAME (SHARED_ASSETS)."""
    return [Mount("/static", app=StaticFiles(packages=[("hexarena.web", "static")]), name="static"),
            Route("/assets/{name}", _shared_asset, name="asset")]


def build_app(routes: Sequence[BaseRoute], token: str, *, host: str = "127.0.0.1",
              tasks: Sequence[Task] = ()) -> ASGIApp:
    """The app serving `routes` (plus :func:`base_routes`) behind :class:`Guard` (`host`: the
    address it listens on); `tasks` run in a trio nursery from the app's start (the ASGI
    lifespan) to its end."""
    @asynccontextmanager
    async def lifespan(app: Starlette):
        async with trio.open_nursery() as nursery:
            for task in tasks:
                nursery.start_soon(task)
            yield
            nursery.cancel_scope.cancel()

    inner = Starlette(routes=[*routes, *base_routes()], lifespan=lifespan)
    return Guard(inner, token, host)


_ENV: jinja2.Environment | None = None


def environment() -> jinja2.Environment:
    """The templates of hexarena/web/templates, then the report's (its viewer's markup), autoescaped."""
    global _ENV
    if _ENV is None:
        loader = jinja2.ChoiceLoader([jinja2.PackageLoader("hexarena.web", "templates"),
                                      jinja2.PackageLoader("hexarena.results.page", "templates")])
        _ENV = jinja2.Environment(loader=loader, autoescape=True,
                                  undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return _ENV


def render(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """An HTML answer from a template of hexarena/web/templates."""
    return HTMLResponse(environment().get_template(template).render(**context), status_code=status_code)


def json_island(data: object) -> Markup:
    """JSON for a ``<script type="application/json">`` element: ``<``, ``>``, ``&`` and ``'``
    escaped, so no engine string can close the element."""
    text = json.dumps(data, separators=(",", ":"))
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("'", "\\u0027")):
        text = text.replace(char, code)
    return Markup(text)


async def json_body(request: Request, limit: int) -> dict:
    """A request's JSON object body of at most `limit` bytes, nested no deeper than the decoder
    goes; ValueError (json.JSONDecodeError is one) for anything else. The body is read as it
    streams in and refused as soon as it passes `limit` (a declared length past it, at once)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and (len(declared) > 18 or int(declared) > limit):
        raise ValueError("request too large")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise ValueError("request too large")
    try:
        data = json.loads(bytes(raw) or b"{}")
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


async def _drain(receive: Receive) -> None:
    """Read what is left of a request's body, dropped, until its end or the client's going.

    Run beside an answer's last part: hypercorn (0.18) queues at most ten body messages for the
    app and, once the answer ends, queues the app a disconnect; a body the app left unread (a
    refusal before or while reading it) fills that queue, and the answer's last send waited for
    room forever, so the connection was never closed (a connection, its task and 640 KB held for
    good per request, by any client)."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return
