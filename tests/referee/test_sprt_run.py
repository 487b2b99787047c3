"""SPRT in a run: the [sprt] table, `hexarena match --sprt` stopping at a decision, `hexarena sprt DIR`."""
from __future__ import annotations

import json
import re

import click
import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.commands_sprt import parse_sprt_words
from hexarena.referee.tournament import config as C
from hexarena.results.record.journal import read_journal

ENGINES = {"new": {"player": "greedy"}, "old": {"player": "random"}}


def _config(sprt: dict, engines: dict = ENGINES) -> C.TournamentConfig:
    return C.from_dict({"engines": engines, "games": [{"game": "spelde", "size": 4}], "sprt": sprt}, "t.toml")


def test_the_sprt_table_reads_back_and_defaults_to_the_first_engine():
    config = _config({"elo0": 0, "elo1": 10})
    assert (config.sprt.engine, config.sprt.opponent) == ("new", "old")
    s = config.sprt.settings
    assert (s.elo0, s.elo1, s.alpha, s.beta, s.model, s.max_games) == (0, 10, 0.05, 0.05, "normalized", None)
    other = _config({"elo0": -5, "elo1": 5, "model": "logistic", "engine": "old", "max_games": 500, "alpha": 0.1})
    assert other.sprt.engine == "old" and other.sprt.settings.max_games == 500
    assert C.from_dict(C.to_dict(other)) == other


@pytest.mark.parametrize("sprt, engines, key", [
    ({"elo0": 0}, ENGINES, "sprt"),
    ({"elo0": 10, "elo1": 0}, ENGINES, "sprt"),
    ({"elo0": 0, "elo1": 5, "model": "bayes"}, ENGINES, "sprt.model"),
    ({"elo0": 0, "elo1": 5, "engine": "x"}, ENGINES, "sprt.engine"),
    ({"elo0": 0, "elo1": 5, "speed": 1}, ENGINES, "sprt.speed"),
    ({"elo0": 0, "elo1": 5}, {**ENGINES, "third": {"player": "random"}}, "sprt"),
])
def test_sprt_table_errors_name_the_key(sprt, engines, key):
    with pytest.raises(C.ConfigError) as info:
        _config(sprt, engines)
    assert info.value.key == key, str(info.value)


@pytest.mark.slow
def test_a_match_with_a_clear_elo_gap_stops_with_h1_well_before_its_maximum(tmp_path):
    out = tmp_path / "m"
    result = CliRunner().invoke(main, [
        "match", "python -m hexarena.players greedy", "python -m hexarena.players random", "--size", "4",
        "--games", "200", "--sprt", "elo0=0 elo1=100 model=logistic", "-j", "2", "--no-preflight", "--out", str(out)])
    assert result.exit_code == 0, result.output
    records = read_journal(out)
    assert len(records) < 60                       # of at most 200
    assert "H1 accepted" in result.output
    assert "LLR " in result.output and "(-2.94, 2.94) [0, 100]" in result.output
    saved = json.loads((out / "tournament.json").read_text())
    assert saved["sprt"]["elo1"] == 100 and saved["games_per_pair"] == 200
    # the same test recomputed from the folder
    again = CliRunner().invoke(main, ["sprt", str(out)])
    assert again.exit_code == 0, again.output
    assert again.output == "\n".join(result.output.splitlines()[-3:]) + "\n"
    assert "H1 accepted" in again.output and "pentanomial [LL, LD, WL+DD, WD, WW] of greedy" in again.output
    # other bounds on the same games, paired by the records themselves without tournament.json
    (out / "tournament.json").unlink()
    third = CliRunner().invoke(main, ["sprt", str(out), "--elo0", "0", "--elo1", "1000", "--engine", "random"])
    assert third.exit_code == 0, third.output
    assert "[0, 1000]" in third.output and "H0 accepted" in third.output and "without a pair number" not in third.output   # records carry their pair


def test_hexarena_sprt_needs_bounds_without_a_saved_test(tmp_path):
    from hexarena.results.record.game import GameRecord
    record = GameRecord(id="spelde-5-pie/0000", game="spelde", size=5, variant="pie", first="a", second="b",
                        black="a", white="b", winner="a", result="B+", termination="no-moves", plies=9)
    (tmp_path / "journal.jsonl").write_text(record.to_json() + "\n")
    result = CliRunner().invoke(main, ["sprt", str(tmp_path)])
    assert result.exit_code != 0 and "--elo0 and --elo1" in result.output


@pytest.mark.slow
def test_max_games_stops_an_undecided_test_and_a_resume_keeps_counting(tmp_path):
    out = tmp_path / "m"
    result = CliRunner().invoke(main, [
        "match", "python -m hexarena.players greedy", "python -m hexarena.players random", "--size", "4",
        "--games", "100", "--sprt", "elo0=0 elo1=5 max_games=4", "--no-preflight", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(read_journal(out)) == 4 and json.loads((out / "tournament.json").read_text())[
        "games_per_pair"] == 100
    assert "no decision (max_games reached)" in result.output
    again = CliRunner().invoke(main, ["tournament", "--resume", "--out", str(out), "--no-preflight"])
    assert again.exit_code == 0, again.output
    assert len(read_journal(out)) == 4 and "no decision" in again.output and "[0, 0, 0, 0, 2]" in again.output


@pytest.mark.parametrize("word, said", [
    ("elo0=nan", "elo0=nan: expected a decimal number"),
    ("elo1=1e5", "elo1=1e5: expected a decimal number"),
    ("max_games=\u0663", "max_games=\u0663: expected a whole number"),
    ("max_games=" + "9" * 5000, "of at most 9 digits"),
])
def test_sprt_words_read_plain_bounded_numbers(word, said):
    with pytest.raises(click.UsageError, match=re.escape(said)):
        parse_sprt_words(("elo0=0 elo1=10", word))


def test_sprt_words_read_signs_and_decimals():
    assert parse_sprt_words(("elo0=-5.5 elo1=+10 alpha=0.05 max_games=400",)) == \
        {"elo0": -5.5, "elo1": 10.0, "alpha": 0.05, "max_games": 400}
