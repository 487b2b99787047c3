"""Startup cost: nothing imports pandas unless it computes ratings. No timing here
(bench/bench_startup.py measures it); these tests look at sys.modules in a fresh interpreter."""
from __future__ import annotations

import json
import subprocess
import sys

from tests.support.folders import build_folder, tiny_journal

HEAVY = ("pandas", "numpy", "numpy.ma", "trio", "rich")   # numpy.ma: what np.unique without its indices loads

REPORT = ("import atexit, sys\n"
          "atexit.register(lambda: sys.stderr.write('\\nloaded: ' + ' '.join(m for m in %r if m in sys.modules)))\n"
          % (HEAVY,))


def _loaded(code: str, *args: str, stdin: str = "") -> list[str]:
    proc = subprocess.run([sys.executable, "-c", REPORT + code, *args], input=stdin, capture_output=True,
                          text=True, timeout=120)
    tail = proc.stderr.rpartition("loaded:")[2]
    assert "loaded:" in proc.stderr, proc.stderr
    return tail.split()


def test_hexarena_engine_imports_neither_pandas_nor_trio():
    loaded = _loaded("from hexarena.cli import main; main()", "engine", "random",
                     stdin="1 protocol_version\n2 genmove b\n3 quit\n")
    assert loaded == []


def test_importing_the_cli_imports_no_heavy_module_and_ratings_still_does():
    assert _loaded("import hexarena.cli") == []
    assert "pandas" in _loaded("from hexarena.results.rating import report")


def test_the_ratings_command_takes_its_group_keys_from_the_record_without_pandas():
    from hexarena import commands_ratings
    from hexarena.results.rating import report
    assert commands_ratings.GROUP_KEYS is report.GROUP_KEYS
    assert "pandas" not in _loaded("import hexarena.commands_ratings")


def test_hexarena_report_fits_the_ratings_without_pandas_or_trio(tmp_path):
    build_folder(tmp_path, 12)
    loaded = _loaded("from hexarena.cli import main; main()", "report", str(tmp_path))
    assert loaded == ["numpy"] and (tmp_path / "report.html").is_file()


def test_a_run_starts_its_games_without_pandas():
    """What a tournament imports before its first game (the runner, its quiet view: no rich, the report's
    refresher, a worker process): numpy and jinja2 come with the final tables and page, in a thread
    while the games play."""
    start = ("import hexarena.supervise, hexarena.referee.tournament.run, hexarena.referee.tournament.preflight, "
             "hexarena.referee.tournament.workers, hexarena.results.page.refresher, "
             "hexarena.referee.tournament.worker; "
             "from hexarena.referee.console.views import make_view; import sys; make_view(sys.stdout, quiet=True)")
    assert _loaded(start) == ["trio"]


def test_hexarena_status_reads_its_folder_without_pandas_or_trio(tmp_path):
    from hexarena.referee.tournament import config as config_mod
    from hexarena.referee.tournament.folder import CONFIG_NAME
    (tmp_path / "t.toml").write_text('games_per_pair = 2\n[time]\nmove = 1\n[engines.a]\nplayer = "random"\n'
                                     '[engines.b]\nplayer = "random"\n[[games]]\ngame = "spelde"\nsizes = [4]\n',
                                     encoding="utf-8")
    config = config_mod.load(tmp_path / "t.toml")
    (tmp_path / CONFIG_NAME).write_text(json.dumps(config_mod.to_dict(config)), encoding="utf-8")
    tiny_journal(tmp_path, 20)
    loaded = _loaded("from hexarena.cli import main; main()", "status", str(tmp_path))
    assert loaded == ["numpy"]


def test_hexarena_ratings_of_a_journal_fits_without_pandas(tmp_path):
    build_folder(tmp_path, 12)
    assert _loaded("from hexarena.cli import main; main()", "ratings", str(tmp_path)) == ["numpy"]
    assert "pandas" in _loaded("from hexarena.cli import main; main()", "ratings", str(tmp_path), "--format", "csv")


def test_a_whole_run_prints_its_final_tables_without_pandas(tmp_path):
    (tmp_path / "t.toml").write_text('games_per_pair = 2\n[engines.a]\nplayer = "random"\n'
                                     '[engines.b]\nplayer = "random"\n[[games]]\ngame = "spelde"\nsizes = [4]\n',
                                     encoding="utf-8")
    loaded = _loaded("from hexarena.cli import main; main()", "tournament", str(tmp_path / "t.toml"),
                     "--out", str(tmp_path / "out"), "-q")
    assert sorted(loaded) == ["numpy", "trio"] and (tmp_path / "out" / "report.html").is_file()
