"""The text board of `hexarena show`: coordinates on the edges, the last action in parentheses."""
from hexarena.engine.registry import from_position
from hexarena.protocol.diagram import diagram


def test_edges_name_every_row_and_column_where_hgp_puts_them():
    state = from_position("spelde 3 b .../..../...../..../... variant=nopie")
    lines = diagram(state, edges=True).splitlines()
    assert lines[0] == "spelde nopie 3, ply 0, black to move, phase play"
    board = lines[1:]
    assert [line.split()[0] for line in board[:5]] == ["5", "4", "3", "2", "1"]
    assert board[5].split() == ["a", "b", "c"]              # under row 1: the columns that reach it
    assert board[4].split()[-1] == "d" and board[3].split()[-1] == "e"   # past the lower-right edge
    assert all(len(line.split()) == 1 + n for line, n in zip(board[:3], (3, 4, 5)))


def test_marked_sites_are_in_parentheses_and_prison_and_phase_are_shown():
    state = from_position("anda-prison 3 w .../..../..b../..../... prison=2,1")
    c3 = state.board.parse("c3")
    text = diagram(state, frozenset({c3}), edges=True, last_token="c3")
    assert "(b)" in text and "prison: 2 black, 1 white" in text and "last: c3" in text
    assert text.count("(") == 2                               # the site and the explanation
