"""`hexarena report`: the page's data replay like the rules, engine strings stay text, bad folders are said so."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.engine import registry
from hexarena.results.page.html_report import ReportError, write_report
from hexarena.results.record.journal import read_journal
from hexarena.results.page.replay import replay_record
from tests.support.folders import build_folder
from tests.support.page_check import page_data, static_markup_problems

HOSTILE_NAME = "<script>alert('x')</script>"
HOSTILE_ATTR = '"><img src=x onerror=alert(1)>'


def apply(board: dict[str, str], changes: str) -> None:
    """The viewer's rule (replay.js applyChanges), for checking the data."""
    for item in changes.split():
        m = re.fullmatch(r"([a-z][0-9]+)([bw]?)([0-9]*)", item)
        if m.group(2):
            board[m.group(1)] = m.group(2) + (m.group(3) or "1")
        else:
            board.pop(m.group(1), None)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    build_folder(out, 15, seed=5, cap=60)           # three games of each of the five
    return out


def test_every_game_replays_from_the_page_data_to_the_positions_of_the_rules(folder):
    path, count = write_report(folder)
    html = path.read_text(encoding="utf-8")
    games = page_data(html)["games"]
    assert count == len(games) == 15
    assert {g["g"] for g in games} == set(registry.playable())
    for record, game in zip(read_journal(folder / "journal.jsonl"), games):
        replay = replay_record((folder / record.sgf).read_text(encoding="utf-8"))
        assert game["m"] == replay.tokens and game["id"] == record.id
        assert f'id="board-{record.game}-{record.size}"' in html
        board: dict[str, str] = {}
        apply(board, game["i0"])
        for ply, state in enumerate(replay.states):
            if ply:
                apply(board, game["d"][ply - 1])
            pos = state.to_position()
            want = {state.board.name(b): c.value + str(h) for b, (c, h) in pos.stacks.items()}
            assert board == want, f"{record.id} ply {ply}"
        assert len(replay.states) > 5


def test_the_page_has_every_section_and_no_network(folder):
    html = write_report(folder)[0].read_text(encoding="utf-8")
    for anchor in ('id="ratings"', 'class="elo-chart"', 'class="crosstable"', "First-player advantage",
                   'id="terminations"', 'id="game-list"', 'id="viewer"'):
        assert anchor in html
    assert 'id="sprt"' not in html
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert static_markup_problems(html) == []


def test_sprt_state_is_shown_when_the_run_left_one(folder, tmp_path):
    (folder / "sprt.json").write_text(json.dumps({"state": "H1 accepted", "llr": 2.95}), encoding="utf-8")
    try:
        html = write_report(folder, tmp_path / "r.html")[0].read_text(encoding="utf-8")
    finally:
        (folder / "sprt.json").unlink()
    assert 'id="sprt"' in html and "H1 accepted" in html and "2.95" in html


