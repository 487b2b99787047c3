"""Per-engine settings with real processes: HGP transcripts, working directory and environment."""
from __future__ import annotations

import json
import re
import subprocess
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


def test_a_relative_program_is_read_from_the_config_files_folder(tmp_path):
    home = tmp_path / "club"
    (home / "bin").mkdir(parents=True)
    program = home / "bin" / "engine"
    program.write_text(f"#!{sys.executable}\nimport sys\nfrom hexarena.players.serve import serve\n"
                       "sys.exit(serve('random', 1))\n")
    program.chmod(0o755)
    conf = home / "t.toml"
    conf.write_text('[engines.mine]\ncmd = ["./bin/engine"]\n[engines.greedy]\nplayer = "greedy"\n'
                    '[[games]]\ngame = "spelde"\nsize = 4\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(conf), "--out", "o", "-j", "1",
                           "--games-per-pair", "1", "-q"], cwd=elsewhere, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    (record,) = read_journal(elsewhere / "o")
    assert not record.void, record.reason
    saved = json.loads((elsewhere / "o" / "tournament.json").read_text())
    assert saved["engines"]["mine"]["cmd"] == [str(program)]


@pytest.mark.parametrize("cmd, cwd, expected", [
    ('["./bin/engine", "x/y"]', None, ["{base}/bin/engine", "x/y"]),
    ('["bin/engine"]', None, ["{base}/bin/engine"]),
    ('["stockfish"]', None, ["stockfish"]),
    ('["/usr/bin/engine"]', None, ["/usr/bin/engine"]),
    ('["./engine"]', "home", ["./engine"]),             # exec reads it from the cwd
])
def test_which_program_paths_the_config_folder_makes_absolute(tmp_path, cmd, cwd, expected):
    from hexarena.referee.tournament import config as C
    conf = tmp_path / "t.toml"
    conf.write_text(f'[engines.mine]\ncmd = {cmd}\n' + (f'cwd = "{cwd}"\n' if cwd else "")
                    + '[engines.greedy]\nplayer = "greedy"\n[[games]]\ngame = "spelde"\nsize = 4\n')
    mine = C.load(conf).engines[0]
    assert list(mine.cmd) == [w.format(base=tmp_path) for w in expected]
    assert mine.cwd == (str(tmp_path / cwd) if cwd else None)
