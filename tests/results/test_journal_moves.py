"""A game's moves in the journal: schema 3 writes one list of moves and reads it back; a folder
written with schema 2 (tests/fixtures/journal-schema-2, with analysis, clocks, an opening and
void games) reads into the same moves, rates and reports as it did, and its SGF files are
written again byte for byte; a journal field of the wrong type is an error naming line and field."""
from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.engine import registry
from hexarena.results.record.game import SCHEMA, GameRecord
from hexarena.results.record.journal import JournalError, read_journal
from hexarena.results.record.moves import Move
from hexarena.results.record.sgf import parse_sgf, sgf_text

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "journal-schema-2"
LINES = ({"line": "info winrate 0.62 pv d4 e5", "winrate": 0.62, "pv": ["d4", "e5"]},)


def copy(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE / "v2", tmp_path / "v2")
    return tmp_path / "v2"


def played() -> GameRecord:
    moves = (Move("c3", "B"), Move("d4", "W", 0.25, 59.75, LINES), Move("swap", "B", 0.5, None, ()),
             Move("e5", "W", 1.0, 58.5))
    return GameRecord(id="g/0001", game="spelde", size=4, variant="pie", first="a", second="b", black="b",
                      white="a", winner="a", result="W+", termination="no-moves", plies=4, opening=1,
                      started="2026-01-01T00:00:00Z", seconds=3.5, moves=moves)


def test_schema_3_writes_one_list_of_moves_and_reads_it_back():
    record = played()
    data = json.loads(record.to_json())
    assert data["schema"] == SCHEMA == 3
    assert not {"actions", "think", "colours", "left", "analysis"} & set(data)
    assert data["moves"] == [{"a": "c3", "c": "B"}, {"a": "d4", "c": "W", "t": 0.25, "l": 59.75, "i": list(LINES)},
                             {"a": "swap", "c": "B", "t": 0.5, "i": []}, {"a": "e5", "c": "W", "t": 1.0, "l": 58.5}]
    assert GameRecord.from_dict(data) == record
    assert GameRecord.from_dict(record.to_dict()) == record       # the form a cluster worker sends
    assert GameRecord.from_dict(json.loads(replace(record, moves=None).to_json())).moves is None


def test_a_schema_2_folder_reads_into_moves_and_its_sgf_files_are_written_again_byte_for_byte(tmp_path):
    records = read_journal(copy(tmp_path))
    assert {r.schema for r in records} == {2} and len(records) == 14
    lines = [json.loads(line) for line in (FIXTURE / "v2" / "journal.jsonl").read_text().splitlines()]
    for record, line in zip(records, lines):
        moves = record.moves or ()
        assert [m.action for m in moves] == line["actions"]
        assert "".join(m.colour or "" for m in moves) == line["colours"]
        assert [m.think for m in moves] == line["think"] and [m.left for m in moves] == line["left"]
        analysis = line["analysis"] or [None] * len(moves)
        assert [None if m.analysis is None else list(m.analysis) for m in moves] == analysis
    written = [r for r in records if r.sgf is not None]
    assert len(written) == 8 and any(r.opening for r in written) and any(m.analysis for r in written for m in r.moves)
    for record in written:
        text = (FIXTURE / "v2" / record.sgf).read_text(encoding="utf-8")
        root = parse_sgf(text)[0]
        clock = [(name, tuple(root.props[name])) for name in ("TM", "OT") if name in root.props]
        assert sgf_text(record, registry.get(record.game).sgf_number, clock) == text, record.id


@pytest.mark.parametrize("command, expected", [("ratings", "v2.ratings.txt"), ("status", "v2.status.txt")])
def test_ratings_and_status_of_a_schema_2_folder_are_unchanged(tmp_path, command, expected):
    folder = copy(tmp_path)
    result = CliRunner().invoke(main, [command, str(folder)])
    assert result.exit_code == 0, result.output
    before = (FIXTURE / expected).read_text()
    assert result.output == before.replace("tests/fixtures/journal-schema-2/v2", str(folder))