def test_engine_strings_in_names_reasons_and_moves_are_escaped(folder, tmp_path):
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    (hostile / "games").mkdir()
    for sgf in (folder / "games").iterdir():
        (hostile / "games" / sgf.name).write_text(sgf.read_text(encoding="utf-8"), encoding="utf-8")
    lines = (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    rewritten = []
    for line in lines:
        data = json.loads(line)
        for key in ("first", "second", "black", "white", "winner"):
            if data[key] == "alpha":
                data[key] = HOSTILE_NAME
            elif data[key] == "beta":
                data[key] = HOSTILE_ATTR
        data["reason"] = f"answered {HOSTILE_ATTR}"
        rewritten.append(json.dumps(data))
    (hostile / "journal.jsonl").write_text("\n".join(rewritten) + "\n", encoding="utf-8")
    first = json.loads(rewritten[0])
    sgf = hostile / first["sgf"]
    sgf.write_text(sgf.read_text(encoding="utf-8").rstrip(")\n") + f";B[{HOSTILE_NAME}])\n", encoding="utf-8")
    other = hostile / json.loads(rewritten[1])["sgf"]          # a record of a game we do not know
    other.write_text(re.sub(r"XG\[[^]]*\]", "XG[chess]", other.read_text(encoding="utf-8")), encoding="utf-8")
    html = write_report(hostile)[0].read_text(encoding="utf-8")
    assert static_markup_problems(html) == []
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html          # names in the tables, as text
    games = page_data(html)["games"]
    assert HOSTILE_NAME in {g["f"] for g in games} | {g["s"] for g in games}
    assert HOSTILE_NAME in games[0]["err"] and games[0]["why"] == f"answered {HOSTILE_ATTR}"   # as data
    assert "no game 'chess'" in games[1]["err"]


def test_report_command_writes_the_file_and_says_its_size(folder, tmp_path):
    out = tmp_path / "page.html"
    res = CliRunner().invoke(main, ["report", str(folder), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.is_file() and f"{out}: 15 games" in res.output and "KiB" in res.output


def test_a_folder_without_journal_is_refused_with_its_name(tmp_path):
    with pytest.raises(ReportError, match="no readable journal"):
        write_report(tmp_path)
    res = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert res.exit_code == 1 and str(tmp_path) in res.output


def test_replays_are_kept_in_the_folder_and_a_changed_record_is_replayed_again(folder, tmp_path):
    from hexarena.results.page.replay_cache import CACHE_NAME, ReplayCache
    (folder / CACHE_NAME).unlink(missing_ok=True)
    first = page_data(write_report(folder, tmp_path / "a.html")[0].read_text(encoding="utf-8"))["games"]
    lines = (folder / CACHE_NAME).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 15
    with open(folder / CACHE_NAME, "a", encoding="utf-8") as fh:
        fh.write('{"v": 2, "k": ["games/torn')                     # a torn last line is ignored
    cache = ReplayCache(folder, parallel=False)
    assert len(cache._data) == 15
    record = read_journal(folder / "journal.jsonl")[0]
    sgf = folder / record.sgf
    text = sgf.read_text(encoding="utf-8")
    try:
        sgf.write_text(text.rstrip(")\n") + ";B[zz99])\n", encoding="utf-8")     # now breaks the rules
        again = page_data(write_report(folder, tmp_path / "b.html", cache)[0].read_text(encoding="utf-8"))
    finally:
        sgf.write_text(text, encoding="utf-8")
    assert "err" not in first[0] and "zz99" in again["games"][0]["err"]
    assert again["games"][1:] == first[1:]


def test_a_running_tournament_rewrites_its_report_every_few_games(tmp_path):
    import sys
    from hexarena.results.page.refresher import ReportRefresher
    build_folder(tmp_path, 4, seed=2, cap=20)
    warnings: list[str] = []
    command = [sys.executable, "-m", "hexarena", "report", str(tmp_path)]
    refresher = ReportRefresher(tmp_path, warnings.append, command, every=3, interval=0)
    records = read_journal(tmp_path / "journal.jsonl")
    for record in records[:2]:
        refresher.on_record(record)
    assert refresher.child is None and not (tmp_path / "report.html").exists()
    refresher.on_record(records[2])
    assert refresher.child is not None and refresher.child.wait() == 0       # a child process wrote it
    assert len(page_data((tmp_path / "report.html").read_text(encoding="utf-8"))["games"]) == 4
    assert refresher.finish() == tmp_path / "report.html" and warnings == []
    (tmp_path / "journal.jsonl").unlink()
    refresher.on_record(records[3])
    refresher.on_record(records[3])
    refresher.on_record(records[3])                             # the 6th: a refresh that fails
    assert refresher.child is not None and refresher.child.wait() != 0
    assert refresher.finish() is None
    assert "report.html not refreshed" in warnings[0] and "no readable journal" in warnings[1]


def test_the_page_says_why_each_game_was_forfeited_or_void_as_text(folder, tmp_path):
    out = tmp_path / "faults"
    out.mkdir()
    (out / "games").symlink_to(folder / "games")
    lines = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    decided = next(d for d in lines if d["winner"])
    decided.update(termination="illegal", forfeit="illegal", reason=f"illegal move {HOSTILE_NAME}",
                   faulty=decided["second"] if decided["winner"] == decided["first"] else decided["first"])
    (out / "journal.jsonl").write_text("".join(json.dumps(d) + "\n" for d in lines), encoding="utf-8")
    html = write_report(out)[0].read_text(encoding="utf-8")
    assert static_markup_problems(html) == []
    section = html.split('id="faults"', 1)[1].split("</table>", 1)[0]
    assert (f"<td>{decided['id']}</td><td>{decided['faulty']}</td><td>forfeit: illegal</td>"
            "<td>illegal move &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</td>") in section
    assert section.count("<tr>") == 2                   # the header and the one forfeit
    assert 'id="faults"' not in write_report(folder)[0].read_text(encoding="utf-8")


def test_the_page_reads_whole_only_the_records_whose_moves_it_shows(folder, tmp_path, monkeypatch):
    """The journal is read by summaries, but a record with the engines' analysis (the viewer's)
    or an opening (the openings' tables) whole: the page is the one of records read whole."""
    from dataclasses import replace

    from hexarena.results.page import html_report
    from hexarena.results.page.replay_cache import ReplayCache
    from hexarena.results.record.moves import Move
    out = tmp_path / "analysed"
    out.mkdir()
    (out / "games").symlink_to(folder / "games")
    records = read_journal(folder / "journal.jsonl")
    info = ({"line": "winrate 0.6 visits 40 pv e5", "winrate": 0.6, "visits": 40, "pv": ["e5"]},)
    assert records[0].moves and records[1].moves
    records[0] = replace(records[0], moves=(replace(records[0].moves[0], analysis=info), *records[0].moves[1:]))
    records[1] = replace(records[1], opening=2)
    (out / "journal.jsonl").write_text("".join(r.to_json() + "\n" for r in records), encoding="utf-8")
    assert isinstance(records[0].moves[0], Move)

    def pages() -> tuple[dict, str]:
        html, _ = html_report.build_page(out, ReplayCache(out, parallel=False, persist=False))
        return page_data(html), html.split('id="openings"', 1)[-1]

    summarised = pages()
    real = html_report.read_journal
    monkeypatch.setattr(html_report, "read_journal", lambda path, errors, **_: real(path, errors))
    assert pages() == summarised
    assert summarised[0]["games"][0]["a"]["rows"][0]["w"] == 0.6


def test_the_page_reads_a_record_s_moves_for_an_opening_or_an_info_line_only():
    from dataclasses import replace

    from hexarena.results.page.analysis_data import analysis_data
    from hexarena.results.page.html_report import needs_moves
    from hexarena.results.record.moves import Move
    from tests.support.records import record

    base = record("g/1", "a", "b", "a")
    moves = (Move("c3", "B", 0.1, None, ()), Move("d4", "W", 0.1, None, ()))
    info = ({"line": "info visits 3 winrate 0.5", "visits": 3, "winrate": 0.5},)
    asked_no_info = replace(base, moves=moves)
    analysed = replace(base, moves=(moves[0], Move("d4", "W", 0.1, None, info)))
    opened = replace(base, moves=(Move("c3", "B"), moves[1]), opening=1)
    for rec, needed in ((base, False), (asked_no_info, False), (analysed, True), (opened, True)):
        line = rec.to_json().encode()
        assert needs_moves(rec.summary(), line) is needed
        assert needed or analysis_data(rec) is None or rec.moves is None      # nothing left unshown
    schema_2 = b'{"id": "g/1", "analysis": [[], null]}'
    assert needs_moves(base, schema_2)
