"""`hexarena openings komi` finds the komi of a game made lopsided on purpose (tests/support/komi_toy.py:
the first seat scores one half exactly at komi 5.5) inside its interval, by the `komi` command (Anda
nopie) and by the komi pie after Anda-prison's dual pie; the lines it opens the games with; and the
fit alone."""
from __future__ import annotations

import math
import random
import shlex
import sys

import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.openings_komi import Search, drawn_prefixes, file_prefixes, komi_lines, offering_seat, per_line
from hexarena.openings_play import Board
from hexarena.referee.game.openings import OpeningError, replay
from hexarena.results.komi import fit, next_komi

FAIR, SCALE = 5.5, 1.5


def _toy_search(tmp_path, *board: str) -> tuple[float, float, float]:
    """The fair komi and its interval found for the toy on `board` (CLI arguments)."""
    engine = shlex.join([sys.executable, "-m", "tests.support.komi_toy", str(FAIR), str(SCALE), "{seed}"])
    result = CliRunner().invoke(main, ["openings", "komi", *board, "--engine", engine, "--batch", "16",
                                       "--rounds", "8", "--work", str(tmp_path / "w")])
    assert result.exit_code == 0, result.output
    line = next(t for t in result.output.splitlines() if t.startswith("fair komi"))
    fair = float(line.split()[2])
    words = line.split("interval ")[1].split()
    return fair, float(words[0]), float(words[2].rstrip(");"))


@pytest.mark.slow
def test_the_search_finds_the_toys_fair_komi_within_its_interval(tmp_path):
    engine = shlex.join([sys.executable, "-m", "tests.support.komi_toy", str(FAIR), str(SCALE), "{seed}"])
    result = CliRunner().invoke(main, ["openings", "komi", "--game", "anda", "--size", "5", "--variant", "nopie",
                                       "--engine", engine, "--batch", "16", "--rounds", "8",
                                       "--work", str(tmp_path / "w")])
    assert result.exit_code == 0, result.output
    line = next(t for t in result.output.splitlines() if t.startswith("fair komi"))
    fair = float(line.split()[2])
    words = line.split("interval ")[1].split()
    low, high = float(words[0]), float(words[2].rstrip(");"))
    assert low <= FAIR <= high and low <= fair <= high
    assert high - low < 4                              # the games narrowed it down
    rounds = sorted(p.name for p in (tmp_path / "w").iterdir() if p.is_dir())
    assert len(rounds) == 8 and all(p.startswith("round-") for p in rounds)
    assert (tmp_path / "w" / "search.json").is_file()         # the parameters a resume must keep


def test_fit_recovers_a_known_curve_and_says_when_it_cannot():
    rng = random.Random(3)
    results = {}
    for k in range(0, 13, 2):
        wins = sum(rng.random() < 1 / (1 + math.exp((k - FAIR) / SCALE)) for _ in range(200))
        results[k] = (200, float(wins))
    f = fit(results)
    assert f is not None and f.interval is not None
    assert f.interval[0] < FAIR < f.interval[1] and abs(f.fair - FAIR) < 0.5
    assert abs(f.score(f.fair) - 0.5) < 1e-9
    assert fit({3: (10, 5.0)}) is None                                  # one komi: no curve
    flat = fit({0: (10, 5.0), 10: (10, 5.0)})
    assert flat is not None and flat.interval is None                   # no slope: no interval


def test_next_komi_brackets_then_closes_in():
    assert next_komi({}, 3, 2, 61) == 3
    assert next_komi({0: (8, 8.0)}, 0, 2, 61) == 2                      # first seat too strong: more komi
    assert next_komi({0: (8, 8.0), 2: (8, 7.0)}, 0, 2, 61) == 6        # the step doubles
    assert next_komi({4: (8, 1.0)}, 4, 2, 61) == 2                      # too weak: less komi
    assert next_komi({0: (8, 0.0)}, 0, 2, 61) == 0                      # never below zero
    k = next_komi({0: (8, 7.0), 10: (8, 1.0)}, 0, 2, 61)
    assert 3 <= k <= 7


@pytest.mark.slow
def test_the_search_finds_the_toys_fair_komi_after_anda_prisons_dual_pie(tmp_path):
    fair, low, high = _toy_search(tmp_path, "--game", "anda-prison", "--size", "5", "--draw", "4")
    assert low <= FAIR <= high and low <= fair <= high and high - low < 4
    first = next((tmp_path / "w").glob("round-01-*")) / "tournament.json"
    lines = first.read_text(encoding="utf-8")
    assert lines.count("komi=0 keep") == 4                     # the four drawn lines, then the komi pie


