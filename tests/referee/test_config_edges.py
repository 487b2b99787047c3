"""Config and files at the edge of the operating system: every defect a clear error, never a traceback
(real CLI, real files, real processes)."""
from __future__ import annotations

import json
import shlex
import sys

import pytest

from hexarena.referee.tournament.config_edges import MAX_NAME
from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)

RANDOM = [sys.executable, "-m", "hexarena.players", "random"]


def _config(tmp_path, engine_lines: str) -> str:
    conf = tmp_path / "t.toml"
    conf.write_text(f"[engines.a]\ncmd = {json.dumps(RANDOM)}\n{engine_lines}\n"
                    '[[games]]\ngame = "spelde"\nsize = 4\n', encoding="utf-8")
    return str(conf)


@pytest.mark.parametrize("lines, where, message", [
    (f"[engines.{'n' * 250}]\ncmd = {json.dumps(RANDOM)}", f"t.toml:3: engines.{'n' * 250}",
     f"an engine name is at most {MAX_NAME} characters (it names log files), got 250"),
    ('[engines.b]\ncmd = ["python3", "-c", "x\\u0000y"]', "t.toml:4: engines.b.cmd",
     "word 3 holds a NUL character"),
    (f'[engines.b]\ncmd = {json.dumps(RANDOM)}\ncwd = "/tmp\\u0000x"', "t.toml:5: engines.b.cwd",
     "holds a NUL character"),
    (f'[engines.b]\ncmd = {json.dumps(RANDOM)}\nenv = {{ A = "1\\u0000" }}', "t.toml:5: engines.b.env.A",
     "holds a NUL character"),
    (f'[engines.b]\ncmd = {json.dumps(RANDOM)}\nenv = {{ "A=B" = "1" }}', "t.toml:5: engines.b.env",
     "'A=B': an environment variable's name is not empty and holds no = and no NUL character"),
    (f'[engines.b]\ncmd = {json.dumps(RANDOM)}\nenv = {{ "A\\u0000" = "1" }}', "t.toml:5: engines.b.env",
     "'A\\x00': an environment variable's name"),
    (f'[engines.b]\ncmd = {json.dumps(RANDOM)}\nenv = {{ "" = "1" }}', "t.toml:5: engines.b.env",
     "'': an environment variable's name"),
])
def test_engine_settings_the_kernel_would_refuse_are_config_errors_with_file_key_and_line(tmp_path, lines,
                                                                                          where, message):
    out = tmp_path / "o"
    result = invoke("tournament", _config(tmp_path, lines), "--out", str(out), "--no-preflight", "-j", "1")
    assert result.exit_code == 1, result.output + result.stderr
    assert f"{where}: {message}" in result.stderr
    assert not out.exists()


def test_a_long_engine_name_from_match_is_refused_and_a_long_program_name_is_cut(tmp_path):
    named = invoke("match", f"{'n' * 250}={shlex.join(RANDOM)}", shlex.join(RANDOM), "--out", str(tmp_path / "o"))
    assert named.exit_code == 2 and f"at most {MAX_NAME} characters" in named.stderr
    program = tmp_path / ("p" * 200)
    program.write_text(f"#!/bin/sh\nexec {shlex.join(RANDOM)} \"$@\"\n", encoding="utf-8")
    program.chmod(0o755)
    long = shlex.quote(str(program))
    out = tmp_path / "m"
    played = invoke("match", long, "python -m hexarena.players greedy", "--size", "4", "--games", "1",
                    "--out", str(out), "-q")
    assert played.exit_code == 0, played.output + played.stderr
    assert "p" * MAX_NAME in played.output and "p" * (MAX_NAME + 1) not in played.output


def test_a_missing_working_folder_is_named_as_such(tmp_path):
    missing = tmp_path / "gone"
    conf = _config(tmp_path, f"[engines.b]\ncmd = {json.dumps(RANDOM)}\ncwd = {json.dumps(str(missing))}")
    result = invoke("tournament", conf, "--out", str(tmp_path / "o"), "-j", "1")
    assert result.exit_code == 1
    assert f"b: cannot start {sys.executable!r}: its working folder (cwd) {str(missing)!r} is missing" \
        in result.stderr


def test_show_takes_an_argument_no_file_can_have_as_a_position_string(tmp_path):
    for target in ("x" * 300, "a\x00b"):
        result = invoke("show", target)
        assert result.exit_code == 2 and "is neither a file nor a position string" in result.stderr


def test_a_size_past_64_bits_is_a_bad_line_in_a_csv_and_in_a_journal(tmp_path):
    csv = tmp_path / "g.csv"
    csv.write_text(f"game,size,first,second,winner\nspelde,{2 ** 63},a,b,a\nspelde,5,b,a,a\n", encoding="utf-8")
    result = invoke("ratings", str(csv))
    assert result.exit_code == 1 and f"g.csv:2: size '{2 ** 63}' has more than 18 digits" in result.stderr
    from tests.support.records import record
    lines = []
    for i, size in enumerate((2 ** 63, 5)):
        data = json.loads(record("spelde", "a", "b", "a").to_json())
        lines.append(json.dumps(dict(data, id=f"g/{i}", size=size)) + "\n")
    (tmp_path / "journal.jsonl").write_text("".join(lines), encoding="utf-8")
    result = invoke("ratings", str(tmp_path))
    assert result.exit_code == 1
    assert "journal.jsonl:1: field 'size' must be an integer of at most 18 digits" in result.stderr
