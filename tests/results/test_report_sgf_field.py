"""The report reads a record's `sgf` field only as a regular file inside the folder's games/, size-bounded."""
from __future__ import annotations

import json
import os

from click.testing import CliRunner

from hexarena import cli
from hexarena.results.page.replay_cache import MAX_SGF_BYTES, RecordFieldError, record_file
from tests.support.folders import build_folder
from tests.support.page_check import page_data

SECRET = "Zq7secretname"


def test_sgf_fields_outside_games_or_not_regular_files_are_bad_fields_never_read(tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, 8)
    real = (folder / "games").iterdir().__next__().read_text(encoding="utf-8")
    outside = tmp_path / "outside.sgf"                   # a valid record outside the folder
    outside.write_text(real.replace("PB[", f"PB[{SECRET}"), encoding="utf-8")
    (folder / "games" / "link.sgf").symlink_to(outside)
    (folder / "games" / "sub").mkdir()
    big = folder / "games" / "big.sgf"
    with open(big, "wb") as fh:
        fh.truncate(MAX_SGF_BYTES + 1)
    fields = ["/etc/passwd", "../outside.sgf", "games/../../outside.sgf", "games/link.sgf", "/dev/null",
              "games/sub", "games/big.sgf", "games/a\x00b.sgf"]
    journal = folder / "journal.jsonl"
    records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    for record, field in zip(records, fields):
        record["sgf"] = field
    journal.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["report", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert SECRET not in html and "root:" not in html
    games = page_data(html)["games"]
    expected = ["not a relative path", "not a file inside games/", "not a file inside games/",
                "not a file inside games/", "not a relative path", "not a regular file",
                f"{MAX_SGF_BYTES + 1} bytes, over {MAX_SGF_BYTES}", "not a relative path"]
    for game, field, reason in zip(games, fields, expected):
        assert game["err"] == f"sgf field {field!r}: {reason}"
        assert f"game {game['id']}: sgf field" in result.stderr
        assert "m" not in game and "bd" not in game     # nothing of the file reached the page


def test_a_missing_record_file_is_still_named_as_missing(tmp_path):
    build_folder(tmp_path, 2)
    journal = tmp_path / "journal.jsonl"
    first = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
    os.unlink(tmp_path / first["sgf"])
    result = CliRunner().invoke(cli.main, ["report", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0 and "sgf field" not in result.stderr
    games = page_data((tmp_path / "report.html").read_text(encoding="utf-8"))["games"]
    assert games[0]["err"] == f"{os.path.basename(first['sgf'])}: the record is missing"
    assert "err" not in games[1] and "m" in games[1]


def _resolved_as_a_path_resolves(folder, relative):
    """record_file's answer taken from ``Path.resolve`` of the whole path (the definition)."""
    try:
        base, target = (folder / "games").resolve(), (folder / relative).resolve()
    except (OSError, RuntimeError):
        return "field"
    if not target.is_relative_to(base) or target == base:
        return "field"
    try:
        st = target.stat()
    except OSError:
        return "missing"
    return (target, st.st_ino) if os.path.isfile(target) and st.st_size <= MAX_SGF_BYTES else "field"


def test_record_file_with_the_folders_kept_resolves_as_the_whole_path(tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, 3)
    games = folder / "games"
    name = next(games.iterdir()).name
    (tmp_path / "outside.sgf").write_text("(;)", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / name).write_text("(;)", encoding="utf-8")
    (games / "in.sgf").symlink_to(games / name)               # a link to a record inside
    (games / "out.sgf").symlink_to(tmp_path / "outside.sgf")  # a link leading out
    (games / "dangling.sgf").symlink_to(games / "none.sgf")
    (games / "loop.sgf").symlink_to(games / "loop.sgf")
    (games / "sub").mkdir()
    (games / "sub" / "x.sgf").write_text("(;)", encoding="utf-8")
    (games / "away").symlink_to(tmp_path / "elsewhere")       # a folder link leading out
    (games / "here").symlink_to(games)                        # a folder link back inside
    fields = [f"games/{name}", "games/in.sgf", "games/out.sgf", "games/dangling.sgf", "games/loop.sgf",
              "games/sub/x.sgf", "games/sub/../sub/x.sgf", f"games/away/{name}", f"games/here/{name}",
              "games/sub", "games/sub/", "games/.", "games/..", f"games/../games/{name}", "games/none.sgf",
              "none/x.sgf", f"games/{name}/x", f"./games/{name}", f"games//{name}", "games/here/here/sub/x.sgf",
              "games/sub/x.sgf/..", "journal.jsonl"]
    folders: dict = {}
    for field in fields:
        try:
            path, st = record_file(folder, field, folders)
            got = (path, st.st_ino)
        except RecordFieldError:
            got = "field"
        except OSError:
            got = "missing"
        assert got == _resolved_as_a_path_resolves(folder, field), field
