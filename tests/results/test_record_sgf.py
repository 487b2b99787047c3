"""SGF records: content from docs/protocol.md, parsed back with sgfmill, written atomically."""
from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.results.record.game import Ending, GameRecord, VoidCause
from hexarena.results.record.moves import moves_of_lists
from hexarena.results.record.journal import write_atomic
from tests.support.folders import build_folder
from hexarena.results.record.sgf import SgfError, _plain_game, _read_game, escape, parse_sgf, sgf_text

SPELDE = 1003


def record(actions, outcome=Outcome(Colour.WHITE, Termination.NO_MOVES), swapped=False, komi=None,
           game_id="g/1", think=None, left=None):
    seats = ("alpha", "beta]\\x")
    black, white = (seats[1], seats[0]) if swapped else seats
    winner = None if outcome.winner is None else black if outcome.winner is Colour.BLACK else white
    return GameRecord(id=game_id, game="spelde", size=5, variant="nopie flips=dense", first=seats[0],
                      second=seats[1], black=black, white=white, winner=winner, result=outcome.result(),
                      termination=Ending(outcome.termination.value), plies=len(actions),
                      reason="ended by the rules", started="2025-03-04T05:06:07Z",
                      komi=komi, moves=moves_of_lists([t for _, t in actions], think,
                                                      "".join(c.letter for c, _ in actions), left))


def sgf_of(actions, *args, game_id="g/1", time_props=(), **kw):
    return sgf_text(record(actions, *args, game_id=game_id, **kw), SPELDE, time_props)


def parse(text: str) -> sgf.Sgf_game:
    return sgf.Sgf_game.from_bytes(text.encode("utf-8"))


def test_root_properties_and_actions_parse_with_sgfmill():
    text = sgf_of([(Colour.BLACK, "e5"), (Colour.WHITE, "swap"), (Colour.WHITE, "d4/d5,e4")],
                  game_id="spelde-5-nopie-flips=dense/0003")
    game = parse(text)
    root = game.get_root()
    assert root.get_raw("FF") == b"4" and root.get_raw("CA") == b"UTF-8"
    assert root.get_raw("GM") == b"1003" and root.get_raw("SZ") == b"5"
    assert root.get_raw("XG") == b"spelde" and root.get_raw("XV") == b"nopie flips=dense"
    assert root.get("PB") == "alpha" and root.get("PW") == "beta]\\x"
    assert root.get_raw_list("XF") == [b"alpha", b"beta\\]\\\\x"]
    assert root.get("RE") == "W+" and root.get("DT") == "2025-03-04"
    assert root.get_raw("XR") == b"no-moves: ended by the rules"
    assert root.get("GN") == "spelde-5-nopie-flips=dense/0003"
    nodes = game.get_main_sequence()[1:]
    assert [list(n.properties()) for n in nodes] == [["B"], ["W"], ["W"]]
    assert [n.get_raw(list(n.properties())[0]) for n in nodes] == [b"e5", b"swap", b"d4/d5,e4"]


def test_players_are_named_by_colour_at_the_end_after_a_swap():
    root = parse(sgf_of([(Colour.BLACK, "e5"), (Colour.WHITE, "swap")], swapped=True)).get_root()
    assert root.get("PB") == "beta]\\x" and root.get("PW") == "alpha"
    assert root.get_raw_list("XF")[0] == b"alpha"          # seats do not move


@pytest.mark.parametrize("outcome, re", [
    (Outcome(Colour.BLACK, Termination.RESIGN), "B+R"),
    (Outcome(Colour.WHITE, Termination.TIME), "W+T"),
    (Outcome(Colour.BLACK, Termination.ILLEGAL), "B+F"),
    (Outcome(Colour.BLACK, Termination.AGREEMENT, 2.5), "B+2.5"),
    (Outcome(None, Termination.PLY_CAP), "0"),
])
def test_result_values(outcome, re):
    assert parse(sgf_of([], outcome)).get_root().get("RE") == re


def test_a_void_game_has_no_sgf_record():
    void = GameRecord.voided("g/1", "spelde", 5, "pie", "a", "b", VoidCause.START, "did not start")
    with pytest.raises(ValueError, match="only a finished game"):
        sgf_text(void, SPELDE)


def test_think_times_clocks_and_time_control():
    text = sgf_of([(Colour.BLACK, "e5"), (Colour.WHITE, "d4")], think=[0.5, 1.25], left=[59.5, None],
                  time_props=[("TM", ("60",)), ("OT", ("main 60 s + 0 s per move",))])
    root, first, second = parse(text).get_main_sequence()
    assert root.get_raw("TM") == b"60" and root.get_raw("OT") == b"main 60 s + 0 s per move"
    assert first.get_raw("XT") == b"0.5" and first.get_raw("BL") == b"59.5"
    assert second.get_raw("XT") == b"1.25" and not second.has_property("WL")


def test_the_reader_reads_what_the_writer_writes():
    text = sgf_of([(Colour.BLACK, "e5"), (Colour.WHITE, "swap")], komi=2, think=[None, 0.25])
    nodes = parse_sgf(text)
    assert nodes[0].get("XK") == "2" and nodes[0].props["XF"] == ["alpha", "beta]\\x"]
    assert [n.get("B") or n.get("W") for n in nodes[1:]] == ["e5", "swap"]
    assert nodes[1].get("XT") is None and nodes[2].get("XT") == "0.25"


def test_komi_and_escaping():
    root = parse(sgf_of([(Colour.BLACK, "a]b\\c")], komi=3)).get_root()
    assert root.get_raw("XK") == b"3"
    move = parse(sgf_of([(Colour.BLACK, "a]b\\c")])).get_main_sequence()[1]
    assert move.get_raw("B") == b"a\\]b\\\\c"
    assert escape("x]y\\") == "x\\]y\\\\"


