"""The report's analysis data of a record (results/page/analysis_data.py): Black's side, seats across a
swap, and a journal's odd values left out rather than trusted."""
from __future__ import annotations

from hexarena.results.page.analysis_data import PV_SHOWN, analysis_data
from hexarena.results.record.game import GameRecord
from hexarena.results.record.moves import moves_of_lists

COMMON = dict(id="g", game="spelde", size=4, variant="pie", first="a", second="b", black="b", white="a",
              winner="a", result="W+", termination="no-moves", plies=3)


def record(actions: list[str], colours: str, analysis: list) -> GameRecord:
    return GameRecord(**COMMON, moves=moves_of_lists(actions, colours=colours, analysis=analysis))


def test_winrates_turn_to_blacks_side_and_seats_follow_a_swap():
    # a (seat 0) plays e5 as Black; b swaps (moving as White, it then holds Black); a plays d4 as White
    data = analysis_data(record(["e5", "swap", "d4"], "BWW", [
        [{"line": "info winrate 0.8 pv e5 swap", "winrate": 0.8, "pv": ["e5", "swap"]}],
        [{"line": "info winrate 0.7 depth 2", "winrate": 0.7, "depth": 2}],
        [{"line": "info winrate 0.25 visits 9", "winrate": 0.25, "visits": 9}]]))
    assert data is not None
    assert data["seat"] == "010" and data["c"] == "BWW"
    rows = data["rows"]
    assert (rows[0]["w"], rows[0]["b"], rows[0]["pv"]) == (0.8, 0.8, ["e5", "swap"])
    assert (rows[1]["w"], rows[1]["b"], rows[1]["l"]) == (0.7, 0.7, ["winrate 0.7 depth 2"])   # b holds Black
    assert (rows[2]["w"], rows[2]["b"]) == (0.25, 0.75)                                     # a holds White


def test_the_first_line_with_a_value_counts_and_unknown_keys_are_text():
    data = analysis_data(record(["e5", "d4", "c3"], "BWB", [
        [{"line": "info visits 5 note <b>", "visits": 5, "other": {"note": "<b>"}},
         {"line": "info winrate 0.6 pv e5", "winrate": 0.6, "pv": ["e5"]},
         {"line": "info winrate 0.1 pv e5 d4", "winrate": 0.1, "pv": ["e5", "d4"]}],
        None,
        [{"line": "info pv " + " ".join(["c3"] * 20), "pv": ["c3"] + ["d4"] * 19}]]))
    first, none, long = data["rows"]
    assert (first["w"], first["pv"]) == (0.6, ["e5"])
    assert first["l"] == ["visits 5 note <b>", "winrate 0.6", "winrate 0.1"]
    assert none is None
    assert len(long["pv"]) == PV_SHOWN and long["more"] == 20 - PV_SHOWN and "w" not in long


def test_odd_journal_values_are_left_out_and_games_without_analysis_have_none():
    odd = analysis_data(record(["e5", "d4", "c3"], "BWB", [
        [{"line": "x", "winrate": "0.5", "pv": "e5", "visits": True}],
        [{"line": "y", "winrate": 1.5, "pv": [1, 2]}],
        [{"line": "z", "winrate": 0.5}]]))
    assert odd["rows"][:2] == [None, None] and odd["rows"][2]["b"] == 0.5
    assert analysis_data(record(["e5", "d4", "c3"], "BWB", [[], None, []])) is None
    assert analysis_data(record(["e5", "d4", "c3"], "BWB", None)) is None
    assert analysis_data(record(["e5", "d4"], "BW", [[{"line": "z", "winrate": 0.5}]])) is None   # lengths differ
