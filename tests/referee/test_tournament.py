"""The runner: real games between built-in players, journal and SGF, resume after cancellation."""
from __future__ import annotations

import gc
import io
import json
from collections import Counter
from dataclasses import replace
from functools import partial

import pytest
import trio
from sgfmill import sgf

from hexarena.referee.console.live import PlainView, Progress
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.schedule import schedule
from hexarena.referee.tournament.run import CONFIG_NAME, RunOutcome, TournamentError, load_saved, prepare, run
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import read_journal
from tests.support.fakes import alive, fake_argv, pids_in
from tests.support.tournament import mem_launcher as _mem_launcher, spelde_config


def test_a_real_match_between_built_in_players_writes_journal_and_sgf(tmp_path):
    cfg = spelde_config(games_per_pair=2)
    outcome = trio.run(partial(run, cfg, tmp_path, concurrency=2))
    assert outcome == RunOutcome(pending=2, played=2, void=0, stopped=None)   # counts: the games are in the journal
    records = read_journal(tmp_path)
    assert sorted(r.id for r in records) == ["spelde-5-pie/0000", "spelde-5-pie/0001"]
    for r in records:
        assert not r.void and r.winner in ("random", "greedy") and r.termination == "no-moves"
        assert {r.black, r.white} == {"random", "greedy"}
        game = sgf.Sgf_game.from_bytes((tmp_path / r.sgf).read_bytes())
        root = game.get_root()
        assert root.get("RE") == r.result and root.get("PB") == r.black and root.get("PW") == r.white
        assert root.get_raw("GM") == b"1003" and root.get("SZ") == 5
        assert len(game.get_main_sequence()) == r.plies + 1
    assert not list((tmp_path / "logs").rglob("*.log"))               # the players write no stderr: no log
    assert {r.first for r in records} == {"random", "greedy"}          # seats alternate
    assert json.loads((tmp_path / CONFIG_NAME).read_text()) == C.to_dict(cfg)
    pending, journaled = prepare(cfg, tmp_path, resume=True)             # a resume's start: summaries only
    assert pending == [] and journaled == [r.summary() for r in records] and records[0].tokens


def test_cancelling_a_run_loses_no_game_and_counts_none_twice(tmp_path):
    cfg = spelde_config(4, a=["x"], b=["y"], c=["z"])            # 3 pairings x 4 = 12 games
    launcher = partial(_mem_launcher, plan={})
    total = len(schedule(cfg))

    async def interrupted():
        with trio.CancelScope() as scope:
            seen = []

            def on_record(r):
                seen.append(r)
                if len(seen) == 5:
                    scope.cancel()
            await run(cfg, tmp_path, concurrency=3, launcher=launcher, on_record=on_record)
        return seen
    first = trio.run(interrupted)
    journaled = read_journal(tmp_path)
    assert len(first) == 5 and journaled == first          # what was reported is exactly what is journaled
    with pytest.raises(TournamentError, match="--resume"):
        trio.run(partial(run, cfg, tmp_path, launcher=launcher))
    outcome = trio.run(partial(run, cfg, tmp_path, concurrency=2, resume=True, launcher=launcher))
    ids = Counter(r.id for r in read_journal(tmp_path))
    assert set(ids) == {g.id for g in schedule(cfg)} and set(ids.values()) == {1}
    assert (outcome.pending, outcome.played, outcome.counted) == (total - 5, total - 5, total - 5)
    again = trio.run(partial(run, cfg, tmp_path, resume=True, launcher=launcher))     # nothing left to do
    assert again == RunOutcome(pending=0) and len(read_journal(tmp_path)) == total


def test_void_games_are_journaled_and_replayed_on_resume(tmp_path):
    cfg = spelde_config(2, good=fake_argv("good"), flaky=fake_argv("crash-start"))
    assert trio.run(partial(run, cfg, tmp_path, concurrency=2)) == RunOutcome(pending=2, played=2, void=2)
    first = read_journal(tmp_path)
    assert [r.result for r in first] == ["Void", "Void"]
    assert all(r.faulty == "flaky" and r.sgf is None and "see logs/" in r.reason for r in first)
    pids = [p for log in (tmp_path / "logs").rglob("*.log") for p in pids_in(log)]
    assert pids and not any(alive(p) for p in pids)
    pending, _ = prepare(cfg, tmp_path, resume=True)
    assert len(pending) == 2                                   # void games are still to play
    # the engine is fixed (same name, same command: a launcher that now works)
    launcher = partial(_mem_launcher, plan={})
    assert trio.run(partial(run, cfg, tmp_path, resume=True, launcher=launcher)).counted == 2
    records = read_journal(tmp_path)
    assert [r.void for r in records] == [True, True, False, False]
    assert Counter(r.id for r in records if not r.void) == Counter({g.id: 1 for g in schedule(cfg)})