def test_write_atomic_replaces_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "games" / "g" / "0001.sgf"
    write_atomic(path, "(;FF[4])\n")
    write_atomic(path, "(;FF[4]GM[1003])\n")
    assert path.read_text() == "(;FF[4]GM[1003])\n"
    assert os.listdir(path.parent) == ["0001.sgf"]


def test_a_summary_drops_the_moves_and_keeps_the_rest():
    played = record([(Colour.BLACK, "e5"), (Colour.WHITE, "d4")], think=[0.5, 0.25], left=[9.0, 8.0])
    first = replace(played.moves[0], analysis=({"line": "info winrate 0.5 pv e5", "winrate": 0.5, "pv": ["e5"]},))
    whole = replace(played, moves=(first, played.moves[1]), identities=[["eng", "1"], [None, None]])
    short = whole.summary()
    assert short.moves is None and short.tokens is None and whole.tokens == ["e5", "d4"]
    assert short.winner == whole.winner and short.plies == 2 and short.result == whole.result
    assert short.identities == whole.identities
    assert short.summary() is short


def _read(read, text):
    try:
        return [node.props for node in read(text)]
    except SgfError as exc:
        return str(exc)


def test_games_read_a_node_a_match_are_read_as_character_by_character(tmp_path):
    """parse_sgf reads a game without escapes a node a match (`_plain_game`); whatever it
    reads that way is what the character-by-character reader (`_read_game`) gives."""
    rng = random.Random(11)
    parts = ["(", ")", ";", "[", "]", "\\", "\n", " ", "\t", "\x1c", "\u00a0", "é", "B", "W", "XA", "a",
             "\\\n", "B[", "[x]", "W[y]", ";B[a]", "[;]", "[(]", "[]"]
    plain = 0
    for _ in range(40_000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 14)))
        text = ("(;" if rng.random() < 0.6 else "") + text + (")" if rng.random() < 0.5 else "")
        fast = _plain_game(text)
        if fast is not None:
            plain += 1
            assert [node.props for node in fast] == _read(_read_game, text), text
        assert _read(parse_sgf, text) == _read(_read_game, text), text
    build_folder(tmp_path, 5)                    # the referee's records: read a node a match
    for path in (tmp_path / "games").iterdir():
        text = path.read_text(encoding="utf-8")
        assert _plain_game(text) is not None and _read(parse_sgf, text) == _read(_read_game, text)
    assert plain > 1000


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="ab]\\[;c1/,", min_size=1, max_size=8),
                          st.one_of(st.none(), st.floats(min_value=0, max_value=1e9, allow_nan=False)),
                          st.one_of(st.none(), st.floats(allow_nan=False))), min_size=1, max_size=6))
def test_each_move_s_action_and_times_read_back_as_written(moves):
    """Every action (escaped where it holds `\\` or `]`) and time (XT, BL/WL as `:g` writes them)
    reads back, by sgfmill and by parse_sgf, whatever the action holds."""
    actions = [(Colour.BLACK if i % 2 == 0 else Colour.WHITE, a) for i, (a, _, _) in enumerate(moves)]
    think = [t for _, t, _ in moves]
    left = [None if t is None else lf for _, t, lf in moves]      # a clock left only beside a think time
    text = sgf_text(record(actions, think=think, left=left), SPELDE)
    ours = parse_sgf(text)[1:]
    for node, mill, (colour, action), t, lf in zip(ours, parse(text).get_main_sequence()[1:], actions, think, left):
        letter = colour.letter
        assert node.get(letter) == action and mill.get_raw(letter).decode() == escape(action)
        assert node.get("XT") == (None if t is None else f"{t:g}")
        assert node.get(f"{letter}L") == (None if t is None or lf is None else f"{lf:g}")


def test_a_record_past_its_nodes_or_a_node_past_its_values_is_refused_where_it_goes_past() -> None:
    from hexarena.engine import registry
    from hexarena.engine.geometry import MAX_SIZE, MIN_SIZE
    from hexarena.results.record.sgf import MAX_NODES, MAX_VALUES
    longest = max(registry.get(g).ply_cap(n) for g in registry.playable() for n in range(MIN_SIZE, MAX_SIZE + 1))
    assert MAX_NODES > 2 * longest                      # every game a run can write, with a margin
    nodes = "(;FF[4]" + ";B[a1]XT[0]" * MAX_NODES + ")"       # one node past: the root and MAX_NODES actions
    for read in (parse_sgf, _read_game):
        with pytest.raises(SgfError, match=f"^line 1, column {7 + 11 * (MAX_NODES - 1) + 1}: more than {MAX_NODES} nodes"):
            read(nodes)
    assert len(parse_sgf("(;FF[4]" + ";B[a1]XT[0]" * (MAX_NODES - 1) + ")")) == MAX_NODES
    values = "(;FF[4]XA" + "[a]" * MAX_VALUES + ")"             # FF's value and MAX_VALUES of XA
    for read in (parse_sgf, _read_game):
        with pytest.raises(SgfError, match=f"^line 1, column {10 + 3 * (MAX_VALUES - 1)}: a node with more than"):
            read(values)
    props = "(;FF[4]" + "".join(f"X{chr(65 + i // 676)}{chr(65 + i // 26 % 26)}{chr(65 + i % 26)}[a]" for i in range(MAX_VALUES)) + ")"
    with pytest.raises(SgfError, match="a node with more than 1000 property values"):
        parse_sgf(props)
