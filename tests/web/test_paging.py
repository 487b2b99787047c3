"""A folder of many finished games in `hexarena serve`: the first message carries only the newest
page of finished games and a count; `/t/KEY/finished?before=SLOT` walks every game once, newest
first; the watch keeps no record per game."""
from __future__ import annotations

import json
import time


from hexarena.web.watch import PAGE, READ_BYTES, FolderWatch, sse

from tests.support.folders import tiny_journal
from tests.support.web import first_event, start_server

GAMES = 20_000


def walk(ask, first: dict) -> list[str]:
    """Every finished game's id, from the first message's page then each older page."""
    seen = [r["id"] for r in first["finished"]]
    before = first["before"]
    while before is not None:
        page = ask(before)
        assert 0 < len(page["finished"]) <= PAGE and page["count"] == GAMES
        seen += [r["id"] for r in page["finished"]]
        before = page["before"]
    return seen


def test_the_first_message_holds_one_page_and_the_pages_walk_every_game_once(tmp_path):
    order = tiny_journal(tmp_path, GAMES)
    assert (tmp_path / "journal.jsonl").stat().st_size > 2 * READ_BYTES      # read over several reads
    watch = FolderWatch(tmp_path)
    assert watch.poll()
    snapshot = watch.snapshot()
    assert len(sse("snapshot", snapshot)) < 100_000
    assert snapshot["finished_count"] == GAMES and len(snapshot["finished"]) == PAGE
    assert snapshot["finished"][0]["id"] == order[-1] and snapshot["finished"][0]["termination"] == "resign"
    assert walk(watch.page, snapshot) == order[::-1]
    assert len(watch.rows) == GAMES and not hasattr(watch, "records")


def test_the_server_pages_finished_games_behind_its_guard(tmp_path):
    order = tiny_journal(tmp_path, GAMES)
    server = start_server(["serve", str(tmp_path)])
    try:
        key = tmp_path.name
        for _ in range(600):                                # until the server has read the journal
            event = first_event(server.port, server.token, f"/t/{key}/events")
            assert event.startswith(b"event: snapshot\n") and len(event) < 100_000
            snapshot = json.loads(event.split(b"data: ", 1)[1])
            if snapshot["finished_count"] == GAMES:
                break
            time.sleep(0.1)

        def ask(before: int) -> dict:
            answer = server.request(f"/t/{key}/finished?before={before}")
            assert answer.status == 200 and answer.headers["content-type"] == "application/json", answer
            return json.loads(answer.body)
        assert walk(ask, snapshot) == order[::-1]
        assert server.request(f"/t/{key}/finished?before=0", cookie=False).status == 403
        for bad in ("", "?before=-1", "?before=x", "?before=" + "9" * 20, "?before=%C2%B2", "?before=%D9%A3"):
            assert server.request(f"/t/{key}/finished{bad}").status == 400, bad
        assert server.request("/t/nowhere/finished?before=1").status == 404
    finally:
        server.stop()
