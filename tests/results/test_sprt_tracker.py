"""The SPRT of a running match: pairs counted as records arrive, the stop rule, DIR/sprt.json."""
from __future__ import annotations

import json
import random
from dataclasses import replace

from hexarena.results.record.game import GameRecord
from hexarena.results.page.report_sections import sprt_state
from hexarena.results.sprt import SprtSettings, evaluate, pairs
from hexarena.results.sprt_tracker import SprtTracker


def won(gid: str, first: str, second: str, winner: str, pair: int) -> GameRecord:
    return GameRecord(id=gid, game="spelde", size=4, variant="pie", first=first, second=second, black=first,
                      white=second, winner=winner, result="B+" if winner == first else "W+",
                      termination="no-moves", plies=9, pair=pair)


def test_a_tracker_reports_each_completed_pair_and_stops_at_a_decision(tmp_path):
    settings = SprtSettings(elo0=0, elo1=400, model="logistic")
    tracker = SprtTracker(settings, "new", "old", [], out=tmp_path)
    assert json.loads((tmp_path / "sprt.json").read_text())["decision"] == "undecided"
    lines = []
    for k in range(40):
        lines.append(tracker.add(won(f"g/{2 * k:04d}", "new", "old", "new", k)))
        assert lines[-1] is None                       # half a pair
        lines.append(tracker.add(won(f"g/{2 * k + 1:04d}", "old", "new", "new", k)))
        if tracker.should_stop():
            break
    assert tracker.state.verdict == "H1" and lines[-1].startswith("LLR ")
    assert tracker.games() == 2 * sum(tracker.state.counts)
    saved = dict(sprt_state(tmp_path))
    assert saved["decision"] == "H1 accepted" and saved["test"] == "new against old"
    assert saved["LLR"] == settings.line(tracker.state.llr)
    assert "H1 accepted" in tracker.finish()


def test_a_decision_stays_when_the_pairs_in_flight_then_move_the_llr_back(tmp_path):
    # 12 won pairs cross H1's bound (LLR 2.96 >= 2.94); a pair lost after it, one that was in
    # flight when the bound was crossed, takes the LLR back under it: the test stays decided,
    # and so does a resume's tracker, from sprt.json
    settings = SprtSettings(elo0=0, elo1=100, model="logistic")
    records = []
    tracker = SprtTracker(settings, "new", "old", [], out=tmp_path)
    for k in range(12):
        for record in (won(f"g/{2 * k:04d}", "new", "old", "new", k), won(f"g/{2 * k + 1:04d}", "old", "new", "new", k)):
            records.append(record)
            tracker.add(record)
    assert tracker.state.verdict == "H1" and tracker.should_stop()
    for record in (won("g/0024", "new", "old", "old", 12), won("g/0025", "old", "new", "old", 12)):
        records.append(record)
        tracker.add(record)
    assert tracker.state.verdict is None and tracker.should_stop()
    assert tracker.decision().startswith("H1 accepted at pair 12; the pairs in flight then, finished since, "
                                         "leave the LLR at 2.6"), tracker.decision()
    assert tracker.finish().endswith(tracker.decision())
    again = SprtTracker(settings, "new", "old", records, out=tmp_path)
    assert again.should_stop() and again.decided == ("H1", 12)
    other = SprtTracker(SprtSettings(elo0=0, elo1=50, model="logistic"), "new", "old", records, out=tmp_path)
    assert other.decided is None                        # another test: sprt.json's decision is not its


def test_a_finished_schedule_without_a_decision_says_so(tmp_path):
    tracker = SprtTracker(SprtSettings(elo0=0, elo1=5), "new", "old",
                          [won("g/0000", "new", "old", "new", 0), won("g/0001", "old", "new", "old", 0)], out=tmp_path)
    assert tracker.state.counts == [0, 0, 1, 0, 0] and not tracker.should_stop()
    assert tracker.finish().endswith("no decision (schedule finished)")
    assert json.loads((tmp_path / "sprt.json").read_text())["decision"] == "no decision (schedule finished)"


def test_a_tracker_keeps_counts_and_open_pairs_only_and_agrees_with_the_journal_s_pairs():
    rng = random.Random(7)
    records = []
    for k in range(300):
        a, b = rng.choice([("new", "old"), ("old", "new"), ("new", "third")])
        for seat, (first, second) in enumerate([(a, b), (b, a)]):
            gid = f"g/{2 * k + seat:04d}"
            winner = rng.choice([first, second, None])
            if rng.random() < 0.1:
                records.append(replace(won(gid, first, second, first, k), winner=None, result="Void",
                                       termination="void"))
            if seat == 0 or rng.random() < 0.9:        # some pairs stay half played
                records.append(replace(won(gid, first, second, first, k), winner=winner,
                                       pair=None if k % 5 == 0 else k))
    rng.shuffle(records)
    schedule = {f"g/{2 * k + s:04d}": ("spelde", 4, "pie", k) for k in range(0, 300, 5) for s in (0, 1)}
    settings = SprtSettings(elo0=0, elo1=5)
    tracker = SprtTracker(settings, "new", "old", records[:100], schedule)
    for r in records[100:]:
        tracker.add(r)
    expected = evaluate(settings, pairs(records, "new", "old", schedule))
    assert tracker.state == expected and sum(expected.counts) > 100
    assert tracker.games() == sum(not r.void for r in records)
    done = {r.id for r in records if not r.void and {r.first, r.second} == {"new", "old"}}
    halves = {k for k in range(300) if len({f"g/{2 * k:04d}", f"g/{2 * k + 1:04d}"} & done) == 1}
    assert set(tracker.waiting) == {("spelde", 4, "pie", k) for k in halves}       # nothing else is kept
