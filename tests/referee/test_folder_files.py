"""A tournament folder's own files (tournament.json, history.json, journal.jsonl) that are no
regular file, too large, or not a saved config: every command that reads them says what and where,
`Error: FILE: ...` and exit 1, never a traceback nor a hang; the journal stays on disk.

Each command runs as a real process under a timeout and a memory limit: without the checks a
FIFO hangs it and /dev/zero fills its memory."""
from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFIG = ('seed=3\ngames_per_pair=2\n[engines.random]\nplayer="random"\n[engines.greedy]\nplayer="greedy"\n'
          '[[games]]\ngame="spelde"\nsize=4\n')


def hexarena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    return subprocess.run([sys.executable, "-m", "hexarena", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, preexec_fn=limit)


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("done")
    (where / "s.toml").write_text(CONFIG, encoding="utf-8")
    done = hexarena("tournament", "s.toml", "--out", "T", "-q", "-j", "1", cwd=where)
    assert done.returncode == 0, done.stderr
    return where


def copy(finished: Path, tmp_path: Path) -> Path:
    shutil.copy(finished / "s.toml", tmp_path / "s.toml")
    shutil.copytree(finished / "T", tmp_path / "T")
    return tmp_path / "T"


def refused(run: subprocess.CompletedProcess, said: str) -> None:
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert said in run.stderr.splitlines()[-1], run.stderr


COMMANDS = {"tournament.json": (["status", "T"], ["tournament", "s.toml", "--out", "T", "--resume", "-q", "-j", "1"],
                                ["sprt", "T"]),
            "history.json": (["status", "T"], ["tournament", "s.toml", "--out", "T", "--resume", "-q", "-j", "1"]),
            "journal.jsonl": (["status", "T"], ["ratings", "T"], ["report", "T"], ["openings", "stats", "T"],
                              ["tournament", "s.toml", "--out", "T", "--resume", "-q", "-j", "1"])}


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_folder_file_that_is_no_regular_file_is_refused_by_every_command(finished, tmp_path, name, kind) -> None:
    out = copy(finished, tmp_path)
    journal = (out / "journal.jsonl").read_bytes()
    path = out / name
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)                             # nobody writes to it: opening it would block
    else:
        path.symlink_to("/dev/zero")                # read whole, it fills the memory
    what = "a FIFO" if kind == "fifo" else "a character device"
    for args in COMMANDS[name]:
        refused(hexarena(*args, cwd=tmp_path), f"T/{name}: is not a regular file ({what})")
    if name != "journal.jsonl":
        assert (out / "journal.jsonl").read_bytes() == journal


SAVED = {"a list": b"[]\n", "a bad byte": b'{\n"seed": 3,\n"x\xff": 1}\n', "deep": b"[" * 100_000 + b"]" * 100_000,
         "bad JSON": b"{nope\n"}
SAID = {"a list": ": not a", "a bad byte": ":3: not UTF-8 text: byte 0xff", "deep": ": not valid JSON: nested too deeply",
        "bad JSON": ":1: not valid JSON: Expecting property name"}


@pytest.mark.parametrize("case", sorted(SAVED))
@pytest.mark.parametrize("name", ["tournament.json", "history.json"])
def test_a_saved_config_that_is_not_one_is_an_error_naming_the_file(finished, tmp_path, name, case) -> None:
    out = copy(finished, tmp_path)
    if name == "history.json" and case == "a list":
        return                                      # an empty history is one
    (out / name).write_bytes(SAVED[case])
    for args in COMMANDS[name]:
        refused(hexarena(*args, cwd=tmp_path), f"T/{name}{SAID[case]}")


def test_an_unknown_key_in_the_history_is_an_error_of_the_resume_not_a_traceback(finished, tmp_path) -> None:
    out = copy(finished, tmp_path)
    saved = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
    (out / "history.json").write_text(json.dumps([saved | {"bogus": 1}]), encoding="utf-8")
    for args in COMMANDS["history.json"]:
        refused(hexarena(*args, cwd=tmp_path), "T/history.json[0]: bogus: unknown key")


def test_a_saved_config_over_its_bound_is_refused(finished, tmp_path) -> None:
    from hexarena.results.record.files import MAX_SAVED_BYTES
    out = copy(finished, tmp_path)
    with open(out / "tournament.json", "ab") as fh:
        fh.truncate(MAX_SAVED_BYTES + 1)            # sparse
    refused(hexarena("status", "T", cwd=tmp_path), "T/tournament.json: is larger than 64 MiB")
