"""The analysis board (`hexarena analyse FILE.sgf|POSITION [--engine CMD]`): step through
a record (or start from a position string), branch off by playing other actions, ask an engine
about the position on screen.

The server keeps no board: the page sends the line it shows (the actions from the start) and
the rules replay it at each request.

A study's routes (:func:`study_routes`; `hexarena analyse` has one study, at ``/`` and
``/analyse``; `serve DIR` one per game, :mod:`.game_studies`), BASE being the study's base
address, which the page's script reads from its JSON island:

* ``GET`` the page: the report's board drawing; the record's actions in a JSON island;
  static/analyse.js;
* ``POST BASE/position`` ``{"tokens": [...]}``: the position after those actions (stones,
  the last action's sites, the side to move, the phase, the result when over) and what may be
  clicked there (engine/building.py);
* ``POST BASE/click`` ``{"tokens": [...], "clicks": [...], "site": SITE}``: the builder's
  next step at that position, or why the click is refused;
* ``POST BASE/ask`` ``{"tokens": [...]}``: the engine's action and analysis there
  (:mod:`.adviser`): winrate, visits, the principal variation and its sites.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import trio
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hexarena.engine import registry
from hexarena.engine.building import Builder, Refused
from hexarena.engine.errors import RulesError
from hexarena.engine.game import GameState
from hexarena.results.page.board_svg import action_sites, board_template
from hexarena.results.page.replay import Replay

from .adviser import Adviser, AdviserBusy, AdviserError
from .app import json_body, json_island, render
from .offload import off_loop

MAX_BODY = 1_000_000


@dataclass
class Study:
    """What is on the board: the start (a record's initial state, or a position string's state),
    the komi setting, the record's actions (none for a position), the engine (if any).
    `from_start`: the start is the game's initial state (an engine without `set_position` can
    then be given the position by replaying the actions). `base`: the address its page posts
    to; `crumbs`: (address, text) links above the page."""

    title: str
    start: GameState
    komi: int
    main: list[str]
    adviser: Adviser | None = None
    from_start: bool = True
    base: str = "/analyse"
    crumbs: list[tuple[str, str]] = field(default_factory=list)
    _builders: dict[tuple[str, ...], Builder] = field(default_factory=dict)

    @classmethod
    def of(cls, replay: Replay, title: str, adviser: Adviser | None, base: str = "/analyse",
           crumbs: list[tuple[str, str]] | None = None) -> Study:
        """The study of a record."""
        komi = int(replay.header.get("XK") or 0)
        return cls(title, replay.states[0], komi, list(replay.tokens), adviser, base=base, crumbs=crumbs or [])

    @classmethod
    def at(cls, position: str, title: str, adviser: Adviser | None) -> Study:
        """The study of a position string (InvalidPosition naming the defect)."""
        return cls(title, registry.from_position(position), 0, [], adviser, from_start=False)

    def state(self, tokens: list[str]) -> GameState:
        """The position after `tokens` from the start; ValueError naming the action refused."""
        state = self.start
        for ply, token in enumerate(tokens, 1):
            try:
                state = state.play(state.parse(token))
            except RulesError as exc:
                raise ValueError(f"action {ply}, {token[:40]!r}: {exc}") from None
        return state

    def builder(self, tokens: list[str]) -> Builder:
        key = tuple(tokens)
        if key not in self._builders:
            if len(self._builders) > 64:
                self._builders.clear()
            self._builders[key] = Builder(self.state(tokens))
        return self._builders[key]

    def position(self, tokens: list[str]) -> dict:
        builder = self.builder(tokens)
        state, board = builder.state, builder.board
        last = action_sites(self.state(tokens[:-1]).parse(tokens[-1])) if tokens else frozenset()
        outcome = state.outcome()
        first = builder.step(())
        return {
            "stones": {board.name(b): c.value + (str(h) if h > 1 else "") for b, (c, h) in state.to_position().stacks.items()},
            "last": board.names(sum(1 << s for s in last)), "to_move": state.to_move.value,
            "phase": state.info.key_text(state.to_position(), "phase"), "ply": len(tokens),
            "shown": "; ".join(state.info.shown(state.position_keys())),
            "result": None if outcome is None else f"{outcome.result()} ({outcome.termination.value})",
            "build": {"targets": board.names(first.targets), "words": builder.words, "komi": builder.komi,
                      "hint": first.hint},
        }


async def _body(request: Request) -> dict:
    """A request's JSON object with `tokens`, a list of strings; ValueError for anything else
    (an empty body, no `tokens`, ...)."""
    data = await json_body(request, MAX_BODY)
    tokens = data.get("tokens")
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise ValueError("tokens: expected a list of actions")
    return data


async def _give_up_when_gone(request: Request, scope: trio.CancelScope) -> None:
    """Cancel `scope` once the client of `request` (its body read) disconnects."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
    scope.cancel()


