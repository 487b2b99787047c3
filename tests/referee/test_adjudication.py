"""Adjudication on the engines' winrates (docs/tournament.md, "Adjudication"): real engine processes
that report scripted winrates (tests.support.fakes12, flag `wr=`), one game each."""
from __future__ import annotations

import io
import json
from functools import partial
from pathlib import Path

import pytest
import trio
from sgfmill import sgf

from hexarena.engine import registry
from hexarena.referee.console.views import make_view
from hexarena.referee.engines.process import open_engine
from hexarena.referee.game.adjudication import Adjudication, Judge
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.tournament import config as C, growth
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.results.page.analysis_data import analysis_data
from hexarena.results.record.game import GameRecord
from hexarena.results.record.sgf import sgf_text
from tests.support.fakes12 import fake12_argv

LIMITS = Limits(move=5.0, start=10.0, command=5.0)


def _play(tmp_path: Path, flags: tuple[str, str], rules: Adjudication | None, analysis: bool = True,
          variant: tuple[str, ...] = ("nopie",)) -> GameRecord:
    seats = tuple(Seat(name, partial(open_engine, fake12_argv(f), tmp_path / f"{name}.log", name),
                       analysis=analysis or name == "a")
                  for name, f in zip(("a", "b"), flags))
    return trio.run(play_game, Setup("spelde", 4, variant, adjudication=rules), seats, LIMITS)


@pytest.fixture(scope="module")
def played_out(tmp_path_factory) -> int:
    """The plies of the game the fakes play out (Spelde side 4 without the pie rule; their random
    moves are seeded alike, and the rules' own random choice, core or Python, decides its length)."""
    record = _play(tmp_path_factory.mktemp("played-out"), ("v12", "v12"), None)
    assert record.termination == "no-moves" and record.plies > 14, record
    return record.plies


def _sgf_result(record: GameRecord) -> str:
    game = sgf.Sgf_game.from_bytes(sgf_text(record, registry.get("spelde").sgf_number).encode())
    return game.get_root().get("RE")


@pytest.mark.parametrize("flags, winner, result", [
    (("v12,wr=0.5/0.97", "v12,wr=0.5/0.03"), "a", "B+"),
    (("v12,wr=0.5/0.03", "v12,wr=0.5/0.97"), "b", "W+"),
])
def test_two_engines_that_agree_end_the_game_after_the_configured_moves(tmp_path, flags, winner, result):
    record = _play(tmp_path, flags, Adjudication(resign_moves=4))
    # each engine's moves 2..5 agree: a (black) moves at plies 1, 3, .., 9, b at 2, 4, .., 10
    assert (record.termination, record.plies, record.winner, record.result) == ("adjudicated", 10, winner, result)
    high, low = [0.97] * 4, [0.03] * 4
    assert record.adjudication == {"rule": "resign", "by": "both", "ply": 10,
                                   "winrates": [high, low] if winner == "a" else [low, high]}
    assert f"{winner} wins" in record.reason and record.faulty is None and record.forfeit is None
    assert GameRecord.from_dict(json.loads(record.to_json())) == record
    assert _sgf_result(record) == result


def test_a_winrate_after_the_engine_s_own_swap_speaks_for_the_colour_it_then_holds(tmp_path):
    # a opens as Black; b swaps and holds Black from then on: its 0.97 is Black's, a's 0.03 White's
    record = _play(tmp_path, ("v12,wr=0.03", "v12,swap,wr=0.97"), Adjudication(resign_moves=4), variant=())
    assert (record.termination, record.winner, record.result) == ("adjudicated", "b", "B+")
    data = analysis_data(record)
    assert (data["c"][:3], data["seat"][:3]) == ("BWW", "010")        # b swapped as White; a then plays White
    rows = data["rows"]
    assert rows[1]["pv"] == ["swap"]
    assert [(r["w"], r["b"]) for r in rows[:3]] == [(0.03, 0.03), (0.97, 0.97), (0.03, 0.97)]


def test_an_engine_that_disagrees_prevents_it_and_a_break_restarts_the_count(tmp_path, played_out):
    disagree = _play(tmp_path, ("v12,wr=0.5/0.97", "v12,wr=0.5/0.6"), Adjudication(resign_moves=4))
    assert (disagree.termination, disagree.plies, disagree.adjudication) == ("no-moves", played_out, None)
    # b concedes on its moves 1, 2, then 0.2 on move 3, then concedes again: moves 4..7 end it, at ply 14
    broken = _play(tmp_path, ("v12,wr=0.97", "v12,wr=0.03/0.03/0.2/0.03"), Adjudication(resign_moves=4))
    assert (broken.termination, broken.plies, broken.winner) == ("adjudicated", 14, "a")
    assert broken.adjudication is not None and broken.adjudication["winrates"][1] == [0.03] * 4


