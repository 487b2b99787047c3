"""DIR/live/: the per-action lines a viewer reads while a game is in flight, written by the process
that plays the game, removed once the record is journaled, cleared when a run starts."""
from __future__ import annotations

import json
from pathlib import Path

import trio
import trio.testing

from hexarena.engine import registry
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.live_files import LIVE_DIR, LiveFile, live_path
from hexarena.referee.tournament.run import load_saved, run
from hexarena.results.record.journal import read_journal


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Snapshots:
    """An observer that reads each game's live file after every action."""

    def __init__(self, out: Path):
        self.out = out
        self.seen: dict[str, list[list[dict]]] = {}

    def plan(self, pending, records) -> None:
        pass

    def started(self, game) -> None:
        pass

    def ply(self, game_id: str, plies: int) -> None:
        self.seen.setdefault(game_id, []).append(lines_of(live_path(self.out, game_id)))

    def finished(self, record) -> None:
        assert not live_path(self.out, record.id).exists(), "the live file outlived the journaled record"


def test_the_live_file_follows_the_game_as_it_is_played_and_goes_with_the_record(tmp_path):
    out = tmp_path / "t"
    specs = (C.EngineSpec("random", C.player_cmd("random")), C.EngineSpec("greedy", C.player_cmd("greedy")))
    config = C.TournamentConfig(specs, (C.GameSpec("vaxandis", (3,), ("",)), C.GameSpec("spelde", (4,), ("pie",))),
                                games_per_pair=1, limits=C.Limits(move=10, start=20))
    snapshots = Snapshots(out)
    trio.run(lambda: run(config, out, concurrency=2, observer=snapshots))
    records = {r.id: r for r in read_journal(out / "journal.jsonl")}
    assert len(records) == 2 and set(snapshots.seen) == set(records)
    for game_id, views in snapshots.seen.items():
        record = records[game_id]
        header = views[0][0]
        assert header["live"] == 1 and header["id"] == game_id and header["game"] == record.game
        assert (header["size"], header["first"], header["second"]) == (record.size, record.first, record.second)
        assert header["clocks"][0]["control"] == "move" and header["clocks"][0]["move"] == 10
        info = registry.get(record.game)
        states = [info.new_game(info.variant(record.size, record.variant.split()))]
        for move in record.moves:
            states.append(states[-1].play(states[-1].parse(move.action)))
        for n, view in enumerate(views, 1):
            shown = [line.get("ply") for line in view[1:]]
            assert shown == list(range(1, len(shown) + 1)) and len(shown) <= n    # actions so far, flushed in order
            for line in view[1:]:
                move = record.moves[line["ply"] - 1]
                assert line["a"] == move.action and line["c"] == move.colour == states[line["ply"] - 1].to_move.letter
                assert line["t"] == move.think and line["l"] == move.left
        assert len(views) == record.plies
    assert not (out / LIVE_DIR).exists()


def test_a_run_removes_the_files_a_killed_run_left(tmp_path):
    out = tmp_path / "t"
    specs = (C.EngineSpec("random", C.player_cmd("random")), C.EngineSpec("greedy", C.player_cmd("greedy")))
    config = C.TournamentConfig(specs, (C.GameSpec("vaxandis", (3,), ("",)),), games_per_pair=1,
                                limits=C.Limits(move=10, start=20))
    trio.run(lambda: run(config, out, concurrency=1))
    stale = live_path(out, "vaxandis-3/0042")          # a game a killed run was playing
    stale.parent.mkdir(parents=True)
    stale.write_text('{"live":1,"id":"vaxandis-3/0042"}\n{"ply":1,"c":"b","a":"d4","at":1}\n', encoding="utf-8")
    seen: list[bool] = []

    class AtPlan(Snapshots):
        def plan(self, pending, records) -> None:
            seen.append(stale.exists())
    trio.run(lambda: run(load_saved(out), out, concurrency=1, resume=True, observer=AtPlan(out)))
    assert seen == [False]
    assert not (out / LIVE_DIR).exists()


def test_a_game_that_returns_no_record_leaves_no_file(tmp_path):
    header = {"id": "spelde-4/0001", "game": "spelde", "size": 4}
    try:
        with LiveFile(tmp_path, header) as live:
            assert live.path == tmp_path / "live" / "spelde-4" / "0001.jsonl" and live.path.exists()
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert not live.path.exists()
    with LiveFile(tmp_path, header) as live:
        pass
    assert lines_of(live.path)[0]["id"] == "spelde-4/0001"      # a game that returned: the writer removes it


def test_a_folder_that_cannot_be_written_stops_the_file_not_the_game(tmp_path):
    (tmp_path / "live").write_text("a file where the folder should be", encoding="utf-8")
    with LiveFile(tmp_path, {"id": "spelde-4/0001"}) as live:
        assert live.file is None
        live.close()


def test_an_action_line_is_the_json_of_its_fields_whatever_they_hold(tmp_path):
    from hexarena.results.record.moves import Move
    cases = [("e5", None, None), ("a1/b2,c3", (0.012, None), None), ('odd "token" \\ é', (1.5, 118.25),
             [{"move": "e5", "score": -0.5, "pv": ["e5", "f6"]}]), ("resign", (0.0, 0.0), []), ("x", (2, float("inf")), None)]
    header = {"id": "g/1", "game": "spelde", "size": 5}
    with LiveFile(tmp_path, header) as live:
        for plies, (token, times, info) in enumerate(cases, 1):
            think, left = times if times is not None else (None, None)
            live.ply(plies, Move(token, "W" if plies % 2 else "B", think, left, None if info is None else tuple(info)))
    written = lines_of(live_path(tmp_path, "g/1"))[1:]
    for plies, ((token, times, info), line) in enumerate(zip(cases, written), 1):
        expected = {"ply": plies, "c": "W" if plies % 2 else "B", "a": token, "at": line["at"]}
        if times is not None:
            expected["t"], expected["l"] = times
        if info is not None:
            expected["i"] = info
        assert line == expected and isinstance(line["at"], float)


def test_lines_are_flushed_within_the_interval_by_one_task_of_the_run(tmp_path):
    from hexarena.referee.tournament import live_files
    from hexarena.results.record.moves import Move

    async def main() -> list[list[int]]:
        seen = []
        with LiveFile(tmp_path, {"id": "g/1"}) as one, LiveFile(tmp_path, {"id": "g/2"}) as two:
            one.ply(1, Move("e5", "B"))
            two.ply(1, Move("a1", "B"))
            two.ply(2, Move("b2", "W"))
            await trio.sleep(live_files.EVERY * 1.5)
            seen.append([len(lines_of(one.path)), len(lines_of(two.path))])     # header + the plies
            one.ply(2, Move("d4", "W"))
            await trio.sleep(live_files.EVERY * 1.5)
            seen.append([len(lines_of(one.path)), len(lines_of(two.path))])
        await trio.sleep(live_files.EVERY * 1.5)
        assert live_files._FILES.get() is None      # no file open: the flusher ended
        with LiveFile(tmp_path, {"id": "g/3"}, every=0) as each:
            each.ply(1, Move("c3", "B"))
            seen.append([len(lines_of(each.path))])                 # every=0: at once
        assert live_files._FILES.get() is None      # it needs no flusher
        return seen

    assert trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0)) == [[2, 3], [3, 3], [2]]
