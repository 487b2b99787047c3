"""Tables and reports: hand-counted columns, grouping, the tournament summary."""
from __future__ import annotations

import math

import numpy as np
import pytest

from hexarena.results.rating.load import games_frame
from hexarena.results.rating.counts import aggregate
from hexarena.results.rating.ratings import fit
from hexarena.results.rating.report import build_reports, render_text, summary_table
from hexarena.results.rating.tables import RATING_COLUMNS, advantage_table, crosstable, los_table, ratings_table
from tests.support.frames import frame_of, simulate, three_player_games
from tests.support.records import record


@pytest.fixture
def three():
    counts = aggregate(frame_of(three_player_games()))
    return counts, fit(counts)


def test_ratings_table_by_hand(three):
    counts, result = three
    table = ratings_table(result, counts)
    assert list(table.columns) == list(RATING_COLUMNS)
    assert table["player"].tolist() == ["A", "B", "C"]
    assert table["rank"].tolist() == [1, 2, 3]
    a = table.iloc[0]
    # A: first 5 vs B (4-1), 9 vs C (8-1); second 2 vs B (2 draws), 3 vs C (2-1 for A)
    assert (a.games, a.wins, a.losses, a.draws) == (19, 14, 3, 2)
    assert a.score == pytest.approx(100 * 15 / 19)
    assert a.score_first == pytest.approx(100 * 12 / 14)
    assert a.score_second == pytest.approx(100 * 3 / 5)
    step = 400 * math.log10(2)
    assert a.avg_opp == pytest.approx((7 * 0.0 + 12 * -step) / 19)
    assert a.los_next == pytest.approx(result.los(0, 1))
    assert math.isnan(table.iloc[-1].los_next)
    assert table["pm95"].tolist() == pytest.approx((1.959963984540054 * result.se).tolist())
    assert not table["prior"].any()
    assert (table[["forfeit_time", "forfeit_illegal", "forfeit_crash"]] == 0).all().all()


def test_advantage_table_and_crosstable(three):
    counts, result = three
    adv = advantage_table(result, counts)
    assert adv.iloc[0][["game", "size", "games"]].tolist() == ["spelde", 5, 26]
    assert adv.iloc[0].first_score == pytest.approx(100 * (4 + 1 + 8 + 1 + 4 + 1) / 26)
    assert adv.iloc[0].advantage == pytest.approx(400 * math.log10(2))
    cross = crosstable(result, counts)
    assert cross.loc["A", "B"] == "4-1-2" and cross.loc["B", "A"] == "1-4-2"
    assert cross.loc["A", "C"] == "10-2-0" and cross.loc["C", "B"] == "2-5-0"
    assert cross.loc["A", "A"] == ""
    los = los_table(result)
    assert los.loc["A", "C"] == pytest.approx(result.los(0, 2))


def test_crosstable_without_draws_and_unplayed_pairs():
    counts = aggregate(frame_of([("a", "b", "a"), ("b", "c", "b"), ("c", "b", "b"), ("b", "a", "a")]))
    cross = crosstable(fit(counts), counts)
    assert cross.loc["a", "b"] == "2-0" and cross.loc["a", "c"] == "" and cross.loc["c", "b"] == "0-2"


def test_forfeits_are_counted_per_kind_for_the_faulty_player():
    frame = games_frame([
        record("1", "a", "b", "a", "time", "B+T", faulty="b"),
        record("2", "b", "a", "b", "illegal", "B+F", faulty="a"),
        record("3", "a", "b", "b", "malformed", "W+F", faulty="a"),
        record("4", "b", "a", "a", "crash", "W+F", faulty="b"),
        record("5", "a", "b", None, "ply-cap", "0"),
    ])
    counts = aggregate(frame)
    table = ratings_table(fit(counts), counts).set_index("player")
    assert table.loc["a", ["forfeit_time", "forfeit_illegal", "forfeit_crash"]].tolist() == [0, 2, 0]
    assert table.loc["b", ["forfeit_time", "forfeit_illegal", "forfeit_crash"]].tolist() == [1, 0, 1]


def test_reports_grouping(rng):
    frame = simulate(rng, {"a": 0.0, "b": 50.0, "c": 100.0},
                     {("anda", 5): 0.0, ("anda", 7): 30.0, ("spelde", 5): 60.0}, games=600)
    default = build_reports(frame)
    assert [r.title for r in default] == ["all games", "anda/5", "anda/7", "spelde/5"]
    assert [r.title for r in build_reports(frame, by=())] == ["all games"]
    by_game = build_reports(frame, by=("game",))
    assert [r.title for r in by_game] == ["anda", "spelde"]
    assert len(by_game[0].fit.pools) == 2                 # one advantage per (game, size) inside
    assert sum(r.games for r in by_game) == 600
    single = build_reports(frame[frame["game"] == "spelde"])
    assert [r.title for r in single] == ["all games"]     # one pool: the pooled table is that pool's
    with pytest.raises(ValueError, match="cannot group by colour"):
        build_reports(frame, by=("colour",))


def test_per_pool_fit_equals_fit_of_that_pool_alone(rng):
    frame = simulate(rng, {"a": 0.0, "b": 50.0, "c": 100.0}, {("anda", 5): 0.0, ("anda", 7): 30.0}, games=400)
    report = build_reports(frame, by=("game", "size"))[1]
    alone = fit(aggregate(frame[frame["size"] == 7]))
    np.testing.assert_allclose(report.fit.elo, alone.elo, atol=1e-9)
    assert report.fit.players == alone.players


def test_render_text_marks_prior_rows():
    frame = frame_of([("A", "B", "A"), ("B", "A", "B"), ("A", "C", "A"), ("C", "A", "A")])
    text = render_text(build_reports(frame))
    assert "note: * rests on a weak prior" in text
    assert "C lost every game" in text
    assert "*" in text.splitlines()[3]            # the row of C, ranked last, is marked


def test_summary_table_for_tiny_tournaments():
    assert "no rated games" in summary_table([])
    assert "no rated games" in summary_table([record("1", "a", "b", None, "void", "Void")])
    one = summary_table([record("1", "a", "b", "a")])
    assert "ratings over 1 game " in one and "weak prior" in one
    assert "columns: ±95 the 95% interval of elo" in one and "LOS% the chance it is stronger" in one
    two = summary_table([record("1", "a", "b", "a"), record("2", "b", "a", "a"),
                         record("3", "a", "b", "b"), record("4", "b", "a", "b", size=7)])
    assert "first-player advantage per pool" in two
    assert "anda     5" in two and "anda     7" in two
    lines = two.splitlines()
    assert lines[1].split()[:4] == ["rank", "player", "elo", "±95"]


def test_numbers_for_people_have_no_minus_zero_and_counts_agree_in_number():
    from hexarena.results.rating.words import games_text, signed_whole, whole
    assert [whole(v) for v in (-0.4, 0.4, -0.6, 74.5, float("nan"), None)] == ["0", "0", "-1", "74", "", ""]
    assert [signed_whole(v) for v in (-0.4, 0.4, 75.2, -12.0)] == ["0", "0", "+75", "-12"]
    assert (games_text(1), games_text(0), games_text(40)) == ("1 game", "0 games", "40 games")