def test_a_draw_when_both_winrates_stay_near_one_half_from_draw_after_on(tmp_path, played_out):
    rules = Adjudication(resign_moves=0, draw_after=12, draw_moves=3, draw_margin=0.05)
    record = _play(tmp_path, ("v12,wr=0.52", "v12,wr=0.45"), rules)
    assert (record.termination, record.plies, record.winner, record.result) == ("adjudicated", 12, None, "0")
    assert record.adjudication == {"rule": "draw", "by": "both", "ply": 12,
                                   "winrates": [[0.52] * 3, [0.45] * 3]}
    assert _sgf_result(record) == "0"
    outside = _play(tmp_path, ("v12,wr=0.52", "v12,wr=0.44"), rules)
    assert (outside.termination, outside.plies) == ("no-moves", played_out)


def test_one_sided_a_claim_wins_when_the_opponent_s_own_winrates_agree(tmp_path, played_out):
    rules = Adjudication(resign_moves=4, two_sided=False)
    record = _play(tmp_path, ("v12,wr=0.5/0.97", "v12,wr=0.3"), rules)
    # a's moves 2..5 claim the win (ply 9); b reported at most 0.05 + 0.25 on each of its last 4 moves
    assert (record.termination, record.plies, record.winner, record.result) == ("adjudicated", 9, "a", "B+")
    assert record.adjudication is not None and record.adjudication["by"] == "claim"
    assert record.reason == "a claims the win (its winrate >= 0.95 on 4 moves; b's <= 0.3)"
    for b in ("v12,wr=0.31", "v12,wr=0.96", "v12,wr=0.3/0.3/0.3/0.9"):     # b thinks otherwise on a move
        liar = _play(tmp_path, ("v12,wr=0.99", b), rules)
        assert (liar.termination, liar.plies, liar.adjudication) == ("no-moves", played_out, None), b
    both_claim = _play(tmp_path, ("v12,wr=0.97", "v12,wr=0.99"), rules)
    assert (both_claim.termination, both_claim.plies) == ("no-moves", played_out)


@pytest.mark.parametrize("b_flags, b_analysis", [("", True), ("v12,wr=-", True), ("v12,wr=0.6", False)],
                         ids=["no-genmove_analyze", "no-winrate", "analysis-off"])
def test_an_engine_without_winrates_is_never_adjudicated_against_one_sidedly(tmp_path, b_flags, b_analysis,
                                                                           played_out):
    record = _play(tmp_path, ("v12,wr=0.99", b_flags), Adjudication(resign_moves=2, two_sided=False),
                   analysis=b_analysis)
    assert (record.termination, record.plies, record.adjudication) == ("no-moves", played_out, None)


def test_one_sided_an_engine_s_own_concession_decides_against_it(tmp_path):
    record = _play(tmp_path, ("", "v12,wr=0.04"), Adjudication(resign_moves=3, two_sided=False))
    assert (record.termination, record.plies, record.winner) == ("adjudicated", 6, "a")
    assert record.adjudication == {"rule": "resign", "by": "concession", "ply": 6,
                                   "winrates": [[None, None, None], [0.04] * 3]}
    assert record.reason == "b concedes (its winrate <= 0.05 on 3 moves)"


def test_without_adjudication_scripted_winrates_change_nothing(tmp_path, played_out):
    record = _play(tmp_path, ("v12,wr=0.99", "v12,wr=0.01"), None)
    assert (record.termination, record.plies, record.adjudication) == ("no-moves", played_out, None)
    assert "adjudication" in json.loads(record.to_json())         # the field is there, null


@pytest.mark.parametrize("a, b, verdict", [
    ([0.95] * 2, [0.05] * 2, "resign"),          # the thresholds themselves count
    ([0.95, 0.949], [0.05] * 2, None),
    ([0.55] * 2, [0.45] * 2, "draw"),            # exactly draw_margin from 0.5
    ([0.5501] * 2, [0.5] * 2, None),
])
def test_the_judge_s_thresholds_are_inclusive(a, b, verdict):
    judge = Judge(Adjudication(resign_moves=2, draw_after=0, draw_moves=2))
    for x, y in zip(a, b):
        judge.saw(0, [{"line": "info", "winrate": x}])
        judge.saw(1, [{"line": "info", "score": 1.0}, {"line": "info", "winrate": y}])
    found = judge.verdict(4)
    assert (found.rule if found else None) == verdict


