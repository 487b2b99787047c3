"""The folder watch: a real tournament's live files and journal read while it runs, each live
board the rules' position; bad, torn and replaced live files; the event fan-out."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from hexarena.engine import registry
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament import live_files
from hexarena.referee.tournament.live_files import live_path
from hexarena.referee.tournament.run import run
from hexarena.results.record.journal import read_journal
from hexarena.web.live_game import LiveGame
from hexarena.web.watch import BACKLOG, FolderWatch, Hub, standings_of_rows


def rules_board(game: str, size: int, variant: str, tokens: list[str]) -> str:
    """The stones after `tokens` as the rules give them, in the watch's notation."""
    info = registry.get(game)
    state = info.new_game(info.variant(size, variant.split()))
    for token in tokens:
        state = state.play(state.parse(token))
    board, stacks = state.board, info.stacks
    return " ".join(board.name(bit) + colour.value + (str(h) if stacks and h > 1 else "")
                    for bit, (colour, h) in sorted(state.to_position().stacks.items()))


class Polling:
    """An observer that polls the watch after every action and keeps what it showed."""

    def __init__(self, watch: FolderWatch):
        self.watch = watch
        self.shown: dict[str, list[dict]] = {}

    def plan(self, pending, records) -> None:
        pass

    def started(self, game) -> None:
        pass

    def ply(self, game_id: str, plies: int) -> None:
        self.watch.poll()
        view = next(g.view() for g in self.watch.in_flight() if g.id == game_id)
        self.shown.setdefault(game_id, []).append(view)

    def finished(self, record) -> None:
        pass


def test_the_watch_shows_each_game_in_flight_as_the_rules_place_it(tmp_path, monkeypatch):
    monkeypatch.setattr(live_files, "EVERY", 0)         # each line at once: the watch is polled after each action
    out = tmp_path / "t"
    specs = (C.EngineSpec("mcts", C.player_cmd("mcts:20")), C.EngineSpec("greedy", C.player_cmd("greedy")))
    config = C.TournamentConfig(specs, (C.GameSpec("vaxandis", (3,), ("",)), C.GameSpec("spelde", (4,), ("pie",)),
                                        C.GameSpec("marbanta", (3,), ("",))),
                                games_per_pair=1, limits=C.Limits(move=10, start=20))
    watch = FolderWatch(out)
    hub_events: list[bytes] = []
    _, receive = watch.hub.subscribe()
    polling = Polling(watch)
    trio.run(lambda: run(config, out, concurrency=2, observer=polling))
    watch.poll()
    records = {r.id: r for r in read_journal(out / "journal.jsonl")}
    assert len(records) == 3 and set(polling.shown) == set(records)
    for game_id, views in polling.shown.items():
        record = records[game_id]
        assert [v["ply"] for v in views] == list(range(1, record.plies + 1))
        for view in views:
            assert view["stones"] == rules_board(record.game, record.size, record.variant,
                                                 record.tokens[: view["ply"]])
            assert view["last_token"] == record.tokens[view["ply"] - 1] and view["error"] is None
        assert any(v["info"] for v in views)            # the built-in players analyse (genmove_analyze)
    assert watch.in_flight() == [] and [g for g in watch.order if g is not None] == list(records)
    while True:
        try:
            hub_events.append(receive.receive_nowait())
        except trio.WouldBlock:
            break
    kinds = [e.split(b"\n", 1)[0] for e in hub_events]
    assert kinds.count(b"event: finished") == 3 and kinds.count(b"event: gone") == 3
    plies = [json.loads(e.split(b"data: ", 1)[1])["ply"] for e in hub_events if e.startswith(b"event: live")]
    assert len([p for p in plies if p]) == sum(r.plies for r in records.values())   # and a new game at ply 0


def header(game="spelde", size=4, variant="pie", opening=()) -> str:
    return json.dumps({"live": 1, "id": f"{game}-{size}/0001", "game": game, "size": size, "variant": variant,
                       "first": "a", "second": "b", "opening": list(opening),
                       "clocks": [{"control": "move", "move": 1.0}, {"control": "move", "move": 1.0}], "at": 1.0})


def ply(n: int, colour: str, token: str, **more) -> str:
    return json.dumps({"ply": n, "c": colour, "a": token, "at": 1.0 + n, **more})