def test_resume_refuses_a_different_config_and_reads_the_saved_one(tmp_path):
    cfg = spelde_config(2, a=["x"], b=["y"])
    trio.run(partial(run, cfg, tmp_path, launcher=partial(_mem_launcher, plan={})))
    assert load_saved(tmp_path) == cfg
    with pytest.raises(TournamentError, match=r"games_per_pair: saved 2, now 1 \(it may only grow\)"):
        prepare(replace(cfg, games_per_pair=1), tmp_path, resume=True)
    with pytest.raises(TournamentError, match=r"engines.b: saved \{'cmd': \['y'\]\}, now \{'cmd': \['w'\]\}"):
        prepare(spelde_config(2, a=["x"], b=["w"]), tmp_path, resume=True)
    with pytest.raises(TournamentError, match="holds no tournament"):
        load_saved(tmp_path / "elsewhere")


def test_a_torn_journal_line_is_reported_and_its_game_replayed(tmp_path):
    cfg = spelde_config(1, a=["x"], b=["y"])
    launcher = partial(_mem_launcher, plan={})
    trio.run(partial(run, cfg, tmp_path, launcher=launcher))
    journal = tmp_path / "journal.jsonl"
    journal.write_text(journal.read_text()[:-30])             # killed in the middle of a write
    warnings = []
    outcome = trio.run(partial(run, cfg, tmp_path, resume=True, launcher=launcher, warn=warnings.append))
    assert len(warnings) == 1 and "torn" in warnings[0]
    assert [r.id for r in read_journal(tmp_path, errors=[])] == ["spelde-5-pie/0000"]
    assert outcome == RunOutcome(pending=1, played=1)


def test_a_fault_in_a_tournament_game_is_that_game_s_result_only(tmp_path):
    plan = {"slowpoke": {"think": lambda k: 50.0}}
    cfg = spelde_config(2, slowpoke=["x"], quick=["y"])

    async def main():
        return await run(cfg, tmp_path, concurrency=2, launcher=partial(_mem_launcher, plan=plan))
    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    records = read_journal(tmp_path)
    assert len(records) == 2
    assert all(r.winner == "quick" and r.termination == "time" and r.faulty == "slowpoke" for r in records)
    assert all(r.result in ("B+T", "W+T") for r in records)
    assert isinstance(records[0], GameRecord)


def test_a_run_keeps_no_record_of_a_finished_game(tmp_path):
    """The journal is the record: while the run reports its 12th game, the records alive are
    those of the games at hand, as many as while it reported its 3rd (the live view fed too).
    A record kept a game would be past the bound from the 6th game on (each count scans the
    whole heap: a dozen games are enough)."""
    cfg = spelde_config(2, a=["x"], b=["y"], c=["z"], d=["w"])         # 6 pairings x 2 = 12 games
    alive: list[int] = []

    def records() -> int:
        gc.collect()
        return sum(isinstance(o, GameRecord) for o in gc.get_objects())
    before = records()          # records other test modules keep (module constants of the suite)

    def on_record(record):
        alive.append(records() - before)
    view = PlainView(Progress(), io.StringIO())
    outcome = trio.run(partial(run, cfg, tmp_path, concurrency=2, launcher=partial(_mem_launcher, plan={}),
                               on_record=on_record, observer=view))
    assert outcome == RunOutcome(pending=12, played=12) and len(alive) == 12
    assert max(alive) <= 2 * 2 + 1, alive                # the writer's, and at most two a slot


def test_the_outcome_says_why_a_run_left_games_unstarted(tmp_path):
    cfg = spelde_config(2, a=["x"], b=["y"])
    launcher = partial(_mem_launcher, plan={})
    decided = trio.run(partial(run, cfg, tmp_path / "sprt", launcher=launcher, should_stop=lambda: True))
    assert decided == RunOutcome(pending=2, stopped="should_stop") and read_journal(tmp_path / "sprt") == []

    async def stopped_at_once():
        stop = trio.Event()
        stop.set()
        return await run(cfg, tmp_path / "stop", launcher=launcher, stop=stop)
    assert trio.run(stopped_at_once) == RunOutcome(pending=2, stopped="stop")
