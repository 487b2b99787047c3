"""The report's cache entries the referee writes at each game's end: what a replay of the
game's SGF gives, read by the report instead of replaying; `hexarena report --rebuild`."""
from __future__ import annotations

import json
from functools import partial

import trio

from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.run import run
from hexarena.results.page.html_report import write_report
from hexarena.results.page.replay_cache import CACHE_NAME, FORMAT, replay_file
from hexarena.results.record.journal import read_journal
from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)
from tests.support.tournament import mem_launcher


def _entries(folder) -> dict[tuple, dict]:
    out = {}
    for line in (folder / CACHE_NAME).read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        assert entry["v"] == FORMAT
        out[tuple(entry["k"])] = entry["d"]
    return out


def _tournament(folder, plan=None, games=(("spelde", 5, "pie", ("f3",)), ("anda", 5, "", ()))):
    specs = tuple(C.GameSpec(g, (n,), (v,), openings=(" ".join(o),) if o else ()) for g, n, v, o in games)
    cfg = C.TournamentConfig((C.EngineSpec("one", ("x",)), C.EngineSpec("two", ("y",))), specs, games_per_pair=2,
                             limits=C.Limits(move=10, start=20))

    async def main():
        return await run(cfg, folder, concurrency=2, launcher=partial(mem_launcher, plan=plan or {}))
    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    return read_journal(folder)


def test_each_game_s_entry_is_what_a_replay_of_its_record_gives(tmp_path):
    records = _tournament(tmp_path)
    entries = _entries(tmp_path)
    assert len(entries) == len(records) == 4 and not any(r.void for r in records)
    assert {r.game for r in records} == {"spelde", "anda"}
    for record in records:
        path = tmp_path / str(record.sgf)
        st = path.stat()
        assert entries[(record.sgf, st.st_size, st.st_mtime_ns)] == replay_file(path)
    assert any(len(d["m"]) > 1 for d in entries.values())


def test_a_forfeited_game_has_its_entry_too(tmp_path):
    plan = {"one": {"think": lambda k: 50.0 if k > 3 else 0.0}}         # loses on time at its 4th move
    records = _tournament(tmp_path, plan, games=(("spelde", 5, "pie", ()),))
    assert all(r.termination == "time" and r.faulty == "one" for r in records)
    entries = _entries(tmp_path)
    for record in records:
        path = tmp_path / str(record.sgf)
        st = path.stat()
        assert entries[(record.sgf, st.st_size, st.st_mtime_ns)] == replay_file(path)


def test_the_report_after_a_tournament_replays_nothing_and_rebuild_writes_the_same(tmp_path):
    _tournament(tmp_path)
    before = (tmp_path / CACHE_NAME).read_text(encoding="utf-8")
    page, count = write_report(tmp_path)
    assert count == 4 and (tmp_path / CACHE_NAME).read_text(encoding="utf-8") == before    # nothing replayed
    result = invoke("report", "--rebuild", str(tmp_path))
    assert result.exit_code == 0, result.output
    rebuilt = _entries(tmp_path)
    assert len((tmp_path / CACHE_NAME).read_text(encoding="utf-8").splitlines()) == len(rebuilt) == 4
    assert rebuilt == {k: v for k, v in _entries_of(before).items()}
    assert len(read_journal(tmp_path)) == 4


def _entries_of(text: str) -> dict[tuple, dict]:
    return {tuple(e["k"]): e["d"] for e in map(json.loads, text.splitlines())}
