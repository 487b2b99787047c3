"""Journal lines whose fields hold the wrong kind of value (or NaN) are bad lines for every
reader, named by field; a schema-1 line without its optional `faulty` reads."""
from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from hexarena import cli
from hexarena.results.record.journal import parse_line
from tests.support.folders import build_folder


def _first(folder) -> dict:
    return json.loads((folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()[0])


@pytest.mark.parametrize("field, value, said", [
    ("processes", ["a", "b"], "field 'processes' must be null or a list of integers or nulls"),
    ("seconds", "1", "field 'seconds' must be a number"),
    ("seconds", -1, "field 'seconds' must be a number >= 0"),
    ("started", 5, "field 'started' must be a string"),
    ("sgf", 5, "field 'sgf' must be a string or null"),
    ("opening", -2, "field 'opening' must be an integer >= 0"),
])
def test_a_field_of_the_wrong_kind_is_named(tmp_path, field, value, said):
    build_folder(tmp_path, 1)
    line = dict(_first(tmp_path), **{field: value})
    with pytest.raises(ValueError, match=said):
        parse_line(json.dumps(line).encode())


@pytest.mark.parametrize("constant", [math.nan, math.inf, -math.inf])
def test_nan_and_infinity_are_not_numbers_of_a_journal(tmp_path, constant):
    build_folder(tmp_path, 1)
    line = json.dumps(dict(_first(tmp_path), seconds=constant)).encode()
    with pytest.raises(ValueError, match="is not a JSON number"):
        parse_line(line)


def test_a_schema_1_line_without_faulty_is_rated_and_reported(tmp_path):
    build_folder(tmp_path, 3)
    journal = tmp_path / "journal.jsonl"
    lines = [json.loads(x) for x in journal.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        line["schema"] = 1
        line.pop("moves", None)             # schema 1 kept its actions in lists of their own
        line.pop("faulty", None)
        line.pop("forfeit", None)
    journal.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    runner = CliRunner()
    rated = runner.invoke(cli.main, ["ratings", str(tmp_path)])
    assert rated.exit_code == 0 and "3 games" in rated.output, rated.output
    report = runner.invoke(cli.main, ["report", str(tmp_path)])
    assert report.exit_code == 0 and "3 games" in report.output
