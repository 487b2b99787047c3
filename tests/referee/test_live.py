"""The live view: result lines, progress, plain output without a terminal, the panel on one."""
from __future__ import annotations

import io
import shlex
import sys

import pytest
from click.testing import CliRunner

from hexarena import cli
from hexarena.referee.console.live import Progress, result_line
from hexarena.referee.console.views import make_view
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.results.rating.load import games_frame
from hexarena.results.rating.report import build_reports
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import read_journal

RANDOM = f"{shlex.quote(sys.executable)} -m hexarena.players random --seed {{seed}}"
GREEDY = f"{shlex.quote(sys.executable)} -m hexarena.players greedy"


def record(gid="spelde-5-pie/0003", winner="greedy", black="greedy", white="random", **kw) -> GameRecord:
    base = dict(id=gid, game="spelde", size=5, variant="pie", first="random", second="greedy", black=black,
                white=white, winner=winner, result="B+", termination="no-moves", plies=24, seconds=3.14)
    return GameRecord(**{**base, **kw})


def test_result_lines_name_the_winner_and_the_colours():
    assert result_line(record()) == "spelde-5-pie/0003  greedy (black) beat random (white): no-moves, 24 plies, 3.1 s"
    assert result_line(record(black="random", white="greedy")) == (
        "spelde-5-pie/0003  greedy (white) beat random (black): no-moves, 24 plies, 3.1 s")
    drawn = record(winner=None, result="0", termination="ply-cap")
    assert result_line(drawn).endswith("greedy (black) and random (white) drew: ply-cap, 24 plies, 3.1 s")
    forfeit = record(termination="time", faulty="random", reason="random: no move within 1 s")
    assert "random forfeits: random: no move within 1 s" in result_line(forfeit)
    void = record(winner=None, result="Void", termination="void", reason="did not start: x")
    assert result_line(void) == "spelde-5-pie/0003  void (random vs greedy): did not start: x"


def test_progress_counts_flights_scores_forfeits_and_voids():
    now = [0.0]
    p = Progress(clock=lambda: now[0], elo_every=2)
    games = [ScheduledGame(f"g/{i}", "spelde", 5, "pie", "a", "b", (1, 2)) for i in range(4)]
    p.plan(games[1:], [record("g/0", winner="a", first="a", second="b", black="a", white="b")])
    assert (p.done, p.total, p.eta) == (1, 4, None)
    p.started(games[1])
    p.ply("g/1", 7)
    assert p.flights["g/1"].plies == 7
    now[0] = 10.0
    p.finished(record("g/1", winner=None, first="b", second="a", black="b", white="a", termination="ply-cap"))
    p.finished(record("g/2", winner="b", first="a", second="b", black="a", white="b", termination="time", faulty="a",
                      forfeit="time"))
    p.finished(record("g/3", winner=None, result="Void", termination="void", reason="x: cannot play spelde",
                      void_cause="unsupported"))
    assert p.done == 3 and not p.flights and p.voids == {"unsupported": 1}
    assert p.forfeits == {("a", "time"): 1}
    assert {s.name: s.score for s in p.standings()} == {"a": 1.5, "b": 1.5}
    assert all(s.elo is not None for s in p.standings())       # refitted after 2 more games
    assert "3/4 games" in p.status_line() and "void: unsupported 1" in p.status_line()


def test_progress_keeps_one_row_per_distinct_outcome_whatever_the_number_of_games():
    p = Progress(elo_every=7)
    p.plan([], [])
    outcomes = [("a", "b", "a"), ("a", "b", "b"), ("b", "a", "a"), ("b", "a", None)]
    records = [record(f"g/{i}", winner=w, first=f, second=s, black=f, white=s) for i in range(200)
               for f, s, w in [outcomes[i * 7 % 4]]]
    for r in records:
        p.finished(r)
    p.refit()
    assert p.done == 200 and len(p.rows) == 4 and sum(p.rows.values()) == 200
    table = build_reports(games_frame(records), by=())[0].ratings      # the fit over every game, rebuilt
    assert p.elo == {n: (float(e), float(pm)) for n, e, pm in zip(table["player"], table["elo"], table["pm95"])}
    score = {n: sum(1.0 if r.winner == n else 0.5 if r.winner is None else 0.0 for r in records) for n in "ab"}
    assert {s.name: (s.games, s.score) for s in p.standings()} == {n: (200, score[n]) for n in "ab"}


@pytest.mark.slow
def test_without_a_terminal_the_view_prints_plain_lines_only(tmp_path):
    out = tmp_path / "m"
    result = CliRunner().invoke(cli.main, ["match", f"r={RANDOM}", f"g={GREEDY}", "--size", "4", "--games", "2",
                                           "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    assert "\x1b" not in result.output and "\r" not in result.output
    lines = result.output.splitlines()
    for r in read_journal(out):
        assert result_line(r) in lines
    assert any(line.startswith("[2/2 games") for line in lines)
    assert "head to head" in result.output


@pytest.mark.slow
def test_quiet_prints_only_the_final_tables(tmp_path):
    result = CliRunner().invoke(cli.main, ["match", f"r={RANDOM}", f"g={GREEDY}", "--size", "4", "--games", "1",
                                           "--out", str(tmp_path / "q"), "-q"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "spelde-4-pie/0000" not in result.output and "ratings over 1 game" in result.output


def test_on_a_terminal_the_panel_draws_progress_flights_and_standings():
    stream = io.StringIO()
    view = make_view(stream, terminal=True)
    games = [ScheduledGame(f"g/{i}", "spelde", 5, "pie", "a", "b", (1, 2)) for i in range(2)]
    with view:
        view.plan(games, [])
        view.started(games[0])
        view.ply("g/0", 5)
        view.live.refresh()
        view.finished(record("g/0", winner="a", first="a", second="b", black="a", white="b"))
    text = stream.getvalue()
    assert "g/0  a (black) beat b (white)" in text and "1/2 games" in text and "in flight" in text


@pytest.mark.slow
def test_status_reads_progress_and_standings_from_the_folder(tmp_path):
    out = tmp_path / "m"
    CliRunner().invoke(cli.main, ["match", f"r={RANDOM}", f"g={GREEDY}", "--size", "4", "--games", "2",
                                  "--out", str(out), "-q"], catch_exceptions=False)
    result = CliRunner().invoke(cli.main, ["status", str(out)], catch_exceptions=False)
    assert result.exit_code == 0
    assert f"{out}: 2/2 games (finished), 0 void record(s)" in result.output
    scores = {line.split()[0]: line.split()[1] for line in result.output.splitlines()[1:3]}
    assert sorted(scores) == ["g", "r"] and sum(float(v.split("/")[0]) for v in scores.values()) == 2
    missing = CliRunner().invoke(cli.main, ["status", str(tmp_path)])
    assert missing.exit_code == 1 and "holds no tournament" in missing.output


@pytest.mark.slow
def test_match_names_its_engines(tmp_path):
    result = CliRunner().invoke(cli.main, ["match", RANDOM, GREEDY, "--name", "python-a", "--name", "node-b",
                                           "--size", "4", "--games", "1", "--out", str(tmp_path / "n"), "-q"])
    assert result.exit_code == 0
    (r,) = read_journal(tmp_path / "n")
    assert (r.first, r.second) == ("python-a", "node-b")
    once = CliRunner().invoke(cli.main, ["match", RANDOM, GREEDY, "--name", "a", "--out", str(tmp_path / "o")])
    assert once.exit_code == 2 and "give --name twice" in once.output
