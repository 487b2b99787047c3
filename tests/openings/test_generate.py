"""`hexarena openings generate` with a built-in engine: legal lines, distinct under the symmetries,
within the band, values the engine gives again when asked; resumed without judging again."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.commands_openings import advisers_for
from hexarena.openings_play import Board, scores, winrates
from hexarena.referee.game.book import canonical_key, header_of
from hexarena.referee.game.openings import parse_line, read_file

BOARD = Board("spelde", 4, "pie")


def _book(path: Path) -> list[tuple[tuple[str, ...], float]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        tokens, _, comment = line.partition("#")
        out.append((tuple(tokens.split()), float(comment.split()[-1])))
    return out


def test_winrate_book_is_legal_distinct_in_the_band_and_rejudged_alike(tmp_path):
    out = tmp_path / "book.txt"
    args = ["openings", "generate", "--game", "spelde", "--size", "4", "--engine", "mcts:40", "--count", "4",
            "--plies", "2", "--candidates", "10", "--band", "25-75", "--out", str(out), "-j", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    book = _book(out)
    judged = [json.loads(t) for t in (tmp_path / "book.txt.work" / "judged.jsonl").read_text().splitlines()]
    assert len(judged) == 10 and {j["by"] for j in judged} == {"winrate"}
    inside = [j for j in judged if 0.25 <= j["value"] <= 0.75]
    assert 0 < len(book) == min(4, len(inside))
    start = BOARD.start()
    assert len({canonical_key(start, line) for line, _ in book}) == len(book)
    for line, value in book:
        assert parse_line(" ".join(line), "spelde", 4, "pie") == line and len(line) == 2
        assert 0.25 <= value <= 0.75
    assert [text for _, text in read_file(out)] == [" ".join(line) for line, _ in book]   # a tournament reads it
    assert "spelde-4-pie" in header_of(out.read_text()) and "mcts:40" in header_of(out.read_text())

    again: dict = {}
    sample = [line for line, _ in book[:2]]
    trio.run(winrates, advisers_for("mcts:40", tmp_path), BOARD, sample, 1, lambda line, v: again.__setitem__(line, v))
    assert {line: round(v, 3) for line, v in again.items()} == {line: v for line, v in book[:2]}

    before = out.read_text()
    result = CliRunner().invoke(main, args)              # resumed: nothing judged again
    assert result.exit_code == 0, result.output
    assert len((tmp_path / "book.txt.work" / "judged.jsonl").read_text().splitlines()) == 10
    assert out.read_text() == before


def test_selfplay_judgement_is_the_first_seats_score_of_the_journal(tmp_path):
    out = tmp_path / "book.txt"
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "spelde", "--size", "4", "--engine",
                                       "mcts:10", "--count", "3", "--plies", "1", "--candidates", "3", "--judge",
                                       "selfplay", "--games", "2", "--band", "0-100", "--out", str(out)])
    assert result.exit_code == 0, result.output
    played = scores(tmp_path / "book.txt.work" / "selfplay")
    book = _book(out)
    assert len(book) == 3 and sum(g for g, _ in played.values()) == 6
    for line, value in book:
        games, points = played[line]
        assert games == 2 and value == round(points / games, 3)


def test_bad_after_line_is_refused_by_name(tmp_path):
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "spelde", "--size", "4", "--engine",
                                       "mcts:10", "--count", "1", "--after", "z99", "--out", str(tmp_path / "b")])
    assert result.exit_code == 1 and "--after" in result.output and "z99" in result.output


def test_the_first_seats_value_follows_the_swap():
    from hexarena.openings_play import first_seat_value
    start = BOARD.start()
    assert first_seat_value(start, (), 0.7) == 0.7                 # the first seat to move
    assert first_seat_value(start, ("e4",), 0.7) == pytest.approx(0.3)   # the second seat to move
    assert first_seat_value(start, ("e4", "swap"), 0.7) == 0.7     # swapped: the first seat moves, as White


def test_an_engine_without_winrates_is_judged_by_selfplay(tmp_path):
    out = tmp_path / "book.txt"
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "spelde", "--size", "4", "--engine",
                                       "random", "--count", "2", "--plies", "1", "--candidates", "2", "--games", "2",
                                       "--band", "0-100", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "gave no winrate" in result.output
    assert "2 self-play games a line" in header_of(out.read_text())
    assert len(_book(out)) == 2


def test_an_engine_that_cannot_start_is_named(tmp_path):
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "spelde", "--size", "4", "--engine",
                                       str(tmp_path / "no-such-engine"), "--count", "1", "--out",
                                       str(tmp_path / "b.txt")])
    assert result.exit_code == 1 and "cannot start" in result.output and "no-such-engine" in result.output


def test_a_work_folder_of_another_engine_is_not_mixed_in(tmp_path):
    args = ["openings", "generate", "--game", "spelde", "--size", "4", "--count", "1", "--plies", "1",
            "--candidates", "2", "--band", "0-100", "--out", str(tmp_path / "b.txt")]
    assert CliRunner().invoke(main, [*args, "--engine", "mcts:10"]).exit_code == 0
    result = CliRunner().invoke(main, [*args, "--engine", "mcts:20"])
    assert result.exit_code == 2 and "'mcts:10', not 'mcts:20'" in result.output


def test_then_ends_every_line_with_the_komi_pie_after_anda_prisons_dual_pie(tmp_path):
    out = tmp_path / "book.txt"
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "anda-prison", "--size", "4", "--engine",
                                       "mcts:20", "--count", "3", "--plies", "3", "--candidates", "6",
                                       "--then", "komi=3 keep", "--band", "0-100", "--out", str(out)])
    assert result.exit_code == 0, result.output
    book = _book(out)
    assert len(book) == 3 and "3 plies then komi=3 keep" in header_of(out.read_text())
    start = Board("anda-prison", 4, "pie").start()
    for line, _ in book:
        assert line[3:] == ("komi=3", "keep") and line[2] in ("keep", "swap")     # pair, pair, pie, komi pie
        assert parse_line(" ".join(line), "anda-prison", 4, "pie") == line
    assert len({canonical_key(start, line) for line, _ in book}) == 3
    judged = (tmp_path / "book.txt.work" / "judged.jsonl").read_text()
    assert all("komi=3 keep" in t for t in judged.splitlines())


def test_a_then_line_no_candidate_takes_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "anda-prison", "--size", "4", "--engine",
                                       "mcts:10", "--count", "1", "--plies", "1", "--then", "komi=3 keep",
                                       "--out", str(tmp_path / "b")])
    assert result.exit_code == 1 and "--then 'komi=3 keep'" in result.output and "1 plies" in result.output


def _selfplay(tmp_path, *more: str):
    """`generate` of a book judged by self-play of the random player (which gives no winrate)."""
    return CliRunner().invoke(main, ["openings", "generate", "--game", "spelde", "--size", "4", "--engine", "random",
                                     "--count", "2", "--games", "2", "--band", "0-100",
                                     "--out", str(tmp_path / "book.txt"), *more])


def test_a_resumed_selfplay_run_says_how_it_judged_and_judges_new_lines_without_playing_again(tmp_path):
    out, work = tmp_path / "book.txt", tmp_path / "book.txt.work"
    first = _selfplay(tmp_path, "--plies", "1", "--candidates", "2")
    assert first.exit_code == 0, first.output
    again = _selfplay(tmp_path, "--plies", "1", "--candidates", "2")       # nothing left to judge
    assert again.exit_code == 0, again.output
    assert "2 self-play games a line" in header_of(out.read_text())
    assert json.loads((work / "judge.json").read_text())["by"] == "selfplay"
    wider = _selfplay(tmp_path, "--plies", "2", "--candidates", "3")        # the advice after a short book
    assert wider.exit_code == 0, wider.output
    assert "(3 of 3 judged lines in the band)" in wider.output              # this run's candidates only
    judged = [json.loads(t) for t in (work / "judged.jsonl").read_text().splitlines()]
    assert len(judged) == 5 == len({j["line"] for j in judged})
    played = scores(work / "selfplay")                                       # each line's games once
    assert len(played) == 5 and {g for g, _ in played.values()} == {2}
    assert "2 self-play games a line" in header_of(out.read_text())


def test_no_line_in_the_band_writes_no_book_and_says_what_to_change_and_odd_games_are_refused(tmp_path):
    out = tmp_path / "book.txt"
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "spelde", "--size", "4", "--engine", "greedy",
                                       "--plies", "1", "--count", "2", "--candidates", "3", "--games", "2",
                                       "--judge", "selfplay", "--band", "60-70", "--out", str(out)])
    assert result.exit_code == 1 and not out.exists()        # two games a line: 0, 1/2 or 1, never in 60-70%
    assert "no judged line lies in --band 60-70%" in result.output and "widen --band" in result.output
    result = _selfplay(tmp_path / "odd", "--games", "3")
    assert result.exit_code == 2 and "--games" in result.output and "odd" in result.output
    assert not (tmp_path / "odd").exists()


def test_an_out_in_a_missing_folder_is_refused_before_any_work(tmp_path):
    result = CliRunner().invoke(main, ["openings", "generate", "--game", "spelde", "--size", "4", "--engine",
                                       "random", "--count", "1", "--out", str(tmp_path / "no" / "book.txt")])
    assert result.exit_code == 2 and "--out" in result.output and f"{tmp_path / 'no'} does not exist" in result.output
    assert not (tmp_path / "no").exists()


def test_judged_lines_that_cannot_be_read_are_named_and_skipped_and_the_next_starts_a_line(tmp_path):
    work = tmp_path / "book.txt.work"
    assert _selfplay(tmp_path, "--plies", "1", "--candidates", "2").exit_code == 0
    with open(work / "judged.jsonl", "ab") as fh:
        fh.write(b'{"line": "\xff\xfe", "value": 0.5}\n{"line": "c1", "val')      # not UTF-8; a torn last line
    result = _selfplay(tmp_path, "--plies", "1", "--candidates", "3")
    assert result.exit_code == 0, result.output
    said = result.output.replace("\n", "")                        # the progress console wraps long lines
    assert "judged.jsonl:3: skipped" in said and "judged.jsonl:4: skipped" in said
    rows = (work / "judged.jsonl").read_bytes().splitlines()
    assert rows[3] == b'{"line": "c1", "val' and json.loads(rows[4])["by"] == "selfplay"


def test_the_book_and_judge_file_get_the_mode_open_gives(tmp_path):
    import os
    old = os.umask(0o027)
    try:
        assert _selfplay(tmp_path, "--plies", "1", "--candidates", "2").exit_code == 0
    finally:
        os.umask(old)
    for path in (tmp_path / "book.txt", tmp_path / "book.txt.work" / "judge.json"):
        assert path.stat().st_mode & 0o777 == 0o640, path
