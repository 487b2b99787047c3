"""Reading summaries (ratings, status, the SPRT): only the text before a schema-3 line's moves is
decoded (the moves' text is matched, not decoded), and the record equals the whole line's summary
for every line, also for lines that try to fool the cut (the key's text inside a string, moves not
last, older schemas); a line the whole read refuses, a summary refuses."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalError, parse_line, parse_summary, read_journal
from hexarena.results.record.moves import Move

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
TRICK = 'x", "moves": null, "y": "'


def record(**changes) -> GameRecord:
    moves = (Move("c3", "B", 0.1, 59.9, ({"line": "info winrate 0.5 pv d4", "winrate": 0.5, "pv": ["d4"]},)),
             Move("d4", "W", 0.2, 59.8))
    fields = dict(id="g/0001", game="spelde", size=4, variant="pie", first="a", second="b", black="a",
                  white="b", winner="a", result="B+", termination="no-moves", plies=2,
                  started="2026-01-01T00:00:00Z", seconds=1.5, moves=moves,
                  identities=[["a", "1"], ["b", TRICK]])
    fields.update(changes)
    return GameRecord(**fields)


@pytest.mark.parametrize("rec", [record(), record(moves=None), record(reason=TRICK, winner=None, result="0"),
                                 record(adjudication={"rule": "resign", "by": "both", "ply": 2,
                                                      "winrates": [[0.9], [0.1]]})])
def test_a_summary_equals_the_whole_lines_summary(rec):
    line = (rec.to_json() + "\n").encode()
    assert parse_summary(line) == parse_line(line).summary() == rec.summary()


def test_moves_not_last_are_read_whole():
    data = json.loads(record().to_json())
    moved = {"moves": data.pop("moves"), **data}
    line = json.dumps(moved).encode()
    assert parse_summary(line) == record().summary()
    data = json.loads(record().to_json())
    pair = data.pop("pair")
    line = (json.dumps({**data, "pair": pair}) .replace('"pair": null', '"pair": 7')).encode()
    assert parse_summary(line).pair == 7             # a field after the moves is not cut off


@pytest.mark.parametrize("moves", [[{"a": 1}], [{"a": "c3", "x": 1}], [{"a": "c3", "i": [{"pv": ["c3"]}]}]])
def test_bad_moves_are_refused_by_a_summary_as_by_a_whole_read(moves, tmp_path):
    data = json.loads(record().to_json())
    data["moves"] = moves
    path = tmp_path / "journal.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    for summary in (True, False):
        with pytest.raises(JournalError, match="move 1"):
            read_journal(path, summary=summary)


def test_a_field_after_the_moves_is_read_by_a_summary_as_by_a_whole_read(tmp_path):
    path = tmp_path / "journal.jsonl"
    path.write_text(record().to_json()[:-1] + ', "actions": ["c3"]}\n', encoding="utf-8")
    for summary in (True, False):
        with pytest.raises(JournalError, match="unknown field"):
            read_journal(path, summary=summary)


def test_a_bad_head_is_the_same_error_either_way(tmp_path):
    data = json.loads(record().to_json())
    data["size"] = "four"
    path = tmp_path / "journal.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    for summary in (True, False):
        with pytest.raises(JournalError, match="size"):
            read_journal(path, summary=summary)


@pytest.mark.parametrize("fixture", ["journal-schema-1", "journal-schema-2"])
def test_older_schemas_read_as_summaries(fixture, tmp_path):
    journals = sorted((FIXTURES / fixture).rglob("journal.jsonl"))
    assert journals
    for journal in journals:
        assert read_journal(journal, summary=True) == [r.summary() for r in read_journal(journal)]
