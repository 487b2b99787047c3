"""A record whose board side (SGF SZ) is outside 2..13: a clear error where a single file is
read (`show`, `analyse`), a note and the rest of the folder where a folder is read
(`report`, `serve DIR`'s pages), never a traceback or a server error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena import cli
from hexarena.engine import registry
from hexarena.results.page.replay import replay_record
from hexarena.results.record.sgf import SgfError
from tests.support.folders import build_folder
from tests.support.web import start_server

SIZES = ["0", "1", "14", "30", "99999999999"]


def _sgf(size: str) -> str:
    return f"(;FF[4]GM[1]XG[spelde]SZ[{size}]XV[nopie];B[c3])"


@pytest.mark.parametrize("size", SIZES)
def test_a_record_outside_the_boards_range_is_refused_naming_its_side(size):
    with pytest.raises(SgfError, match=rf"root node: board side {size} outside 2\.\.13"):
        replay_record(_sgf(size))


def test_no_game_makes_a_variant_outside_the_range():
    for game in registry.playable():
        for size in (0, 1, 14, -3):
            with pytest.raises(ValueError, match="outside 2..13"):
                registry.get(game).variant(size)


@pytest.mark.parametrize("command", [["show"], ["analyse"]])
def test_commands_reading_one_file_end_with_a_clear_error(tmp_path, command):
    path = tmp_path / "big.sgf"
    path.write_text(_sgf("14"), encoding="utf-8")
    result = CliRunner().invoke(cli.main, [*command, str(path)])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert "board side 14 outside 2..13" in result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr


def _spoil(folder: Path) -> str:
    """The first game's SGF given SZ[14]; its id."""
    first = json.loads((folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()[0])
    path = folder / first["sgf"]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(f"SZ[{first['size']}]", "SZ[14]"), encoding="utf-8")
    return first["id"]


def test_report_notes_the_file_and_shows_the_rest(tmp_path):
    build_folder(tmp_path, 3)
    spoilt = _spoil(tmp_path)
    result = CliRunner().invoke(cli.main, ["report", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    assert f"game {spoilt}: " in result.stderr and "board side 14 outside 2..13" in result.stderr
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "3 games" in result.output and html.count('"m":') >= 2


@pytest.mark.slow
def test_serve_answers_the_game_page_and_refuses_the_board(tmp_path):
    folder = tmp_path / "t"
    build_folder(folder, 2)
    spoilt = _spoil(folder)
    server = start_server(["serve", str(folder)])
    try:
        page = server.request(f"/t/t/game/{spoilt}")
        assert page.status == 200 and "board side 14 outside 2..13" in page.body
        data = server.request(f"/t/t/data/{spoilt}")
        assert data.status == 200 and "board side 14 outside 2..13" in json.loads(data.body)["err"]
        assert server.request(f"/t/t/analyse/{spoilt}").status == 404
        assert server.request("/board/spelde-14.svg").status == 404
        assert server.request("/board/spelde-13.svg").status == 200
    finally:
        code, _, err = server.stop()
    assert code == 130 and "Traceback" not in err
