"""The pool page's boards of games in flight: drawn from the live files in a worker thread, each
game's position kept between requests (a refresh plays only the lines added since), and never
on the event loop that stamps the engines' answers."""
from __future__ import annotations

import json
import random
import time
import urllib.request
from functools import partial
from pathlib import Path

import trio
from hypercorn.config import Config
from hypercorn.trio import serve as hypercorn_serve

from hexarena.engine import registry
from hexarena.ladder.config import loads
from hexarena.ladder.live_boards import LiveBoards
from hexarena.ladder.pages import build_app
from hexarena.ladder.rounds import Ladder
from hexarena.referee.tournament.live_files import live_path
from hexarena.results.page.board_svg import board_svg
from tests.support.ladder import pool_toml
from tests.support.loop_lag import LoopLag


def _random_game(game: str, size: int, plies: int, seed: int) -> tuple[list[str], list]:
    """Tokens of a random game (at most `plies`) and the states after each of them."""
    info = registry.get(game)
    state, rng = info.new_game(info.variant(size, []), 0), random.Random(seed)
    tokens, states = [], []
    while len(tokens) < plies and state.outcome() is None:
        action = state.random_action(rng)
        tokens.append(state.format(action))
        state = state.play(action)
        states.append((state, action))
    return tokens, states


def _lines(game_id: str, tokens: list[str]) -> list[str]:
    head = json.dumps({"live": 1, "id": game_id}) + "\n"
    return [head] + [json.dumps({"ply": i + 1, "c": "B", "a": t}) + "\n" for i, t in enumerate(tokens)]


def test_a_board_follows_its_live_file_line_by_line_and_through_a_torn_line(tmp_path: Path) -> None:
    tokens, states = _random_game("spelde", 5, 60, seed=3)
    path = live_path(tmp_path, "g1")
    path.parent.mkdir(parents=True)
    lines = _lines("g1", tokens)
    boards = LiveBoards(tmp_path, "spelde", 5, "", None)
    assert boards.draw(["g1"]) == {"g1": (0, "")}          # no file yet
    written = ""
    for cut in (1, 2, 7, 8, 30, len(lines)):
        written = "".join(lines[:cut])
        torn = lines[cut][:9] if cut < len(lines) else ""   # a line the writer has not finished
        path.write_text(written + torn)
        plies, svg = boards.draw(["g1"])["g1"]
        assert plies == cut - 1
        fresh = LiveBoards(tmp_path, "spelde", 5, "", None).draw(["g1"])["g1"]
        assert (plies, svg) == fresh                        # kept and advanced = replayed afresh
        if plies:
            state, last = states[plies - 1]
            assert svg == board_svg(state.to_position(), last)


def test_a_line_the_rules_refuse_stops_the_board_where_it_was(tmp_path: Path) -> None:
    tokens, _ = _random_game("spelde", 5, 10, seed=5)
    path = live_path(tmp_path, "g")
    path.parent.mkdir(parents=True)
    lines = _lines("g", tokens[:4]) + [json.dumps({"a": "zz99"}) + "\n"] + _lines("g", tokens[4:])[1:]
    path.write_text("".join(lines))
    boards = LiveBoards(tmp_path, "spelde", 5, "", None)
    assert boards.draw(["g"])["g"][0] == 4
    assert boards.draw(["g", "other"])["g"][0] == 4
    assert set(boards.draw(["other"])) == {"other"}        # a game no longer in flight is forgotten


def test_the_pool_page_draws_long_games_off_the_event_loop(tmp_path: Path) -> None:
    """Twelve Vaxandis 13 games of a few thousand plies in flight: the first request replays them
    all (0.3 s or more here), yet the loop that would stamp engines' answers waits only ms."""
    config = loads(pool_toml(anchors=("random", "greedy")).replace('game = "spelde"', 'game = "vaxandis"')
                   .replace("size = 4", "size = 13"))
    ladder = Ladder(config, tmp_path / "data", lambda _: None)
    pool = ladder.pools["p"]
    tokens, _ = _random_game("vaxandis", 13, 4000, seed=11)
    for n in range(12):
        game_id = f"p-{n:03d}"
        path = live_path(pool.out, game_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(_lines(game_id, tokens)))
        pool.in_flight[game_id] = ("a", "b")

    def get(port: int) -> tuple[int, float, bytes]:
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/pool/p", timeout=120) as answer:
            return answer.status, time.perf_counter() - t0, answer.read()

    async def main() -> tuple[list, float]:
        lag = LoopLag()
        config = Config()
        config.bind = ["127.0.0.1:0"]
        config.accesslog = None
        async with trio.open_nursery() as nursery:
            binds = await nursery.start(partial(hypercorn_serve, build_app(ladder), config))
            port = int(binds[0].rpartition(":")[2])
            nursery.start_soon(lag.beat)
            answers = [await trio.to_thread.run_sync(get, port) for _ in range(2)]
            nursery.cancel_scope.cancel()
        return answers, lag.worst

    try:
        answers, lag = trio.run(main)
    finally:
        ladder.close()
    (s1, first, page1), (s2, second, page2) = answers
    assert s1 == s2 == 200 and page1 == page2
    assert page1.count(b"<svg") >= 12 and f"{len(tokens)}".encode() in page1
    assert first > 0.2, first                # longer than the lag allowed: on the loop, it would show
    assert lag < max(0.15, first / 3), (lag, first)
    assert second < first / 2, (first, second)   # the second request plays nothing again