#: The study a request is about, or the answer refusing it (no such game, ...); it may replay
#: a record, so the routes call it off the event loop.
Find = Callable[[Request], Study | Response]


def analysis_routes(study: Study) -> list[BaseRoute]:
    """The routes of `hexarena analyse`: the page at ``/``, its requests under ``/analyse``."""
    return study_routes("/", study.base, lambda request: study)


def study_routes(page_path: str, base_path: str, find: Find) -> list[BaseRoute]:
    """The routes of the studies `find` gives: the page at `page_path`, its requests at
    `base_path` + ``/position``, ``/click``, ``/ask`` (each path may have parameters: `find`
    reads them)."""
    async def page(request: Request) -> Response:
        study = await off_loop(find, request)
        if isinstance(study, Response):
            return study
        game, size = study.start.info.id, study.start.variant.size
        data = {"title": study.title, "game": game, "size": size, "main": study.main, "base": study.base,
                "engine": None if study.adviser is None else study.adviser.name}
        return render("analyse.html.j2", title=study.title, data=json_island(data), crumbs=study.crumbs,
                      board=Markup(board_template(game, size)))

    async def position(request: Request) -> Response:
        study = await off_loop(find, request)
        if isinstance(study, Response):
            return study
        try:
            data = await _body(request)
            return JSONResponse(await off_loop(study.position, data["tokens"]))
        except ValueError as exc:
            return JSONResponse({"refused": str(exc)}, status_code=400)

    async def click(request: Request) -> Response:
        study = await off_loop(find, request)
        if isinstance(study, Response):
            return study
        try:
            data = await _body(request)
            builder = await off_loop(study.builder, data["tokens"])
            board = builder.board
            clicks, site = data.get("clicks", []), data.get("site", "")
            if not isinstance(clicks, list) or not all(isinstance(c, str) for c in clicks) or not isinstance(site, str):
                raise ValueError("expected clicks (a list of sites) and site")
            step = builder.click([board.parse(c) for c in clicks], board.parse(site))
        except Refused as exc:
            return JSONResponse({"refused": str(exc)})
        except ValueError as exc:
            return JSONResponse({"refused": str(exc)}, status_code=400)
        return JSONResponse({"clicks": [board.name(c) for c in step.clicks], "roles": list(step.roles),
                             "targets": board.names(step.targets), "more": step.more, "hint": step.hint,
                             "token": None if step.action is None else builder.state.format(step.action)})

    async def ask(request: Request) -> Response:
        study = await off_loop(find, request)
        if isinstance(study, Response):
            return study
        if study.adviser is None:
            return JSONResponse({"refused": "no engine: start the server with --engine CMD"}, status_code=409)
        try:
            data = await _body(request)
            state = await off_loop(study.state, data["tokens"])
        except ValueError as exc:
            return JSONResponse({"refused": str(exc)}, status_code=400)
        if state.outcome() is not None:
            return JSONResponse({"refused": "the game is over here"}, status_code=409)
        give_up = trio.CancelScope()            # cancelled when the page goes before the question's turn
        answer: dict | AdviserError
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_give_up_when_gone, request, give_up)
            try:
                answer = await study.adviser.ask(state, data["tokens"] if study.from_start else None,
                                                 study.komi, give_up)
            except AdviserError as exc:
                answer = exc
            finally:
                nursery.cancel_scope.cancel()
        if isinstance(answer, AdviserBusy):        # for now only: 503, and when to ask again
            return JSONResponse({"refused": str(answer)}, status_code=503, headers={"retry-after": "2"})
        if isinstance(answer, AdviserError):       # the engine behind the page failed
            return JSONResponse({"refused": str(answer)}, status_code=502)
        return JSONResponse(answer)

    # the requests first: a page path ending in {game:path} would take them too
    return [Route(base_path + "/position", position, methods=["POST"]),
            Route(base_path + "/click", click, methods=["POST"]), Route(base_path + "/ask", ask, methods=["POST"]),
            Route(page_path, page)]
