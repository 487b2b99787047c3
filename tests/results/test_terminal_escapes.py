"""Names and reasons from a CSV or a journal reach the terminal with their control characters escaped."""
from __future__ import annotations

import json
import shlex
import sys

from click.testing import CliRunner

from hexarena import cli

HOSTILE = "evil\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e\x08"
SHOWN = "evil\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202e\\x08"
PLAYER = f"{shlex.quote(sys.executable)} -m hexarena.players"


def invoke(*args: str):
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False)


def controls(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0 or c == "\u202e"]


def test_ratings_escapes_a_hostile_name_from_a_csv_in_tables_and_errors(tmp_path):
    csv = tmp_path / "games.csv"
    rows = [f"spelde,5,{HOSTILE},plain,{HOSTILE}", f"spelde,5,plain,{HOSTILE},plain"] * 3
    csv.write_text("game,size,first,second,winner\n" + "\n".join(rows) + "\n", encoding="utf-8")
    result = invoke("ratings", str(csv))
    assert result.exit_code == 0, result.output + result.stderr
    assert controls(result.output) == [] and SHOWN in result.output
    bad = tmp_path / "bad.csv"
    bad.write_text(f"game,size,first,second,winner\nspelde,x{HOSTILE},a,b,a\n", encoding="utf-8")
    refused = invoke("ratings", str(bad))
    assert refused.exit_code == 1 and controls(refused.stderr) == [] and "\\x1b" in refused.stderr


def test_status_escapes_hostile_names_and_reasons_from_a_journal(tmp_path):
    out = tmp_path / "m"
    played = invoke("match", f"{PLAYER} random", f"{PLAYER} greedy", "--size", "4", "--games", "2",
                    "--out", str(out), "-q", "--no-preflight")
    assert played.exit_code == 0, played.output + played.stderr
    journal = out / "journal.jsonl"
    records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    for r in records:
        for key in ("first", "second", "black", "white", "winner"):
            if r[key] == "random":
                r[key] = HOSTILE
    journal.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = invoke("status", str(out), "--tables")
    assert result.exit_code == 0, result.output + result.stderr
    assert controls(result.output) == [] and controls(result.stderr) == []
    assert SHOWN in result.output
