"""Per-engine settings with real processes: HGP transcripts, working directory and environment."""
from __future__ import annotations

import json
import re
import sys

import pytest
from click.testing import CliRunner

from hexarena import cli
from hexarena.results.record.journal import read_journal

LINE = re.compile(r"\d\d:\d\d:\d\d\.\d\d\d [<>] ")


@pytest.mark.slow
def test_log_protocol_cwd_and_env(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "engine.py").write_text(           # runs only in its folder, with its variable set
        "import os, sys\nassert os.environ['HEXTEST'] == 'yes', 'no HEXTEST'\n"
        "from hexarena.players.serve import serve\nsys.exit(serve('random', 1))\n")
    conf = tmp_path / "t.toml"
    conf.write_text(f'[engines.mine]\ncmd = [{json.dumps(sys.executable)}, "engine.py"]\ncwd = "home"\n'
                    'env = {{ HEXTEST = "yes" }}\nlog_protocol = true\n'
                    '[engines.greedy]\nplayer = "greedy"\n[[games]]\ngame = "spelde"\nsize = 4\n'.replace("{{", "{").replace("}}", "}"))
    out = tmp_path / "o"
    result = CliRunner().invoke(cli.main, ["tournament", str(conf), "--out", str(out), "-j", "1",
                                           "--games-per-pair", "1", "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    (record,) = read_journal(out)
    assert not record.void
    transcript = (out / "logs" / "spelde-4-pie" / "0000.1-mine.hgp").read_text().splitlines()
    assert transcript[0].endswith("> 1 protocol_version") and transcript[1].endswith("< =1 2")
    assert all(LINE.match(line) for line in transcript)
    assert any(" > " in line and "genmove" in line for line in transcript)
    assert not (out / "logs" / "spelde-4-pie" / "0000.2-greedy.hgp").exists()     # only where asked

    again = CliRunner().invoke(cli.main, ["tournament", str(conf), "--out", str(tmp_path / "p"), "-j", "1",
                                          "--games-per-pair", "1", "-q", "--log-protocol"], catch_exceptions=False)
    assert again.exit_code == 0
    assert (tmp_path / "p" / "logs" / "spelde-4-pie" / "0000.2-greedy.hgp").exists()


def test_time_odds_each_engine_is_told_its_own_clock(tmp_path):
    conf = tmp_path / "t.toml"
    conf.write_text('[time]\nmain = 60\n[engines.strong]\nplayer = "greedy"\n[engines.strong.time]\nmain = 20\n'
                    '[engines.weak]\nplayer = "random"\n[[games]]\ngame = "spelde"\nsize = 4\n')
    out = tmp_path / "o"
    result = CliRunner().invoke(cli.main, ["tournament", str(conf), "--out", str(out), "-j", "1", "-q",
                                           "--games-per-pair", "2", "--log-protocol"], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    for record in read_journal(out):
        for seat, name in ((1, record.first), (2, record.second)):
            text = (out / "logs" / "spelde-4-pie" / f"{record.id[-4:]}.{seat}-{name}.hgp").read_text()
            main = 20 if name == 'strong' else 60        # built-in players list kgs-time_settings, hgp_version
            assert f"kgs-time_settings fischer {main}.000 0.000" in text
        sgf = (out / record.sgf).read_text()
        assert "OT[main" in sgf and "move 10 s" not in sgf and ("main 20 s" in sgf and "main 60 s" in sgf)