def test_a_journal_line_resumed_in_schema_3_keeps_the_schema_2_folder_s_ratings(tmp_path):
    folder = copy(tmp_path)
    journal = folder / "journal.jsonl"
    journal.write_text("".join(r.to_json() + "\n" for r in read_journal(folder)), encoding="utf-8")
    assert {r.schema for r in read_journal(folder)} == {3}
    result = CliRunner().invoke(main, ["ratings", str(folder)])
    assert result.output == (FIXTURE / "v2.ratings.txt").read_text()


@pytest.mark.parametrize("field, value, said", [
    ("seconds", "1.5", "field 'seconds' must be a number, got \"1.5\""),
    ("reason", 7, "field 'reason' must be a string, got 7"),
    ("faulty", ["a"], "field 'faulty' must be a string or null"),
    ("opening", 1.5, "field 'opening' must be an integer, got 1.5"),
    ("processes", "1 2", "field 'processes' must be null or a list"),
    ("schema", 9, "field 'schema': 9 is not a schema this release reads"),
    ("moves", {"a": "c3"}, "field 'moves' must be a list or null"),
    ("moves", [{"a": "c3", "c": "B"}, {"a": 4}], "field 'moves': move 2: 'a' must be a string"),
    ("moves", [{"a": "c3", "c": "X"}], "field 'moves': move 1: 'c' must be B or W"),
    ("moves", [{"a": "c3", "c": "B", "t": "fast"}], "field 'moves': move 1: 't' must be a number of seconds"),
    ("moves", [{"a": "c3", "c": "B", "i": [{"winrate": 1}]}], "field 'moves': move 1: 'i' must be null or a list of objects"),
    ("moves", [{"a": "c3", "x": 1}], "field 'moves': move 1: unknown key(s) x"),
])
def test_a_field_of_the_wrong_type_is_an_error_naming_the_line_and_the_field(tmp_path, field, value, said):
    good = played().to_json()
    bad = json.dumps({**json.loads(good), "id": "g/0002", field: value})    # a game of its own (one record a game)
    journal = tmp_path / "journal.jsonl"
    journal.write_text(good + "\n" + bad + "\n", encoding="utf-8")
    errors: list[JournalError] = []
    assert len(read_journal(journal, errors)) == 1
    assert [(e.line, e.reason) for e in errors] == [(2, errors[0].reason)] and said in errors[0].reason
    result = CliRunner().invoke(main, ["ratings", str(journal)])
    said = result.output + result.stderr
    assert "Traceback" not in said
    assert f"{journal}:2:" in said          # ratings read summaries, which refuse the lines a whole read refuses


@pytest.mark.parametrize("changes, said", [
    ({"winner": "b"}, "result \"W+\" against winner 'b' (black 'b', white 'a')"),
    ({"result": "B+R"}, "result \"B+R\" against winner 'a'"),
    ({"result": "0"}, "result \"0\" against winner 'a'"),
    ({"winner": None}, "result \"W+\" against winner None"),
    ({"result": "a+"}, "result \"a+\" is not 0, Void, B+... or W+..."),
    ({"black": "a"}, "black 'a' and white 'a' are not the players 'a' and 'b'"),
    ({"white": "c"}, "black 'b' and white 'c' are not the players 'a' and 'b'"),
    ({"result": "Void"}, "a void game has result 'Void', termination 'void' and no winner"),
    ({"termination": "void", "winner": None, "result": "0"}, "a void game has result"),
    ({"winner": "c"}, "winner 'c' is neither player"),
])
def test_a_record_whose_fields_contradict_each_other_is_an_error_naming_the_line(tmp_path, changes, said):
    """Who won is said three times (the winner, the result's colour, the colours' holders): a hand-edited
    line that says two things is refused, as a line of the wrong types is, not rated one way and shown
    another (ratings read `winner`, the pages and SGF `result`)."""
    good = played().to_json()
    bad = json.dumps({**json.loads(good), "id": "g/0002", **changes})
    journal = tmp_path / "journal.jsonl"
    journal.write_text(good + "\n" + bad + "\n", encoding="utf-8")
    errors: list[JournalError] = []
    assert len(read_journal(journal, errors)) == 1
    assert [e.line for e in errors] == [2] and said in errors[0].reason, errors
    result = CliRunner().invoke(main, ["ratings", str(journal)])
    assert "Traceback" not in result.output + result.stderr and f"{journal}:2:" in result.output + result.stderr