def test_a_torn_line_waits_for_its_end(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(header() + "\n" + ply(1, "B", "d4")[:10], encoding="utf-8")
    game = LiveGame(path)
    assert game.read() and game.tokens == [] and game.header is not None
    with open(path, "a", encoding="utf-8") as f:
        f.write(ply(1, "B", "d4")[10:] + "\n")
    assert game.read() and game.tokens == ["d4"] and game.view()["stones"] == "d4b"


@pytest.mark.parametrize("line, why", [
    (ply(1, "B", "z9"), "z9"),                       # not a site of the board
    (ply(2, "B", "d4"), "ply 2 after 0 actions"),
    (ply(1, "W", "d4"), "W moves but black is to move"),
    ("[1, 2]", "not a JSON object"),
    ("{not json", "line 2"),
])
def test_a_line_that_breaks_the_rules_stops_the_game_at_the_last_good_position(tmp_path, line, why):
    path = tmp_path / "g.jsonl"
    path.write_text(header() + "\n" + line + "\n" + ply(2, "W", "e5") + "\n", encoding="utf-8")
    game = LiveGame(path)
    game.read()
    assert game.tokens == [] and game.error is not None and why in game.error, game.error
    assert game.view()["stones"] == "" and game.view()["error"] == game.error


def test_the_opening_is_played_before_the_engines_actions(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(header(opening=["d4"]) + "\n" + ply(2, "W", "a1", t=0.25, l=None) + "\n", encoding="utf-8")
    game = LiveGame(path)
    game.read()
    assert game.tokens == ["d4", "a1"] and game.view()["ply"] == 2
    entry = game.entry()
    assert entry["m"] == ["d4", "a1"] and entry["x"] == [None, 0.25] and entry["r"] == "*"


def test_a_replaced_file_starts_over(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(header() + "\n" + ply(1, "B", "d4") + "\n" + ply(2, "W", "a1") + "\n", encoding="utf-8")
    game = LiveGame(path)
    game.read()
    assert game.tokens == ["d4", "a1"]
    replacement = tmp_path / "new.jsonl"
    replacement.write_text(header() + "\n" + ply(1, "B", "c3") + "\n", encoding="utf-8")
    replacement.replace(path)
    game.read()
    assert game.tokens == ["c3"]


def test_the_journal_is_read_to_its_last_whole_line_and_a_bad_line_is_a_warning(tmp_path):
    out = tmp_path / "t"
    specs = (C.EngineSpec("random", C.player_cmd("random")), C.EngineSpec("greedy", C.player_cmd("greedy")))
    config = C.TournamentConfig(specs, (C.GameSpec("spelde", (4,), ("pie",)),), games_per_pair=2,
                                limits=C.Limits(move=10, start=20))
    trio.run(lambda: run(config, out, concurrency=1))
    journal = out / "journal.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(lines[0] + b"{garbage}\n" + lines[1][:40])
    watch = FolderWatch(out)
    assert watch.poll() and [g for g in watch.order if g is not None] == ["spelde-4-pie/0000"]
    assert len(watch.warnings) == 1 and "byte" in watch.warnings[0]
    with open(journal, "ab") as f:
        f.write(lines[1][40:])
    assert watch.poll() and [g for g in watch.order if g is not None] == ["spelde-4-pie/0000", "spelde-4-pie/0001"]
    assert watch.record_line("spelde-4-pie/0001") == lines[1]
    groups = standings_of_rows(watch.rows)
    assert groups[0]["games"] == 2 and {r["player"] for r in groups[0]["ratings"]} == {"random", "greedy"}


def test_a_page_that_does_not_keep_up_is_dropped():
    hub = Hub()
    slow, slow_receive = hub.subscribe()
    quick, quick_receive = hub.subscribe()
    for n in range(BACKLOG):
        hub.publish("live", {"n": n})
        quick_receive.receive_nowait()
    assert slow in hub.subscribers
    hub.publish("live", {"n": BACKLOG})
    assert slow not in hub.subscribers and quick in hub.subscribers
    assert quick_receive.receive_nowait() == b'event: live\ndata: {"n":512}\n\n'
    for _ in range(BACKLOG):
        slow_receive.receive_nowait()
    with pytest.raises(trio.EndOfChannel):
        slow_receive.receive_nowait()


def test_a_game_pages_subscriber_hears_its_game_only():
    hub = Hub()
    folder, folder_receive = hub.subscribe()
    page, page_receive = hub.subscribe("g/1")
    assert hub.wants("g/1") and not hub.wants("g/2")
    hub.publish("entry", {"id": "g/1"}, game="g/1")
    hub.publish("live", {"id": "g/2"})
    assert page_receive.receive_nowait().startswith(b"event: entry")
    assert folder_receive.receive_nowait().startswith(b"event: live")
    with pytest.raises(trio.WouldBlock):
        page_receive.receive_nowait()


def test_an_unended_journal_line_is_read_once_until_the_journal_changes(tmp_path):
    from tests.support.folders import build_folder
    build_folder(tmp_path, 3)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    padded = json.dumps(dict(json.loads(lines[-1]), reason="x" * 5_000_000)).encode()     # 5 MB, torn below
    journal.write_bytes(b"".join(lines[:-1]) + padded[: len(padded) // 2])
    watch = FolderWatch(tmp_path)
    reads = []
    news = watch._journal_news
    watch._journal_news = lambda read: reads.append(read) or news(read)
    for _ in range(5):
        watch.poll()
        trio.run(watch.poll_in_loop)
    assert len(reads) == 1 and len(watch.lines) == 2
    with open(journal, "ab") as fh:
        fh.write(padded[len(padded) // 2:] + b"\n")
    watch.poll()
    assert len(reads) == 2 and len(watch.lines) == 3


def test_games_in_flight_of_a_folder_no_process_holds_are_shown_stopped(tmp_path, monkeypatch):
    import signal
    import subprocess
    import sys

    from hexarena.web import watch as watch_mod
    monkeypatch.setattr(watch_mod, "HOLDER_EVERY", 0.0)      # look at the lock at every poll
    path = live_path(tmp_path, "spelde-4/0001")
    path.parent.mkdir(parents=True)
    path.write_text(header() + "\n" + ply(1, "B", "d4") + "\n", encoding="utf-8")
    (tmp_path / "tournament.json").write_text("{}", encoding="utf-8")
    run = subprocess.Popen([sys.executable, "-c", "import sys, time\n"
                            "from pathlib import Path\n"
                            "from hexarena.referee.tournament.folder_lock import hold_folder\n"
                            f"with hold_folder(Path({str(tmp_path)!r})):\n"
                            "    print('held', flush=True)\n"
                            "    time.sleep(600)\n"], stdout=subprocess.PIPE, text=True)
    try:
        assert run.stdout.readline() == "held\n"
        watch = FolderWatch(tmp_path)
        _, receive = watch.hub.subscribe()
        watch.poll()
        [game] = watch.in_flight()
        assert game.view()["stopped"] is None and receive.receive_nowait().startswith(b"event: live")
    finally:
        run.send_signal(signal.SIGKILL)                 # as a killed run: its live files stay
        run.wait()
    watch.poll()
    view = game.view()
    assert view["stopped"].startswith("stopped: the run that played it ended (no process holds the folder)")
    assert f"hexarena tournament --out {tmp_path} --resume" in view["stopped"]
    event = receive.receive_nowait()
    assert event.startswith(b"event: live") and json.loads(event.split(b"data: ", 1)[1])["stopped"] == view["stopped"]
    assert watch.snapshot()["live"][0]["stopped"] == view["stopped"]
    with pytest.raises(trio.WouldBlock):                # said once, not at every poll
        watch.poll()
        receive.receive_nowait()


def test_a_live_file_that_is_no_regular_file_is_skipped_with_a_warning(tmp_path):
    """A FIFO (opening it would block the server for good) and /dev/zero (read whole, it fills the
    memory) among the live files: skipped with a warning, the good one followed. In a child process
    under a timeout and a memory limit, so a missing check fails instead of hanging."""
    import os
    import subprocess
    import sys
    live = tmp_path / "live" / "spelde-4-pie"
    live.mkdir(parents=True)
    (live / "0000.jsonl").write_text(header() + "\n" + ply(1, "B", "d4") + "\n", encoding="utf-8")
    os.mkfifo(live / "0001.jsonl")
    (live / "0002.jsonl").symlink_to("/dev/zero")
    code = ("import json, resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from hexarena.web.watch import FolderWatch\n"
            "from pathlib import Path\nwatch = FolderWatch(Path(sys.argv[1])); watch.poll()\n"
            "print(json.dumps([watch.warnings, [g.id for g in watch.in_flight()]]))\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    warnings, followed = json.loads(done.stdout)
    assert followed == ["spelde-4/0001"]
    assert warnings == [f"live file skipped: {live / '0001.jsonl'}: is not a regular file (a FIFO)",
                        f"live file skipped: {live / '0002.jsonl'}: is not a regular file (a character device)"]


def test_a_live_line_longer_than_a_read_stops_the_game_instead_of_growing(tmp_path, monkeypatch):
    from hexarena.web import live_game
    monkeypatch.setattr(live_game, "READ_BYTES", 1 << 20)
    path = tmp_path / "g.jsonl"
    path.write_bytes(header().encode() + b"\n" + b" " * (2 << 20))
    game = LiveGame(path)
    game.read()                                     # the header; the next read takes a bound's worth
    assert game.header is not None and not game.read() and game.offset < 1 << 20 and "line 2: longer than 1 MiB" in (game.error or "")
