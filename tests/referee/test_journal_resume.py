"""Resume over a damaged journal: a torn tail is cut and replayed; a bad middle line stops it until repaired."""
from __future__ import annotations

from functools import partial

import pytest
import trio

from hexarena.referee.tournament.schedule import schedule
from hexarena.referee.tournament.run import TournamentError, run
from hexarena.results.record.journal import read_journal
from hexarena.results.record.repair import repair_journal
from tests.support.tournament import mem_launcher as _mem_launcher, spelde_config


def play(cfg, out, resume=False, warnings=None):
    launcher = partial(_mem_launcher, plan={})
    warn = (warnings.append if warnings is not None else lambda s: None)
    trio.run(partial(run, cfg, out, concurrency=2, resume=resume, launcher=launcher, warn=warn))
    return read_journal(out)


def test_a_torn_last_line_is_cut_and_its_game_replayed(tmp_path):
    cfg = spelde_config(4, a=["x"], b=["y"])
    first = play(cfg, tmp_path)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:-1]) + lines[-1][:40])      # the writer died mid-line
    warnings: list[str] = []
    play(cfg, tmp_path, resume=True, warnings=warnings)
    assert any("torn last line" in w for w in warnings)
    records = read_journal(journal)                                # raises on any bad line
    assert sorted(r.id for r in records) == sorted(r.id for r in first)
    assert (tmp_path / "journal.jsonl.torn").exists()


def test_a_bad_middle_line_stops_resume_naming_it_and_the_repair_then_replays_that_game(tmp_path):
    cfg = spelde_config(4, a=["x"], b=["y"])
    play(cfg, tmp_path)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    lost = lines[1]
    lines[1] = lost[:30] + "#garbage\n"
    journal.write_text("".join(lines))
    with pytest.raises(TournamentError, match=r"journal.jsonl:2: .*\n.*hexarena repair"):
        play(cfg, tmp_path, resume=True)
    repair_journal(tmp_path)
    records = play(cfg, tmp_path, resume=True)
    assert sorted(r.id for r in records) == sorted(g.id for g in schedule(cfg))
    assert len(records) == len(schedule(cfg))                      # exactly the missing game was replayed