def test_records_that_agree_with_themselves_are_read():
    for changes in ({}, {"winner": None, "result": "0"}, {"winner": "b", "result": "B+F"},
                    {"first": "a", "second": "a", "black": "a", "white": "a", "winner": "a"},
                    {"termination": "void", "winner": None, "result": "Void"}):
        record = GameRecord.from_dict({**json.loads(played().to_json()), **changes})
        assert record.winner == changes.get("winner", "a")


@pytest.mark.parametrize("field, value, said", [
    ("think", [0.5, "x"], "field 'think': action 2 must be a number of seconds"),
    ("left", {"a": 1}, "field 'left' must be a list or null"),
    ("colours", "BQ", "field 'colours' must be a string of B and W"),
    ("actions", ["c3", 4], "field 'actions' must be a list of strings"),
    ("moves", [], "unknown field(s) moves"),
])
def test_a_schema_2_line_s_lists_are_checked_too(field, value, said):
    line = json.loads((FIXTURE / "v2" / "journal.jsonl").read_text().splitlines()[0])
    with pytest.raises(ValueError) as caught:
        GameRecord.from_dict({**line, field: value})
    assert said in str(caught.value)


def test_a_record_crosses_a_pickle_with_every_move_as_it_was():
    """A worker process sends its records to the runner pickled (referee/tournament/wire.py)."""
    import pickle
    for record in read_journal(FIXTURE / "v2" / "journal.jsonl"):
        assert pickle.loads(pickle.dumps(record, pickle.HIGHEST_PROTOCOL)) == record
    moves = (Move("d4", "B", 0.25, 9.75, LINES), Move("swap", "W"), Move("e5", None, None, None, ()))
    again = pickle.loads(pickle.dumps(moves, pickle.HIGHEST_PROTOCOL))
    assert again == moves and [m.analysis for m in again] == [LINES, None, ()]


@pytest.mark.parametrize("obj", [
    {"a": "c3"}, {"a": "c3", "c": "W", "t": 0.5, "l": 3}, {"a": "c3", "c": "B", "i": []}, {"a": "c3", "t": 1, "i": None},
    {"a": "c3", "c": "B", "t": 0.25, "l": 9.5, "i": [{"line": "info visits 3", "visits": 3}]},
    {"a": "c3", "t": True}, {"a": "c3", "c": "X"}, {"a": 3}, {"a": "c3", "l": "1"}, {"a": "c3", "i": {}},
    {"a": "c3", "i": [1]}, {"a": "c3", "z": 1}, ["c3"], {"c": "B"},
])
def test_each_move_reads_as_its_keys_checked_one_by_one_say(obj):
    """The reading of the common moves in one expression gives what the key-by-key reading gives, or its error."""
    from hexarena.results.record.moves import _move, moves_from_json
    try:
        expected: Move | str = _move(obj, 2)
    except ValueError as exc:
        expected = str(exc)
    try:
        got: Move | str = moves_from_json([{"a": "a1"}, obj])[1]      # type: ignore[index]
    except ValueError as exc:
        got = str(exc)
    assert got == expected and type(got) is type(expected)
    if isinstance(got, Move):
        assert [type(v) for v in (got.think, got.left, got.analysis)] == \
            [type(v) for v in (expected.think, expected.left, expected.analysis)]     # type: ignore[union-attr]
