"""Each game of `hexarena serve DIR` on the analysis board: the studies made from a folder's real
files (a finished game's record, a game in flight at its plies so far), at most KEPT of them
kept; over HTTP, the game page's link, the board's requests under the game's address, the
server's engine asked there, the token and the Origin check."""
from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from hexarena.results.page.replay import replay_record
from hexarena.results.record.journal import read_journal
from hexarena.web.folders import folders_of
from hexarena.web.game_studies import Studies, analyse_path
from hexarena.web.watch import FolderWatch
from tests.support.folders import build_folder
from tests.support.web import Server, start_server

pytestmark = pytest.mark.slow
LIVE_ID = "spelde-4/0099"


def live_game(folder: Path, tokens: list[str]) -> None:
    """A game in flight as the referee writes it (live/<id>.jsonl): header, one line per action."""
    lines = [{"live": 1, "id": LIVE_ID, "game": "spelde", "size": 4, "variant": "pie", "first": "a", "second": "b",
              "opening": [], "clocks": [{"control": "move", "move": 1.0}] * 2, "at": 1.0}]
    colours = "BWWB"                        # c3; swap (the players exchange colours); white moves again
    lines += [{"ply": n, "c": colours[n - 1], "a": t, "at": 1.0 + n} for n, t in enumerate(tokens, 1)]
    path = folder / "live" / "spelde-4" / "0099.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_studies_come_from_the_files_and_at_most_kept_are_kept(tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, games=5, cap=12)
    live_game(folder, ["c3", "swap", "d5"])
    records = read_journal(folder / "journal.jsonl")
    [where] = folders_of([folder])
    watch = FolderWatch(folder)
    watch.poll()
    studies = Studies([where], {where.key: watch}, None, kept=2)
    for record in records:
        study = studies.study(where.key, record.id)
        assert not isinstance(study, str), study
        assert study.main == record.tokens and study.state(study.main).position() is not None
        assert study.base == analyse_path(where.key, record.id)
        assert len(studies) <= 2
    live = studies.study(where.key, LIVE_ID)
    assert not isinstance(live, str) and live.main == ["c3", "swap", "d5"] and len(studies) == 2
    assert live.position(live.main)["stones"] == {"c3": "b", "d5": "w"}
    live_game(folder, ["c3", "swap", "d5", "b2"])         # one more action: a page opened now sees it
    watch.poll()
    assert studies.study(where.key, LIVE_ID).main == ["c3", "swap", "d5"]             # its requests: the same
    assert studies.study(where.key, LIVE_ID, fresh=True).main == ["c3", "swap", "d5", "b2"]
    assert studies.study(where.key, "no/such") == f"no game no/such in {where.key}"
    assert studies.study("elsewhere", records[0].id) == "no such folder"
    again = studies.study(where.key, records[0].id)        # dropped long ago: made again
    assert not isinstance(again, str) and again.main == records[0].tokens and len(studies) == 2


def post(server: Server, path: str, body: dict, origin: str | None = None) -> tuple[int, dict | str]:
    answer = server.request(path, "POST", {"Origin": origin or f"http://127.0.0.1:{server.port}",
                                           "content-type": "application/json"}, body=json.dumps(body).encode())
    try:
        return answer.status, json.loads(answer.body)
    except json.JSONDecodeError:
        return answer.status, answer.body


def test_a_game_page_links_its_analysis_board_which_asks_the_servers_engine(tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, games=2, cap=12)
    live_game(folder, ["c3", "swap", "d5"])
    record = read_journal(folder / "journal.jsonl")[0]
    server = start_server(["serve", str(folder), "--engine", "mcts:100"])
    try:
        base = analyse_path("t", record.id)
        page = server.request(f"/t/t/game/{record.id}")
        assert page.status == 200 and f'id="analyse" href="{base}"' in page.body
        board = server.request(base)
        assert board.status == 200 and json.dumps(record.tokens, separators=(",", ":")) in board.body
        assert f'"base":"{base}"' in board.body and '"engine":"mcts-100"' in board.body
        assert server.request(base, cookie=False).status == 403
        status, pos = post(server, base + "/position", {"tokens": record.tokens[:2]})
        state = replay_record((folder / record.sgf).read_text(encoding="utf-8")).states[2]
        stacks = state.to_position().stacks
        assert status == 200 and pos["ply"] == 2
        assert pos["stones"] == {state.board.name(b): c.value + (str(h) if h > 1 else "") for b, (c, h) in stacks.items()}
        status, refused = post(server, base + "/position", {"tokens": []}, origin="http://evil.example")
        assert status == 403
        live = analyse_path("t", LIVE_ID)
        assert 'id="analyse"' in server.request(f"/t/t/game/{LIVE_ID}").body
        status, advice = post(server, live + "/ask", {"tokens": ["c3", "swap", "d5"]})
        assert status == 200 and advice["engine"] == "mcts-100" and advice["info"], advice
        assert advice["info"][-1]["pv"][0] == advice["action"]
        assert server.request("/t/t/analyse/no/such").status == 404
        status, _ = post(server, "/t/t/analyse/no/such/position", {"tokens": []})
        assert status == 404
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err, err


def test_without_an_engine_the_board_steps_and_asking_is_refused(tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, games=1, cap=6)
    record = read_journal(folder / "journal.jsonl")[0]
    server = start_server(["serve", str(folder)])
    try:
        base = analyse_path("t", record.id)
        assert '"engine":null' in server.request(base).body
        status, pos = post(server, base + "/position", {"tokens": record.tokens})
        assert status == 200 and pos["ply"] == len(record.tokens)
        status, answer = post(server, base + "/ask", {"tokens": []})
        assert status == 409 and "--engine" in answer["refused"]
    finally:
        server.stop(signal.SIGKILL)