@pytest.mark.parametrize("values, message", [
    ({"resign_winrate": 0.5}, "resign_winrate"), ({"draw_margin": 0.5}, "draw_margin"),
    ({"resign_moves": -1}, "resign_moves"), ({"draw_after": -1}, "draw_after"),
    ({"resign_moves": 0, "draw_moves": 0}, "both 0"),
])
def test_rules_out_of_range_are_refused(values, message):
    with pytest.raises(ValueError, match=message):
        Adjudication(**values)


CONFIG = """\
[engines.a]
cmd = ["{python}", "-c", "pass"]
[engines.b]
cmd = ["{python}", "-c", "pass"]
[[games]]
game = "spelde"
"""


def test_the_config_table_is_read_with_its_defaults_and_saved():
    config = C.loads(CONFIG + "[adjudication]\nresign_moves = 6\ntwo_sided = false\n")
    assert config.adjudication == Adjudication(resign_moves=6, two_sided=False)
    saved = C.to_dict(config)
    assert saved["adjudication"] == {"resign_winrate": 0.95, "resign_moves": 6, "two_sided": False,
                                     "draw_after": 200, "draw_margin": 0.05, "draw_moves": 8}
    assert C.from_dict(json.loads(json.dumps(saved))) == config
    assert C.loads(CONFIG + "[adjudication]\n").adjudication == Adjudication()
    old = C.loads(CONFIG)                             # a config without the table: no adjudication
    assert old.adjudication is None and "adjudication" not in C.to_dict(old)
    assert growth.growth_problem(C.to_dict(old), saved) == f"adjudication: saved None, now {saved['adjudication']!r}"


@pytest.mark.parametrize("line, where", [
    ("resign_moves = 4\nresing_winrate = 0.9", ":9: adjudication.resing_winrate: unknown key"),
    ("resign_winrate = 0.4", ":8: adjudication.resign_winrate: expected a number above 0.5"),
    ("resign_winrate = \"high\"", ":8: adjudication.resign_winrate: expected a number, got 'high'"),
    ("draw_moves = 2.5", ":8: adjudication.draw_moves: expected an integer in 0..10000"),
    ("two_sided = 1", ":8: adjudication.two_sided: expected true or false"),
    ("draw_margin = 0.5", ":8: adjudication.draw_margin: expected a number from 0 to below 0.5"),
    ("resign_moves = 0\ndraw_moves = 0", ":7: adjudication: resign_moves and draw_moves are both 0"),
])
def test_config_errors_name_the_key_and_the_line(line, where):
    with pytest.raises(C.ConfigError) as info:
        C.loads(CONFIG + "[adjudication]\n" + line + "\n", "t.toml")
    assert str(info.value).startswith("t.toml:") and where in str(info.value), str(info.value)


def test_the_panel_and_the_progress_line_count_adjudicated_games():
    base = dict(game="spelde", size=4, variant="nopie", first="a", second="b", black="a", white="b",
                termination="adjudicated", plies=12, seconds=1.0)
    resign = GameRecord(id="g/0", winner="a", result="B+", **base,
                        adjudication={"rule": "resign", "by": "claim", "ply": 12, "winrates": [[0.99], [0.5]]})
    draw = GameRecord(id="g/1", winner=None, result="0", **base,
                      adjudication={"rule": "draw", "by": "both", "ply": 12, "winrates": [[0.5], [0.5]]})
    stream = io.StringIO()
    view = make_view(stream, terminal=True)
    games = [ScheduledGame(r.id, "spelde", 4, "nopie", "a", "b", (1, 2)) for r in (resign, draw)]
    with view:
        view.plan(games, [])
        for r in (resign, draw):
            view.finished(r)
    text = stream.getvalue()
    assert "g/0  a (black) beat b (white): adjudicated (resign-claim), 12 plies" in text
    assert "g/1  a (black) and b (white) drew: adjudicated (draw), 12 plies" in text
    assert "adjudicated: draw 1, resign-claim 1" in text
    assert "adjudicated: draw 1, resign-claim 1" in view.progress.status_line()
