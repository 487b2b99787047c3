"""The boards pictured in README.md and docs/report.md (docs/img/board-GAME.svg) are what the
project's own drawing (results/page/board_svg.py, as `hexarena show --svg` writes it) gives for
the position each picture shows, and README shows the five in one row."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.geometry import hexagon
from hexarena.engine.position import Position
from hexarena.results.page.board_svg import board_svg

ROOT = Path(__file__).resolve().parents[2]
SITE = re.compile(r'<g class="site" data-site="([a-z]\d+)" data-stone="([bw]?)" data-height="(\d*)"')
STATUS = re.compile(r'<text class="status" data-line="(\d)"[^>]*>([^<]*)</text>')


def _picture(game: str) -> str:
    return (ROOT / "docs" / "img" / f"board-{game}.svg").read_text(encoding="utf-8")


def _shown(svg: str) -> tuple[Position, str]:
    """The position and last token a picture shows, read from its sites and status lines."""
    size = int(re.search(r'data-size="(\d+)"', svg).group(1))
    game = re.search(r'data-game="([^"]+)"', svg).group(1)
    board = hexagon(size)
    stacks = {board.parse(name): (Colour(stone), int(height))
              for name, stone, height in SITE.findall(svg) if stone}
    lines = dict(STATUS.findall(svg))
    mover, phase = re.fullmatch(r"(\w+) to move, phase (\S+)", lines["0"]).groups()
    keys = {"phase": phase, "ply": lines["1"].rpartition("ply ")[2]}
    prison = re.match(r"prison: (\d+) black, (\d+) white", lines["1"])
    if prison:
        keys["prison"] = ",".join(prison.groups())
    return Position(game, size, Colour(mover[0].lower()), stacks, keys), lines["2"].removeprefix("last: ")


@pytest.mark.parametrize("game", list(registry.GAME_MODULES))
def test_each_picture_is_the_drawing_of_its_position(game):
    svg = _picture(game)
    position, token = _shown(svg)
    last = registry.get(game).parse_action(token, hexagon(position.size))
    assert board_svg(position, last, token) == svg.rstrip("\n")


def test_readme_shows_the_five_boards_in_one_row():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next((line for line in readme.splitlines() if line.count("docs/img/board-") == 5), None)
    assert row is not None, "README has no row of the five boards"
    assert [m for m in re.findall(r"docs/img/board-([\w-]+)\.svg", row)] == list(registry.GAME_MODULES)
