"""An adjudicated tournament end to end: `hexarena tournament` with an [adjudication] table and
real engines reporting scripted winrates; journal, SGF, live lines, tables, report, status, resume."""
from __future__ import annotations

import json
import shlex

from sgfmill import sgf

from hexarena.referee.tournament.run import load_saved
from hexarena.results.record.journal import read_journal
from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)
from tests.support.fakes12 import fake12_argv


def _config(tmp_path, table: str) -> str:
    def cmd(flags: str) -> str:                 # a JSON list of strings is a TOML array
        return json.dumps(fake12_argv(flags))
    path = tmp_path / "t.toml"
    path.write_text(f"""games_per_pair = 2
[time]
move = 5
[engines.sure]
cmd = {cmd("v12,wr=0.5/0.98")}
[engines.doubtful]
cmd = {cmd("v12,wr=0.5/0.02")}
[[games]]
game = "spelde"
size = 4
variant = "nopie"
{table}""", encoding="utf-8")
    return str(path)


def test_an_adjudicated_tournament_journals_shows_and_resumes_it(tmp_path):
    out = tmp_path / "run"
    result = invoke("tournament", _config(tmp_path, "[adjudication]\nresign_moves = 3\n"), "--out", str(out), "-j", "1")
    assert result.exit_code == 0, result.output
    records = read_journal(out)
    assert [(r.termination, r.winner, r.plies) for r in records] == [("adjudicated", "sure", 8)] * 2
    assert [r.result for r in records] == ["B+", "W+"]           # sure moves first in the first game only
    for r in records:
        assert r.adjudication == {"rule": "resign", "by": "both", "ply": 8,
                                  "winrates": [[0.98] * 3, [0.02] * 3] if r.first == "sure" else [[0.02] * 3,
                                                                                                 [0.98] * 3]}
        root = sgf.Sgf_game.from_bytes((out / str(r.sgf)).read_bytes()).get_root()
        assert root.get("RE") == r.result and root.get("XR").startswith("adjudicated: sure and doubtful agree that sure wins")
        assert f"{r.id}  sure ({'black' if r.result == 'B+' else 'white'}) beat doubtful" in result.output
    assert "beat doubtful (black): adjudicated (resign), 8 plies" in result.output     # the live view's line
    assert "adjudicated: resign 2" in result.output                  # the progress line
    assert "adjudicated: 2 of 2 games (resign 2)" in result.output   # the final tables
    saved = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
    assert saved["adjudication"]["resign_moves"] == 3
    assert load_saved(out).adjudication is not None and load_saved(out).adjudication.resign_moves == 3

    status = invoke("status", str(out), "--tables")
    assert status.exit_code == 0 and "adjudicated: 2 of 2 games (resign 2)" in status.output, status.output
    report = invoke("report", str(out))
    assert report.exit_code == 0, report.output
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "ended: adjudicated" in page and 'id="adjudicated"' in page and "resign 2" in page

    grown = invoke("tournament", _config(tmp_path, "[adjudication]\nresign_moves = 4\n"), "--resume", "--out", str(out))
    assert grown.exit_code != 0 and "adjudication" in grown.output, grown.output
    resumed = invoke("tournament", "--resume", "--out", str(out))
    assert resumed.exit_code == 0 and len(read_journal(out)) == 2, resumed.output


def test_a_config_without_the_table_plays_every_game_out(tmp_path):
    out = tmp_path / "run"
    result = invoke("tournament", _config(tmp_path, ""), "--out", str(out), "-j", "1", "--no-preflight")
    assert result.exit_code == 0, result.output
    records = read_journal(out)
    assert [r.termination for r in records] == ["no-moves"] * 2 and all(r.adjudication is None for r in records)
    assert "adjudicated" not in result.output
    assert "adjudication" not in json.loads((out / "tournament.json").read_text(encoding="utf-8"))


def test_match_adjudicates_with_the_table_s_keys_on_its_command_line(tmp_path):
    sure, doubtful = (" ".join(shlex.quote(w) for w in fake12_argv(f)) for f in ("v12,wr=0.97", "v12,wr=0.03"))
    out = tmp_path / "m"
    result = invoke("match", f"sure={sure}", f"doubtful={doubtful}", "--size", "4", "--variant", "nopie",
                    "--games", "1", "--no-preflight", "--out", str(out), "--adjudicate", "resign_moves=2 draw_moves=0")
    assert result.exit_code == 0, result.output
    [record] = read_journal(out)
    assert (record.termination, record.winner, record.plies) == ("adjudicated", "sure", 4)
    assert json.loads((out / "tournament.json").read_text(encoding="utf-8"))["adjudication"]["draw_moves"] == 0
    bad = invoke("match", f"sure={sure}", f"doubtful={doubtful}", "--out", str(tmp_path / "b"),
                 "--adjudicate", "resign_moves=two")
    assert bad.exit_code == 2 and "--adjudicate resign_moves: expected an integer" in bad.output, bad.output
    worse = invoke("match", f"sure={sure}", f"doubtful={doubtful}", "--out", str(tmp_path / "w"), "--adjudicate", "on")
    assert worse.exit_code == 2 and "--adjudicate: 'on' is not KEY=VALUE" in worse.output, worse.output
