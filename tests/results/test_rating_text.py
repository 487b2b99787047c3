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
