"""Loading games: journals and CSV files, bad lines with file and line number."""
from __future__ import annotations

import pytest

from hexarena.results.rating.load import FRAME_COLUMNS, LoadError, load_games
from hexarena.results.record.journal import JournalWriter
from tests.support.records import record


def write_journal(folder, records):
    with JournalWriter(folder / "journal.jsonl") as writer:
        for r in records:
            writer.append(r)
    return folder / "journal.jsonl"


def test_journal_folder_drops_void_games_and_keeps_forfeit_kinds(tmp_path):
    write_journal(tmp_path, [
        record("1", "a", "b", "a"),
        record("2", "b", "a", None, "void", "Void", faulty="b"),
        record("3", "b", "a", "a", "time", "W+T", faulty="b"),
        record("4", "a", "c", "c", "malformed", "W+F", faulty="a"),
        record("5", "c", "b", "b", "crash", "W+F"),
        record("6", "c", "a", None, "ply-cap", "0", size=7),
    ])
    frame = load_games(tmp_path).frame
    assert list(frame.columns) == list(FRAME_COLUMNS)
    assert frame["termination"].tolist() == ["no-moves", "time", "malformed", "crash", "ply-cap"]
    assert frame["forfeit"].tolist() == ["", "time", "illegal", "crash", ""]
    assert frame["faulty"].tolist() == ["", "b", "a", "c", ""]      # the loser when `faulty` is unset
    assert frame["score"].tolist() == [1.0, 0.0, 0.0, 0.0, 0.5]
    assert frame["size"].tolist() == [5, 5, 5, 5, 7]
    assert frame["winner"].isna().tolist() == [False] * 4 + [True]


def test_journal_file_and_folder_give_the_same_games(tmp_path):
    path = write_journal(tmp_path, [record("1", "a", "b", "a"), record("2", "b", "a", "a")])
    assert load_games(path).frame.equals(load_games(tmp_path).frame)


def test_bad_journal_lines_are_reported_with_line_numbers(tmp_path):
    path = write_journal(tmp_path, [record("1", "a", "b", "a")])
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("{not json\n")
        fh.write(record("2", "a", "b", "a").to_json() + "\n")
        fh.write('{"id": "3"}\n')
    with pytest.raises(LoadError) as info:
        load_games(tmp_path)
    lines = [(p.line, p.path) for p in info.value.problems]
    assert lines == [(2, str(path)), (4, str(path))]
    assert f"{path}:4: missing field(s)" in str(info.value)
    games = load_games(tmp_path, skip_bad=True)
    assert len(games.frame) == 2
    assert len(games.warnings) == 2 and games.warnings[0].startswith(f"skipped {path}:2:")


def test_duplicate_game_ids_are_bad(tmp_path):
    write_journal(tmp_path, [record("1", "a", "b", "a"), record("1", "a", "b", "b")])
    with pytest.raises(LoadError, match="journal.jsonl:2: game id '1' already has a record \\(line 1\\)"):
        load_games(tmp_path)
    assert load_games(tmp_path, skip_bad=True).frame["winner"].tolist() == ["a"]


def test_a_replayed_void_game_is_not_a_duplicate(tmp_path):
    write_journal(tmp_path, [record("1", "a", "b", None, "void", "Void"), record("1", "a", "b", "b")])
    assert load_games(tmp_path).frame["winner"].tolist() == ["b"]


def write(tmp_path, text, name="games.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_csv_games(tmp_path):
    path = write(tmp_path, "game,size,first,second,winner\nanda,5,a,b,a\nanda,5,b,a,\nspelde,7,a,b,b\n")
    frame = load_games(path).frame
    assert frame["score"].tolist() == [1.0, 0.5, 0.0]
    assert frame["winner"].astype(object).where(frame["winner"].notna(), None).tolist() == ["a", None, "b"]
    assert frame["size"].tolist() == [5, 5, 7]
    assert set(frame["forfeit"]) == {""}
    assert frame["first"].cat.categories.tolist() == ["a", "b"]
    assert frame["winner"].cat.categories.tolist() == ["a", "b"]


def test_csv_columns_in_any_order_extra_columns_blank_lines(tmp_path):
    path = write(tmp_path, "winner,date,second,first,size,game\n\nb,2024,b,a,5,anda\n\n,2024,a,b,5,anda\n")
    frame = load_games(path).frame
    assert frame["first"].tolist() == ["a", "b"]
    assert frame["winner"].isna().tolist() == [False, True]


BAD_ROWS = [
    ("anda,5,a,b,c", "winner 'c' is neither 'a' nor 'b'"),
    ("anda,five,a,b,a", "size 'five' is not a whole number >= 0"),
    ("anda,0,a,b,a", "size 0 is not positive"),
    ("anda,5,a,a,a", "'a' plays itself"),
    ("anda,5,,b,b", "empty player name"),
    (",5,a,b,b", "empty game"),
    ("anda,5,a,b", "expected 5 fields, found 4"),
    ("anda,5,a,b,a,x", "expected 5 fields, found 6"),
]


@pytest.mark.parametrize("row,reason", BAD_ROWS)
def test_bad_csv_rows_name_file_and_line(tmp_path, row, reason):
    path = write(tmp_path, f"game,size,first,second,winner\nanda,5,a,b,a\n{row}\nanda,5,b,a,b\n")
    with pytest.raises(LoadError) as info:
        load_games(path)
    assert [str(p) for p in info.value.problems] == [f"{path}:3: {reason}"]
    games = load_games(path, skip_bad=True)
    assert len(games.frame) == 2
    assert games.warnings == (f"skipped {path}:3: {reason}",)


def test_every_bad_line_is_reported(tmp_path):
    rows = "\n".join(r for r, _ in BAD_ROWS)
    path = write(tmp_path, f"game,size,first,second,winner\n{rows}\n")
    with pytest.raises(LoadError) as info:
        load_games(path)
    assert [p.line for p in info.value.problems] == list(range(2, 2 + len(BAD_ROWS)))


def test_csv_header_must_name_the_columns(tmp_path):
    path = write(tmp_path, "game,size,black,white,winner\nanda,5,a,b,a\n")
    with pytest.raises(LoadError, match=r"games.csv:1: header lacks column\(s\) first, second"):
        load_games(path)


def test_empty_csv(tmp_path):
    with pytest.raises(LoadError, match="empty file"):
        load_games(write(tmp_path, ""))


def test_file_kind_is_sniffed_without_suffix(tmp_path):
    journal = write(tmp_path, record("1", "a", "b", "a").to_json() + "\n", name="results")
    csv_file = write(tmp_path, "game,size,first,second,winner\nanda,5,a,b,a\n", name="table")
    assert load_games(journal).frame["termination"].tolist() == ["no-moves"]
    assert load_games(csv_file).frame["termination"].tolist() == [""]


def test_missing_path_raises_oserror(tmp_path):
    with pytest.raises(OSError):
        load_games(tmp_path / "nope.csv")


def test_fast_and_careful_csv_passes_agree(tmp_path, monkeypatch):
    from hexarena.results.rating import load
    rows = "\n".join(f"anda,{5 + k % 2},p{k % 3},p{(k + 1) % 3},{'' if k % 4 == 0 else f'p{k % 3}'}"
                     for k in range(40))
    path = write(tmp_path, f"game,size,first,second,winner\n{rows}\n")
    fast = load._fast_csv(path)
    careful, problems = load._careful_csv(path)
    assert fast is not None and not problems
    assert fast.equals(careful)
    monkeypatch.setattr(load, "_careful_csv", None)      # a clean file never needs the careful pass
    assert load_games(path).frame.equals(careful)
