"""SGF records: content from PROTOCOL.md, parsed back with sgfmill, written atomically."""
from __future__ import annotations

import os

import pytest
from sgfmill import sgf

from hexarena.engine import registry
from hexarena.engine.core import Colour, Outcome, Termination
from hexarena.referee.match import Report
from hexarena.referee.sgf import escape, sgf_text, write_atomic


def report(actions, outcome=Outcome(Colour.WHITE, Termination.NO_MOVES), swapped=False, komi=None):
    info = registry.get("spelde")
    r = Report(info, info.variant(5, ["nopie", "flips=dense"]), ("alpha", "beta]\\x"), komi)
    r.actions = actions
    r.outcome = outcome
    r.reason = "ended by the rules"
    r.started = "2025-03-04T05:06:07Z"
    if swapped:
        r.holder = {Colour.BLACK: 1, Colour.WHITE: 0}
    return r


def parse(text: str) -> sgf.Sgf_game:
    return sgf.Sgf_game.from_bytes(text.encode("utf-8"))


def test_root_properties_and_actions_parse_with_sgfmill():
    text = sgf_text(report([(Colour.BLACK, "e5"), (Colour.WHITE, "swap"), (Colour.WHITE, "d4/d5,e4")]),
                  "spelde-5-nopie-flips=dense/0003")
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
    root = parse(sgf_text(report([(Colour.BLACK, "e5"), (Colour.WHITE, "swap")], swapped=True), "g/1")).get_root()
    assert root.get("PB") == "beta]\\x" and root.get("PW") == "alpha"
    assert root.get_raw_list("XF")[0] == b"alpha"          # seats do not move


@pytest.mark.parametrize("outcome, re", [
    (Outcome(Colour.BLACK, Termination.RESIGN), "B+R"),
    (Outcome(Colour.WHITE, Termination.TIME), "W+T"),
    (Outcome(Colour.BLACK, Termination.ILLEGAL), "B+F"),
    (Outcome(Colour.BLACK, Termination.AGREEMENT, 2.5), "B+2.5"),
    (Outcome(None, Termination.PLY_CAP), "0"),
    (None, "Void"),
])
def test_result_values(outcome, re):
    assert parse(sgf_text(report([], outcome), "g/1")).get_root().get("RE") == re


def test_komi_and_escaping():
    root = parse(sgf_text(report([(Colour.BLACK, "a]b\\c")], komi=3), "g/1")).get_root()
    assert root.get_raw("XK") == b"3"
    move = parse(sgf_text(report([(Colour.BLACK, "a]b\\c")]), "g/1")).get_main_sequence()[1]
    assert move.get_raw("B") == b"a\\]b\\\\c"
    assert escape("x]y\\") == "x\\]y\\\\"


def test_write_atomic_replaces_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "games" / "g" / "0001.sgf"
    write_atomic(path, "(;FF[4])\n")
    write_atomic(path, "(;FF[4]GM[1003])\n")
    assert path.read_text() == "(;FF[4]GM[1003])\n"
    assert os.listdir(path.parent) == ["0001.sgf"]
