"""A folder whose files the disk refuses to grow (a full disk; here a file size limit,
RLIMIT_FSIZE, which makes a write past it fail as a full disk does): the run stops with what and
where, no traceback, the journal whole lines; once there is room, the resume plays every game of
the schedule exactly once. Real runs, in processes of their own."""
from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import trio
import trio.testing

from hexarena.referee.engines.capped_log import CappedLog, drain_to_log

CONFIG = """games_per_pair = 12
[engines.a]
player = "random"
[engines.b]
player = "random"
[[games]]
game = "spelde"
sizes = [4]
"""


def _limited(size: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    return limit


def _lines(journal: Path) -> list[dict]:
    text = journal.read_bytes()
    assert not text or text.endswith(b"\n"), text[-200:]          # whole lines only
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_disk_stops_the_run_with_what_and_where_and_the_resume_finishes_it(tmp_path, jobs):
    config, out = tmp_path / "t.toml", tmp_path / "out"
    config.write_text(CONFIG, encoding="utf-8")
    run = [sys.executable, "-m", "hexarena", "tournament", "--out", str(out), "-j", jobs, "--no-preflight"]
    full = subprocess.run([*run[:4], str(config), *run[4:]], capture_output=True, text=True, timeout=300,
                          preexec_fn=_limited(12_000))
    assert full.returncode == 1, (full.stdout, full.stderr)
    assert "Traceback" not in full.stderr, full.stderr
    assert "Error: cannot write " in full.stderr and "File too large" in full.stderr, full.stderr
    assert f"hexarena tournament --out {out} --resume" in full.stderr, full.stderr
    before = _lines(out / "journal.jsonl")
    assert 0 < len(before) < 12, len(before)
    again = subprocess.run([*run, "--resume", "-q"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    after = _lines(out / "journal.jsonl")
    assert after[:len(before)] == before
    counted = [r["id"] for r in after if not r.get("void_cause")]
    assert len(counted) == 12 and len(set(counted)) == 12, counted


def test_an_engine_log_the_disk_refuses_is_still_drained(tmp_path):
    # /dev/full refuses every write (ENOSPC): the engine's stderr is read to its end all the same,
    # so an engine never blocks on a full pipe; the log says why it holds nothing
    async def main() -> CappedLog:
        send, receive = trio.testing.memory_stream_one_way_pair()
        log = CappedLog("/dev/full", cap=4096)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(drain_to_log, receive, log)
            for _ in range(64):
                await send.send_all(b"x" * 1024)
            await send.aclose()
        return log
    log = trio.run(main)
    assert isinstance(log.failed, OSError) and log.failed.strerror == "No space left on device"


def test_a_path_in_the_way_stops_the_run_saying_to_fix_it(tmp_path):
    config, out = tmp_path / "t.toml", tmp_path / "out"
    config.write_text(CONFIG, encoding="utf-8")
    out.mkdir()
    (out / "games").write_text("a file where the games' folder goes", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(config), "--out", str(out), "-j", "1",
                          "--no-preflight"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "Not a directory" in run.stderr and "fix that path, then `hexarena tournament" in run.stderr, run.stderr


def test_a_resume_names_the_records_of_games_not_in_its_schedule(tmp_path):
    config, out = tmp_path / "t.toml", tmp_path / "out"
    config.write_text(CONFIG.replace("games_per_pair = 12", "games_per_pair = 2"), encoding="utf-8")
    base = [sys.executable, "-m", "hexarena", "tournament"]
    assert subprocess.run([*base, str(config), "--out", str(out), "-q"], capture_output=True, timeout=300).returncode == 0
    journal = out / "journal.jsonl"
    first, *rest = journal.read_text(encoding="utf-8").splitlines()
    record = json.loads(first)
    record["id"], record["sgf"] = "../../etc/passwd", None
    record.pop("seal", None)
    journal.write_text("\n".join([json.dumps(record), *rest]) + "\n", encoding="utf-8")
    again = subprocess.run([*base, "--out", str(out), "--resume", "-q"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "1 record(s) of games not in the schedule, not counted ('../../etc/passwd')" in again.stderr, again.stderr