def test_komi_lines_by_variant():
    assert komi_lines(Board("anda", 5, "pie")) == [()]                          # the komi pie opens the game
    assert komi_lines(Board("anda", 5, "nopie")) == []                          # the komi command
    assert komi_lines(Board("anda-prison", 5, "corners")) == []
    with pytest.raises(ValueError, match="no komi"):
        komi_lines(Board("spelde", 5, "pie"))


def test_drawn_lines_lead_to_the_komi_pie_keeping_the_colours_and_are_distinct():
    board = Board("anda-prison", 5, "pie")
    start = board.start()
    lines = drawn_prefixes(board, 6, seed=3)
    assert len(lines) == 6 and lines == drawn_prefixes(board, 6, seed=3)        # seeded
    for line in lines:
        assert line[2] == "keep" and "swap" not in line and len(line) == 3     # pair, pair, keep
        replay(start, (*line, "komi=7", "keep"))                                # the komi pie follows
        assert offering_seat(start, line) == 1
    from hexarena.referee.game.book import canonical_key
    assert len({canonical_key(start, line) for line in lines}) == 6


def test_file_lines_are_cut_before_the_komi_offer_and_checked(tmp_path):
    board = Board("anda-prison", 5, "pie")
    start = board.start()
    book = tmp_path / "b.txt"
    book.write_text("# a book\na1,a3 i9,i7 keep komi=4 keep  # first seat 0.5\na1,a3 i9,i7 swap\n"
                    "a1,a3 swap i7,i9 keep\n", encoding="utf-8")
    lines = file_prefixes(board, str(book))
    assert lines == [("a1,a3", "i7,i9", "keep"), ("a1,a3", "i7,i9", "swap"), ("a1,a3", "swap", "i7,i9", "keep")]
    # after Black's swap the second seat holds Black and offers the komi; after White's swap and keep too
    assert [offering_seat(start, line) for line in lines] == [1, 2, 2]
    search = Search(board, "random", batch=8, prefixes=tuple(lines))
    assert per_line(search) == 2                                                # a game pair per line at least
    bad = tmp_path / "bad.txt"
    bad.write_text("a1,a3\n", encoding="utf-8")
    with pytest.raises(OpeningError, match="line 1.*komi pie"):
        file_prefixes(board, str(bad))


def _komi(tmp_path, *more: str):
    return CliRunner().invoke(main, ["openings", "komi", "--game", "anda", "--size", "5", "--variant", "nopie",
                                     "--engine", "random", "--rounds", "1", "--batch", "2",
                                     "--work", str(tmp_path / "w"), *more])


def test_a_resume_with_other_search_parameters_is_refused_by_their_names(tmp_path):
    first = _komi(tmp_path)
    assert first.exit_code == 0, first.output
    for option, value, saved in (("--batch", "4", "2"), ("--start", "2", "0"), ("--step", "3", "2"),
                                 ("--seed", "5", "0"), ("--engine", "greedy", "'random'")):
        result = _komi(tmp_path, option, value)
        assert result.exit_code == 2, result.output
        said = " ".join(result.output.split())
        assert f"{option}: saved {saved}" in said and "give another --work, or the same parameters" in said
    assert _komi(tmp_path, "--rounds", "2").exit_code == 0                  # more rounds: a resume


def test_odd_batches_are_refused_and_one_komi_or_a_start_beyond_the_board_is_said(tmp_path):
    result = _komi(tmp_path, "--batch", "3")
    assert result.exit_code == 2 and "odd" in result.output and not (tmp_path / "w").exists()
    result = _komi(tmp_path, "--batch", "100000000")
    assert result.exit_code == 2 and "--batch" in result.output and not (tmp_path / "w").exists()
    result = _komi(tmp_path, "--start", "1000")
    assert result.exit_code == 0, result.output
    top = next(p for p in (tmp_path / "w").iterdir() if p.is_dir()).name.rsplit("-", 1)[1]
    assert f"--start 1000: more than the komi can be (the board's {top} sites); starting at {top}" in result.output
    assert f"every round played komi {top}, and a curve needs two komi values" in result.output


def test_an_openings_file_that_is_not_utf8_is_named_with_its_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"# lines\na1,a3 i9,i7 keep\n\xff\xfe keep\n")
    result = CliRunner().invoke(main, ["openings", "komi", "--game", "anda-prison", "--size", "5", "--engine",
                                       "random", "--openings", str(bad)])
    assert result.exit_code == 2 and "--openings" in result.output and "--variant" not in result.output
    assert f"{bad} line 3: not UTF-8 text" in " ".join(result.output.split())


def test_a_fair_komi_near_zero_is_not_negative():
    from hexarena.results.komi import komi_text
    assert komi_text(-0.001) == "0.00" and komi_text(-0.006) == "-0.01" and komi_text(0.48) == "0.48"
