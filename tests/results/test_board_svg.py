"""Board SVGs: sites drawn = sites of the board, stones where the position says, last action marked."""
import random
import xml.etree.ElementTree as ET

import pytest

from hexarena.engine import registry
from hexarena.engine.actions import Grow, Move, Pair, PieStones, Split
from hexarena.engine.registry import from_position
from hexarena.results.page.board_svg import action_sites, board_svg, board_template, is_point_board

NS = {"s": "http://www.w3.org/2000/svg"}
GAMES = [("anda", 5), ("anda-prison", 4), ("spelde", 5), ("vaxandis", 4), ("marbanta", 5)]


def sites_of(svg: str) -> dict[str, dict[str, str]]:
    root = ET.fromstring(svg)
    return {g.get("data-site"): dict(g.attrib) for g in root.iterfind(".//s:g[@class='site']", NS)}


def play(game: str, size: int, plies: int, seed: int):
    """States and actions of a seeded random game; stops when an action of the wanted kind is seen."""
    info = registry.get(game)
    state = info.new_game(info.variant(size), 0)
    rng = random.Random(seed)
    actions = []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        action = state.random_action(rng)
        actions.append(action)
        state = state.play(action)
    return state, actions


@pytest.mark.parametrize("game, size", GAMES)
def test_every_site_is_drawn_with_its_stone_and_the_last_action_is_marked(game, size):
    for seed in range(4):
        state, actions = play(game, size, 25, seed)
        pos = state.to_position()
        svg = board_svg(pos, actions[-1], state.format(actions[-1]))
        drawn = sites_of(svg)
        board = state.board
        assert set(drawn) == {board.name(b) for b in board.sites}
        assert len(drawn) == board.site_count
        stones = {name: (a["data-stone"], a["data-height"]) for name, a in drawn.items() if a["data-stone"]}
        assert stones == {board.name(b): (c.value, str(h)) for b, (c, h) in pos.stacks.items()}
        marked = {name for name, a in drawn.items() if a.get("data-last") == "1"}
        assert marked == {board.name(b) for b in action_sites(actions[-1])}
        assert f"{pos.to_move.name.capitalize()} to move, phase {state.phase}" in svg
        assert stones                      # the situation checked occurred: stones on the board


@pytest.mark.parametrize("game, size", GAMES)
def test_cells_or_points_as_the_seed_describes(game, size):
    root = ET.fromstring(board_template(game, size))
    cells = root.findall(".//s:polygon[@class='cell']", NS)
    points = root.findall(".//s:circle[@class='point']", NS)
    grid = root.findall(".//s:path[@class='grid']", NS)
    if is_point_board(game):
        assert (len(cells), len(points), len(grid)) == (0, 3 * size * (size - 1) + 1, 1)
    else:
        assert (len(cells), len(points), len(grid)) == (3 * size * (size - 1) + 1, 0, 0)
    assert game in ("anda-prison", "vaxandis") or not is_point_board(game)


@pytest.mark.parametrize("size", [2, 5, 9, 13])
def test_coordinates_along_the_edges_name_every_column_and_row(size):
    root = ET.fromstring(board_template("spelde", size))
    labels = [t.text for t in root.iterfind(".//s:text[@class='coord']", NS)]
    letters = {chr(97 + c) for c in range(2 * size - 1)}
    rows = {str(r) for r in range(1, 2 * size)}
    assert set(labels) == letters | rows
    assert all(labels.count(r) == 2 for r in rows)


@pytest.mark.parametrize("game, kind", [("anda", Pair), ("spelde", Split), ("vaxandis", Move),
                                        ("marbanta", Grow), ("marbanta", PieStones)])
def test_multi_site_actions_mark_every_site_they_touch(game, kind):
    for seed in range(200):
        state, actions = play(game, 5 if game != "vaxandis" else 4, 40, seed)
        hits = [i for i, a in enumerate(actions) if isinstance(a, kind) and len(action_sites(a)) > 1]
        if hits:
            break
    assert hits, f"no {kind.__name__} with several sites in 200 games"
    info = registry.get(game)
    state = info.new_game(info.variant(state.variant.size), 0)
    for action in actions[:hits[0] + 1]:
        state = state.play(action)
    action = actions[hits[0]]
    drawn = sites_of(board_svg(state.to_position(), action))
    marked = {name for name, a in drawn.items() if a.get("data-last") == "1"}
    assert marked == {state.board.name(b) for b in action_sites(action)} and len(marked) > 1


def test_prison_counts_are_shown_for_anda_prison():
    state = from_position("anda-prison 3 b .../..../..b../..../... prison=2,1")
    svg = board_svg(state.to_position())
    assert "prison: 2 black, 1 white" in svg


def test_vaxandis_stack_heights_are_written_on_the_stones():
    state = from_position("vaxandis 3 b b3../..../..w2../..../...")
    root = ET.fromstring(board_svg(state.to_position()))
    heights = {g.get("data-site"): g.find("s:text[@class='height']", NS).text
               for g in root.iterfind(".//s:g[@class='site']", NS)}
    assert heights["a1"] == "3" and heights["c3"] == "2" and heights["b1"] is None


def test_text_under_the_board_is_escaped():
    state = from_position("spelde 3 b .../..../...../..../...")
    svg = board_svg(state.to_position(), None, '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>')
    ET.fromstring(svg)                           # still well-formed XML
    assert "<script>" not in svg and "<img" not in svg
