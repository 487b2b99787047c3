import random

import pytest

from hexarena.engine import registry
from hexarena.engine.core import Outcome, Termination
from hexarena.results.record.game import Ending, GameRecord
from hexarena.results.record.moves import moves_of_lists
from hexarena.results.record.sgf import SgfError, parse_sgf, sgf_text
from hexarena.results.page.replay import replay_record


def test_reader_handles_escapes_soft_breaks_and_several_values():
    nodes = parse_sgf("(;FF[4]XR[a\\]b\\\\c]C[one\\\ntwo]XF[p][q]\n;B[e5] ;W[swap])")
    assert nodes[0].props["XR"] == ["a]b\\c"]
    assert nodes[0].get("C") == "onetwo"
    assert nodes[0].props["XF"] == ["p", "q"]
    assert [n.get("B") or n.get("W") for n in nodes[1:]] == ["e5", "swap"]


@pytest.mark.parametrize("text, where", [
    ("", "line 1, column 1: expected '('"),
    ("(;FF[4]", "not closed with ')'"),
    ("(;FF[4]C[open", "not closed with ']'"),
    ("(;FF[4](;B[e5]))", "variations"),
    ("(;FF[4]FF[4])", "appears twice"),
    ("(;FF)", "has no value"),
    ("(;FF[4])(;FF[4])", "only one game"),
    ("(;FF[4]\n x)", "line 2, column 2"),
])
def test_reader_errors_say_what_and_where(text, where):
    with pytest.raises(SgfError, match=where.replace("(", "\\(").replace(")", "\\)")):
        parse_sgf(text)


def _record(game: str, size: int, plies: int, seed: int) -> tuple[str, list]:
    info = registry.get(game)
    variant = info.variant(size)
    state = info.new_game(variant, 0)
    rng = random.Random(seed)
    actions, colours = [], ""
    states = [state]
    while state.outcome() is None and len(states) <= plies:
        action = state.random_action(rng)
        actions.append(state.format(action))
        colours += state.to_move.letter
        state = state.play(action)
        states.append(state)
    outcome = state.outcome() or Outcome(None, Termination.PLY_CAP)
    record = GameRecord(id=f"{game}-{size}/0000", game=game, size=size, variant=info.describe(variant).partition(" ")[2],
                        first="alpha", second="beta", black="alpha", white="beta", winner=None,
                        result=outcome.result(), termination=Ending(outcome.termination.value), plies=len(actions),
                        moves=moves_of_lists(actions, colours=colours))
    return sgf_text(record, info.sgf_number), states


@pytest.mark.parametrize("game, size", [("spelde", 5), ("anda", 5), ("anda-prison", 5), ("vaxandis", 4),
                                        ("marbanta", 5)])
def test_referee_records_replay_to_the_same_positions(game, size):
    text, states = _record(game, size, 60, seed=3)
    rep = replay_record(text)
    assert [s.position() for s in rep.states] == [s.position() for s in states]
    assert rep.header.get("XG") == game


def test_a_record_that_breaks_the_rules_is_reported_at_its_ply():
    base = "(;FF[4]GM[1003]SZ[5]XG[spelde]XV[pie]"
    assert len(replay_record(base + ";B[e5];W[swap];W[a1])").states) == 4
    with pytest.raises(SgfError, match="ply 2: 'e5': .*occupied"):
        replay_record(base + ";B[e5];W[e5])")
    with pytest.raises(SgfError, match="ply 2: black plays"):
        replay_record(base + ";B[e5];B[a1])")
    with pytest.raises(SgfError, match="ply 1: 'e8-e6'"):
        replay_record(base + ";B[e8-e6])")
    with pytest.raises(SgfError, match="no XG"):
        replay_record("(;FF[4]SZ[5];B[e5])")
    with pytest.raises(SgfError, match="root node: .*frob"):
        replay_record("(;FF[4]SZ[5]XG[spelde]XV[frob])")
    with pytest.raises(SgfError, match="node 1: expected exactly one"):
        replay_record(base + ";B[e5]W[a1])")


def test_render_command_draws_the_final_or_chosen_position(tmp_path):
    from click.testing import CliRunner

    from hexarena.cli import main
    text, states = _record("spelde", 5, 99, seed=4)
    path = tmp_path / "g.sgf"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(main, ["render", str(path)])
    assert res.exit_code == 0, res.output
    assert "alpha" in res.output and f"ply {states[-1].ply}, over" in res.output
    res = runner.invoke(main, ["render", str(path), "--ply", "1"])
    assert res.exit_code == 0 and "ply 1, white to move" in res.output and "a   b   c   d   e" in res.output
    res = runner.invoke(main, ["render", str(path), "--ply", "999"])
    assert res.exit_code != 0 and "actions" in res.output
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]SZ[5]XG[spelde];B[e5];W[e5])", encoding="utf-8")
    res = runner.invoke(main, ["render", str(bad)])
    assert res.exit_code == 1 and "ply 2: 'e5'" in res.output
    assert bad.read_text(encoding="utf-8").startswith("(;FF[4]")


def test_show_draws_a_position_string_and_writes_svg(tmp_path):
    import xml.etree.ElementTree as ET

    from click.testing import CliRunner

    from hexarena.cli import main
    runner = CliRunner()
    position = "vaxandis 3 b b3../..../..w2../..../... "
    res = runner.invoke(main, ["show", position])
    assert res.exit_code == 0, res.output
    assert "phase play" in res.output and "b3" in res.output and "w2" in res.output
    out = tmp_path / "p.svg"
    res = runner.invoke(main, ["show", position, "--svg", str(out)])
    assert res.exit_code == 0 and ET.fromstring(out.read_text(encoding="utf-8")).get("data-game") == "vaxandis"
    res = runner.invoke(main, ["show", "nosuchfile.sgf"])
    assert res.exit_code == 2 and "neither a file nor a position string" in res.output
    res = runner.invoke(main, ["show", "vaxandis 3 b b3../.."])
    assert res.exit_code == 1 and "position:" in res.output and "rows" in res.output


def test_show_svg_of_a_record_marks_the_chosen_action(tmp_path):
    import xml.etree.ElementTree as ET

    from click.testing import CliRunner

    from hexarena.cli import main
    text, states = _record("marbanta", 5, 30, seed=2)
    path = tmp_path / "g.sgf"
    path.write_text(text, encoding="utf-8")
    rep = replay_record(text)
    for ply in (1, 7, len(states) - 1):
        out = tmp_path / f"{ply}.svg"
        res = CliRunner().invoke(main, ["show", str(path), "--ply", str(ply), "--svg", str(out)])
        assert res.exit_code == 0, res.output
        root = ET.fromstring(out.read_text(encoding="utf-8"))
        marked = {g.get("data-site") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-last")}
        board = states[0].board
        from hexarena.results.page.board_svg import action_sites
        assert marked == {board.name(b) for b in action_sites(rep.actions[ply - 1])} and marked
