"""The rating tables' text without pandas (results/rating/text.py): laid out as pandas'
`DataFrame.to_string` lays them out, and `hexarena ratings` on journals (fitted from the rating
rows, pandas not loaded) printing what the frame's path prints."""
from __future__ import annotations

import random
import shutil

import pandas as pd
import pytest
from click.testing import CliRunner

from hexarena.commands_ratings import ratings
from hexarena.results.rating.load import load_many
from hexarena.results.rating.report import build_reports, render_text
from hexarena.results.rating.text import fixed_width
from tests.support.folders import build_folder


def _column(rng: random.Random, rows: int) -> list:
    if rng.random() < 0.5:
        return [rng.choice((0, 7, 12, 486, 123456, -3, -13)) for _ in range(rows)]
    return [rng.choice(("", "a", "beta", "-13*", "±95", "12-3-4", "a long name")) for _ in range(rows)]


@pytest.mark.parametrize("seed", range(40))
def test_fixed_width_lays_out_columns_as_pandas_to_string(seed):
    rng = random.Random(seed)
    rows = rng.randint(1, 5)
    names = rng.sample(["rank", "elo", "±95", "games", "n", "LOS%", "a longer header", "1", "12"], rng.randint(1, 5))
    columns = {name: _column(rng, rows) for name in names}
    assert fixed_width(columns) == pd.DataFrame(columns).to_string(index=False, justify="right")
    cells = {name: [rng.choice(("", "1-2", "12-3-4", "70-5")) for _ in range(rows)] for name in names}
    labels = [f"{k} {rng.choice(('a', 'beta', 'a long player'))}" for k in range(1, rows + 1)]
    assert fixed_width(cells, labels) == pd.DataFrame(cells, index=labels).to_string()


@pytest.mark.parametrize("args", [[], ["--pooled"], ["--by", "game"], ["--by", "size,identity"],
                                  ["--anchor", "beta=1500"]])
def test_ratings_of_journals_print_what_the_frames_give(tmp_path, args):
    build_folder(tmp_path / "one", 40, seed=3, cap=12)
    build_folder(tmp_path / "two", 25, seed=4, cap=12)
    paths = [str(tmp_path / "one"), str(tmp_path / "two" / "journal.jsonl")]
    result = CliRunner().invoke(ratings, [*paths, *args])
    assert result.exit_code == 0, result.output
    by = None if not args or args[0] == "--anchor" else () if args == ["--pooled"] else \
        tuple(k for k in args[1].split(",") if k != "identity")
    games = load_many(paths, identity="identity" in "".join(args))
    anchor = {"beta": 1500.0} if "--anchor" in args else None
    assert result.stdout == render_text(build_reports(games.frame, by=by, anchor=anchor))


def test_ratings_of_journals_say_their_bad_lines_as_the_frames_do(tmp_path):
    build_folder(tmp_path / "one", 10, cap=8)
    shutil.copytree(tmp_path / "one", tmp_path / "two")
    for folder in ("one", "two"):
        with open(tmp_path / folder / "journal.jsonl", "a", encoding="utf-8") as fh:
            fh.write("{broken\n")
    paths = [str(tmp_path / "one"), str(tmp_path / "two")]
    refused = CliRunner().invoke(ratings, paths)
    assert refused.exit_code == 1 and "2 bad line(s)" in refused.output and "hexarena repair" in refused.output
    skipped = CliRunner().invoke(ratings, [*paths, "--skip-bad"])
    assert skipped.exit_code == 0
    assert skipped.stderr.count("warning: skipped ") == 2 and "10 games" not in skipped.stdout
    assert skipped.stdout == render_text(build_reports(load_many(paths, skip_bad=True).frame))


def _frames_summary(records) -> str:
    """The end-of-tournament tables as the frames' path lays them out (pandas' DataFrames)."""
    from hexarena.results.rating.load import games_frame
    from hexarena.results.rating.report import format_advantage, format_crosstable, format_ratings
    from hexarena.results.rating.summary import adjudicated_line
    from hexarena.results.rating.text import LEGEND, notes
    from hexarena.results.rating.words import games_text
    report = build_reports(games_frame(records), by=())[0]
    adjudicated = adjudicated_line(records)
    return "\n".join([f"ratings over {games_text(report.games)} (Bradley-Terry, Elo scale, mean 0)",
                      format_ratings(report.ratings), LEGEND, "", "first-player advantage per pool",
                      format_advantage(report.advantage), *notes(report),
                      *(["", adjudicated] if adjudicated else []),
                      "", format_crosstable(report.crosstable)])


@pytest.mark.parametrize("games,seed,take", [(40, 3, None), (25, 4, None), (12, 5, 1), (12, 6, 2), (30, 7, 5)])
def test_the_tournaments_end_tables_print_what_the_frames_give(tmp_path, games, seed, take):
    from hexarena.results.rating.summary import head_to_head_text, pooled, summary_table
    from hexarena.results.record.journal import read_journal
    build_folder(tmp_path, games, seed=seed, cap=12)
    records = read_journal(tmp_path / "journal.jsonl")[:take]
    group = pooled(records)
    assert group is not None
    assert summary_table(records) + "\n\n" + head_to_head_text(group) == _frames_summary(records)
