"""`hexarena ratings` through click's CliRunner."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from hexarena.commands_ratings import ratings

CSV = """game,size,first,second,winner
anda,5,alpha,beta,alpha
anda,5,beta,alpha,beta
anda,5,alpha,gamma,alpha
anda,5,gamma,alpha,
anda,5,beta,gamma,gamma
anda,5,gamma,beta,beta
spelde,7,alpha,beta,beta
spelde,7,beta,alpha,alpha
spelde,7,gamma,beta,gamma
spelde,7,beta,gamma,gamma
spelde,7,alpha,gamma,alpha
spelde,7,gamma,alpha,alpha
"""


@pytest.fixture
def games(tmp_path):
    path = tmp_path / "games.csv"
    path.write_text(CSV, encoding="utf-8")
    return path


def run(*args):
    result = CliRunner().invoke(ratings, [str(a) for a in args], catch_exceptions=False)
    return result


def test_text_shows_pooled_and_per_pool_tables(games):
    result = run(games)
    assert result.exit_code == 0, result.output
    assert "== all games: 12 games, 3 players, mean 0 ==" in result.output
    assert "== anda/5: 6 games" in result.output and "== spelde/7: 6 games" in result.output
    assert "head to head" in result.output


def test_pooled_and_by(games):
    assert run(games, "--pooled").output.count("==") == 2
    by_game = run(games, "--by", "game").output
    assert "== anda:" in by_game and "== spelde:" in by_game and "all games" not in by_game
    assert run(games, "--by", "colour").exit_code == 2
    assert run(games, "--by", "game", "--pooled").exit_code == 2


def test_csv_format_parses(games):
    result = run(games, "--format", "csv", "--pooled")
    table = pd.read_csv(io.StringIO(result.output))
    assert table["table"].unique().tolist() == ["all games"]
    assert sorted(table["player"]) == ["alpha", "beta", "gamma"]
    assert table["elo"].sum() == pytest.approx(0, abs=1e-4)
    assert table["games"].sum() == 24


def test_json_format_and_anchor(games):
    result = run(games, "--format", "json", "--anchor", "beta=1500", "--anchor", "nobody=3")
    assert result.stderr == "warning: --anchor nobody: no player of that name in these games\n"
    data = json.loads(result.stdout)
    pooled = data["tables"][0]
    assert pooled["anchor"] == {"player": "beta", "elo": 1500.0}
    beta = next(r for r in pooled["ratings"] if r["player"] == "beta")
    assert beta["elo"] == pytest.approx(1500) and beta["pm95"] == pytest.approx(0, abs=1e-9)
    assert pooled["ratings"][-1]["los_next"] is None
    assert set(pooled["crosstable"]) == {"alpha", "beta", "gamma"}
    assert pooled["los"]["alpha"]["alpha"] == 0.5


def test_bad_anchor_is_a_usage_error(games):
    result = run(games, "--anchor", "beta")
    assert result.exit_code == 2 and "is not NAME=ELO" in result.output


@pytest.mark.parametrize("elo", ["inf", "nan", "1e9", "\u0663", "1" + "0" * 5000, "12-"])
def test_an_anchor_elo_is_a_plain_bounded_decimal(games, elo):
    result = run(games, "--anchor", f"beta={elo}")
    assert result.exit_code == 2 and "beta=" in result.output and "expected a decimal number" in result.output
    assert len(result.output) < 600


def test_a_negative_anchor_is_read(games):
    result = run(games, "--format", "json", "--anchor", "beta=-250.5")
    assert result.exit_code == 0
    assert json.loads(result.output)["tables"][0]["anchor"] == {"player": "beta", "elo": -250.5}


def test_bad_rows_fail_with_line_numbers_unless_skipped(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(CSV + "anda,5,alpha,beta,zeta\n", encoding="utf-8")
    failed = run(path)
    assert failed.exit_code == 1
    assert f"{path}:14: winner 'zeta' is neither 'alpha' nor 'beta'" in failed.output
    skipped = CliRunner().invoke(ratings, [str(path), "--skip-bad", "--pooled"])
    assert skipped.exit_code == 0
    assert f"warning: skipped {path}:14:" in skipped.stderr
    assert "12 games" in skipped.stdout


def test_out_writes_csv_and_json(games, tmp_path):
    out = tmp_path / "tables"
    result = CliRunner().invoke(ratings, [str(games), "--out", str(out)])
    assert result.exit_code == 0
    names = {p.name for p in out.iterdir()}
    assert {"ratings-all.csv", "ratings-all.json", "advantage-anda-5.csv", "crosstable-spelde-7.json",
            "los-all.csv", "report.txt", "report.json"} <= names
    table = pd.read_csv(out / "ratings-all.csv")
    assert len(table) == 3
    assert json.loads((out / "ratings-anda-5.json").read_text())[0]["rank"] == 1


def test_journal_folder_input(tmp_path):
    from hexarena.results.record.journal import JournalWriter
    from tests.support.records import record
    with JournalWriter(tmp_path / "journal.jsonl") as writer:
        for k, (f, s, w) in enumerate([("a", "b", "a"), ("b", "a", "a"), ("a", "b", "b"), ("b", "a", None)]):
            writer.append(record(str(k), f, s, w))
    result = run(tmp_path, "--pooled")
    assert result.exit_code == 0 and "4 games, 2 players" in result.output


def test_empty_input_and_missing_path(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("game,size,first,second,winner\n", encoding="utf-8")
    assert "no rated games" in run(path).output
    assert run(tmp_path / "missing.csv").exit_code == 2


def test_importable_without_trio():
    code = ("import sys; sys.modules['trio'] = None; import hexarena.commands_ratings, hexarena.results.rating.report; "
            "assert 'trio' not in [m for m in sys.modules if sys.modules[m] is not None]")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_csv_saved_with_a_byte_order_mark_reads_as_without(tmp_path, games):
    marked = tmp_path / "excel.csv"
    marked.write_bytes(b"\xef\xbb\xbf" + CSV.encode())                  # as a spreadsheet saves UTF-8
    assert run(marked).output == run(games).output.replace(str(games), str(marked))
    careful = tmp_path / "quoted.csv"                                  # a quote sends it down the careful pass
    careful.write_bytes(b"\xef\xbb\xbf" + CSV.replace("alpha,beta,alpha", '"alpha",beta,alpha').encode())
    assert "== all games: 12 games, 3 players" in run(careful).output


def test_an_anchor_naming_no_player_is_a_warning_for_a_journal_too():
    folder = Path(__file__).parents[1] / "fixtures" / "journal-schema-1" / "v1"
    result = run(folder, "--anchor", "nobody=3")
    assert result.exit_code == 0 and "== all games" in result.stdout
    assert result.stderr == "warning: --anchor nobody: no player of that name in these games\n"
