"""Journal damage: a torn last line is cut to a side file; bad lines are moved, verbatim, by repair."""
from __future__ import annotations

from click.testing import CliRunner

from hexarena.commands_ratings import ratings, repair
from hexarena.results.record.game import GameRecord
from hexarena.results.record.journal import JournalWriter, cut_torn_tail, read_journal
from hexarena.results.record.repair import repair_journal


def rec(i: int, winner: str | None = "a") -> GameRecord:
    return GameRecord(id=f"g/{i:04d}", game="spelde", size=5, variant="pie", first="a", second="b", black="a",
                      white="b", winner=winner, result="B+", termination="no-moves", plies=10)


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
