"""`hexarena ratings PATH...`: several tournaments, journals and CSV files rated together."""
from __future__ import annotations

import shutil

from click.testing import CliRunner

from hexarena.commands_ratings import ratings
from hexarena.results.rating.load import load_many
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalWriter


def journal(folder, winners):
    folder.mkdir()
    with JournalWriter(folder / "journal.jsonl") as w:
        for i, winner in enumerate(winners):
            w.append(GameRecord(id=f"spelde-5-pie/{i:04d}", game="spelde", size=5, variant="pie", first="a",
                                second="b", black="a", white="b", winner=winner,
                                result="0" if winner is None else "B+" if winner == "a" else "W+",
                                termination="no-moves", plies=10))
    return folder


def test_ratings_over_two_folders_count_both(tmp_path):
    one = journal(tmp_path / "one", ["a", "b", "a"])
    two = journal(tmp_path / "two", ["b", "b"])            # same ids: other games
    (tmp_path / "more.csv").write_text("game,size,first,second,winner\nspelde,5,c,a,c\n")
    games = load_many([one, two / "journal.jsonl", tmp_path / "more.csv"])
    assert len(games.frame) == 6 and games.warnings == ()
    assert list(games.frame["winner"].astype(str)) == ["a", "b", "a", "b", "b", "c"]
    result = CliRunner().invoke(ratings, [str(one), str(two), "--pooled"])
    assert result.exit_code == 0 and "5 games" in result.output


def test_the_same_source_named_twice_is_read_once(tmp_path):
    one = journal(tmp_path / "one", ["a", "b"])
    games = load_many([one, one / "journal.jsonl"])
    assert len(games.frame) == 2 and "named twice" in games.warnings[0]


def test_bad_lines_of_every_source_are_reported_together(tmp_path):
    one = journal(tmp_path / "one", ["a"])
    shutil.copytree(one, tmp_path / "two")
    for f in (one, tmp_path / "two"):
        with open(f / "journal.jsonl", "a") as fh:
            fh.write("{broken\n")
    result = CliRunner().invoke(ratings, [str(one), str(tmp_path / "two")])
    assert result.exit_code == 1 and "2 bad line(s)" in result.output
