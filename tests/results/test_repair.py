"""Journal damage: a torn last line is cut to a side file; bad lines are moved, verbatim, by repair."""
from __future__ import annotations

from click.testing import CliRunner

from hexarena.commands_ratings import ratings, repair
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalWriter, cut_torn_tail, read_journal
from hexarena.results.record.repair import repair_journal


def rec(i: int, winner: str | None = "a") -> GameRecord:
    return GameRecord(id=f"g/{i:04d}", game="spelde", size=5, variant="pie", first="a", second="b", black="a",
                      white="b", winner=winner, result="0" if winner is None else "B+" if winner == "a" else "W+",
                      termination="no-moves", plies=10)


def journal(tmp_path, lines: list[str]):
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_torn_last_line_is_cut_off_and_kept_in_a_side_file(tmp_path):
    whole = rec(0).to_json() + "\n"
    path = journal(tmp_path, [whole, rec(1).to_json()[:25]])
    message = cut_torn_tail(path)
    assert message and "torn last line" in message
    assert path.read_text() == whole
    side = (tmp_path / "journal.jsonl.torn").read_text()
    assert side.startswith("# torn last line") and rec(1).to_json()[:25] in side
    assert cut_torn_tail(path) is None                  # whole now: nothing more to do


def test_the_writer_never_leaves_a_bad_line_behind_a_torn_one(tmp_path):
    path = journal(tmp_path, [rec(0).to_json() + "\n", rec(1).to_json()[:25]])
    with JournalWriter(path) as writer:
        writer.append(rec(2))
    assert [r.id for r in read_journal(path)] == ["g/0000", "g/0002"]     # no error raised


def test_repair_moves_bad_middle_lines_verbatim_and_ratings_then_work(tmp_path):
    bad = ['{"id": "broken", \n', "not json at all\n"]
    path = journal(tmp_path, [rec(0).to_json() + "\n", bad[0], rec(1, "b").to_json() + "\n", bad[1],
                              rec(2).to_json() + "\n"])
    refused = CliRunner().invoke(ratings, [str(tmp_path)])
    assert refused.exit_code == 1
    assert "journal.jsonl:2:" in refused.output and f"hexarena repair {tmp_path}" in refused.output
    result = CliRunner().invoke(repair, [str(tmp_path)])
    assert result.exit_code == 0 and "moved 2 bad line(s) (2, 4)" in result.output
    assert [r.id for r in read_journal(path)] == ["g/0000", "g/0001", "g/0002"]
    assert (tmp_path / "journal.jsonl.bad").read_text() == "".join(bad)
    assert CliRunner().invoke(ratings, [str(tmp_path)]).exit_code == 0
    again = repair_journal(tmp_path)
    assert again.moved == [] and again.kept == 3


def test_repair_refuses_a_file_that_holds_no_record_and_leaves_it_as_it_was(tmp_path):
    config = tmp_path / "tournament.json"
    text = '{\n  "games_per_pair": 2,\n  "engines": {}\n}\n'
    config.write_text(text)
    result = CliRunner().invoke(repair, [str(config)])
    assert result.exit_code == 1
    assert "none of its 4 line(s) is a game record: not a tournament's journal (nothing changed)" in result.output
    assert config.read_text() == text and not (tmp_path / "tournament.json.bad").exists()


def test_repair_of_a_journal_holding_only_a_torn_record_cuts_it(tmp_path):
    path = journal(tmp_path, [rec(0).to_json()[:40]])      # killed while writing its first line
    done = repair_journal(tmp_path)
    assert done.torn and done.kept == 0 and path.read_text() == ""


def test_repair_waits_for_the_process_writing_the_journal(tmp_path):
    import subprocess
    import sys
    journal(tmp_path, [rec(0).to_json() + "\n", "garbage\n"])
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\n"
                               "from hexarena.referee.tournament.folder_lock import hold_folder\n"
                               "from pathlib import Path\n"
                               "with hold_folder(Path(sys.argv[1])):\n    print('held', flush=True)\n    time.sleep(60)\n",
                               str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        result = CliRunner().invoke(repair, [str(tmp_path)])
        assert result.exit_code == 1
        assert f"another hexarena process (pid {holder.pid}) is writing to it" in result.output
        assert "garbage" in (tmp_path / "journal.jsonl").read_text()
    finally:
        holder.kill()
        holder.wait()
    assert CliRunner().invoke(repair, [str(tmp_path)]).exit_code == 0          # the lock died with its holder
