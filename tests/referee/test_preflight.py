"""The pre-flight check of `hexarena match` / `tournament`: real engine processes."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.cli import invoke, temporary_folders_in_tmp_path  # noqa: F401 (autouse fixture)

RANDOM = f"{shlex.quote(sys.executable)} -m hexarena.players random"


def test_an_engine_that_cannot_start_stops_the_run_before_any_game(tmp_path):
    out = tmp_path / "m"
    result = invoke("match", RANDOM, str(tmp_path / "no-such-engine"), "--size", "4", "--out", str(out))
    assert result.exit_code == 1
    assert "failed the pre-flight check" in result.stderr and "No such file" in result.stderr
    assert not (out / "journal.jsonl").exists()


def test_an_engine_that_does_not_list_the_game_is_named(tmp_path):
    lister = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split(); cid = w[0]\n"
        "    if w[1] == 'quit':\n"
        "        print('=' + cid + ' '); print(flush=True); break\n"
        "    print('=' + cid + (' 2' if w[1] == 'protocol_version' else ' anda')); print(flush=True)\n")
    result = invoke("match", RANDOM, lister, "--game", "spelde", "--size", "4", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "does not list spelde in list_games" in result.stderr


def test_no_preflight_plays_and_voids_instead_and_a_run_of_only_void_games_fails(tmp_path):
    out = tmp_path / "v"
    result = invoke("match", RANDOM, str(tmp_path / "no-such-engine"), "--size", "4", "--games", "2",
                    "--out", str(out), "--no-preflight")
    assert "0 games, 2 void" in result.output
    assert result.exit_code == 1
    assert "no game of this run counted: all 2 were void" in result.stderr


# -- entrants and variants ---------------------------------------------------------------------

#: A real random engine that plays only Spelde, and refuses the `nopie` balance.
PICKY = [sys.executable, "-c", (
    "import sys\n"
    "from hexarena.players.serve import make_engine\n"
    "engine = make_engine('random', 1)\n"
    "for line in sys.stdin:\n"
    "    w = line.split()\n"
    "    if len(w) > 1 and w[1] == 'list_games':\n"
    "        sys.stdout.write('=' + w[0] + ' spelde\\n\\n'); sys.stdout.flush(); continue\n"
    "    if len(w) > 2 and w[1] == 'game' and 'nopie' in w:\n"
    "        sys.stdout.write('?' + w[0] + ' unsupported variant\\n\\n'); sys.stdout.flush(); continue\n"
    "    answer = engine.handle(line)\n"
    "    if answer:\n"
    "        sys.stdout.write(answer); sys.stdout.flush()\n"
    "    if engine.finished:\n"
    "        break\n")]


def _config(tmp_path, games: str) -> str:
    import json
    conf = tmp_path / "t.toml"
    conf.write_text(f'[engines.picky]\ncmd = {json.dumps(PICKY)}\n[engines.random]\nplayer = "random"\n'
                    f'[engines.greedy]\nplayer = "greedy"\n{games}')
    return str(conf)


def test_the_preflight_reports_every_refused_variant_before_anything_is_journaled(tmp_path):
    conf = _config(tmp_path, '[[games]]\ngame = "spelde"\nsizes = [4, 5]\nvariants = ["pie", "nopie"]\n'
                             '[[games]]\ngame = "marbanta"\nsize = 5\n')
    out = tmp_path / "o"
    result = invoke("tournament", conf, "--out", str(out), "-j", "1")
    assert result.exit_code == 1
    assert "picky: does not list marbanta in list_games" in result.stderr
    for size in (4, 5):
        assert f"picky: refused `game spelde nopie` (for spelde size {size} 'nopie'): unsupported variant" in result.stderr
    assert "random:" not in result.stderr and not (out / "journal.jsonl").exists()


@pytest.mark.slow
def test_entrants_keep_an_engine_out_of_the_games_it_cannot_play(tmp_path):
    conf = _config(tmp_path, '[[games]]\ngame = "spelde"\nsize = 4\n'
                             '[[games]]\ngame = "marbanta"\nsize = 5\nengines = ["random", "greedy"]\n'
                             '[[games]]\ngame = "spelde"\nsize = 4\nvariant = "nopie"\n'
                             'engines = ["random", "greedy"]\n')
    out = tmp_path / "o"
    result = invoke("tournament", conf, "--out", str(out), "-j", "2", "--games-per-pair", "1")
    assert result.exit_code == 0, result.output + result.stderr
    from hexarena.results.record.journal import read_journal
    records = read_journal(out)
    assert len(records) == 3 + 1 + 1 and not any(r.void for r in records)
    assert all("picky" not in (r.first, r.second) for r in records if r.game == "marbanta" or "nopie" in r.variant)


def test_a_failed_preflight_leaves_the_folder_as_it_was_and_quotes_the_engine_stderr(tmp_path):
    broken = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
        "import sys; sys.stderr.write('one\\ntwo\\nthree\\nboom here\\n'); sys.exit(3)")
    out = tmp_path / "new"
    result = invoke("match", RANDOM, broken, "--size", "4", "--out", str(out))
    assert result.exit_code == 1 and "failed the pre-flight check" in result.stderr
    assert "exited with status 3" in result.stderr and "stderr: 'two | three | boom here')" in result.stderr
    assert not out.exists()
    assert list((tmp_path / "tmp").iterdir()) == []              # no temporary folder left either
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine", encoding="utf-8")
    again = invoke("match", RANDOM, broken, "--size", "4", "--out", str(kept))
    assert again.exit_code == 1
    assert sorted(p.name for p in kept.iterdir()) == ["notes.txt"]


def test_a_resume_checks_the_engines_only_when_a_game_is_left_to_play(tmp_path):
    engine = tmp_path / "engine.py"
    engine.write_text((Path(__file__).parents[2] / "examples" / "random_engine.py").read_text(encoding="utf-8"),
                      encoding="utf-8")
    out = tmp_path / "m"
    mine = f"{shlex.quote(sys.executable)} {shlex.quote(str(engine))}"
    assert invoke("match", RANDOM, mine, "--size", "4", "--games", "2", "--out", str(out), "-q").exit_code == 0
    engine.unlink()                                  # the engine is gone once its games are played
    done = invoke("tournament", "--resume", "--out", str(out))
    assert done.exit_code == 0, done.stderr
    assert "2 games, 0 void" in done.stdout and "pre-flight" not in done.stderr
    more = invoke("tournament", "--resume", "--out", str(out), "--games-per-pair", "4")
    assert more.exit_code == 1 and "failed the pre-flight check" in more.stderr
    assert sum(1 for line in (out / "journal.jsonl").open(encoding="utf-8") if line.strip()) == 2
