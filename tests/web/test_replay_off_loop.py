"""The analysis board's requests replay games in a worker thread: a long replay does not hold
the server's event loop (which, under `tournament --serve`, reads the engines' answers).
A real server on 127.0.0.1 inside one trio run, beside a task that measures the loop's lag."""
from __future__ import annotations

import http.client
import json
import random
import time

import trio

from hexarena.engine.games.vaxandis import PYTHON_RULES
from hexarena.web.analysis_board import MAX_BODY, Study, analysis_routes
from hexarena.web.app import build_app
from hexarena.web.server import serve
from tests.support.loop_lag import LoopLag


def _long_game(seconds: float) -> tuple[Study, list[str], float]:
    """A Vaxandis 13 study of a random game (its ply cap not applied) whose replay takes at least
    `seconds` here, within what a request's body may hold; the tokens, and how long one replay
    took. The Python rules (the slower ones, core or not): with the core's, a fast machine
    needs more actions than a body holds."""
    start = PYTHON_RULES.new_game(PYTHON_RULES.variant(13, []), 0)
    rng, state, tokens, replay = random.Random(4), start, [], 0.0
    study = Study("long", start, 0, tokens)
    while replay < seconds and state.outcome() is None and 11 * len(tokens) < MAX_BODY - 60_000:
        for _ in range(2000):
            if state.outcome() is not None:
                break
            action = state.random_action(rng)
            tokens.append(state.format(action))
            state = state.play(action)
        t0 = time.perf_counter()
        study.state(tokens)
        replay = time.perf_counter() - t0
    return study, tokens, replay


def test_a_long_replay_does_not_hold_the_event_loop() -> None:
    study, tokens, replay = _long_game(0.5)
    token = "t" * 32
    body = json.dumps({"tokens": tokens}).encode()

    def post(port: int) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request("POST", "/analyse/position", body=body, headers={
                "Host": f"127.0.0.1:{port}", "Cookie": f"hexarena-{port}={token}",
                "Origin": f"http://127.0.0.1:{port}", "content-type": "application/json"})
            return connection.getresponse().status
        finally:
            connection.close()

    async def main() -> tuple[list[int], float]:
        lag = LoopLag()
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, build_app(analysis_routes(study), token))
            nursery.start_soon(lag.beat)
            statuses = [await trio.to_thread.run_sync(post, port) for _ in range(3)]
            nursery.cancel_scope.cancel()
        return statuses, lag.worst

    statuses, lag = trio.run(main)
    assert statuses == [200, 200, 200]
    # A replay on the loop would hold it for the whole replay (`replay`, ~0.5-1 s here);
    # in a worker thread the loop waits at most for the interpreter's switch interval, a few ms.
    assert lag < max(0.15, replay / 3), (lag, replay)
    assert replay > 0.3, replay             # the replay is long enough for the check to mean something
