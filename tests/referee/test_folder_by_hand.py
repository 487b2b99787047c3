"""A tournament folder changed by hand. Its tournament.json gone: every command says how to
write it back (resume with the config the run was started with), and a resume with that config
does, once every game of the journal is one of its schedule; with another config nothing is
written. A journal line added for a game outside the schedule: `status` counts the schedule's
games and names it."""
from __future__ import annotations

import shlex
import sys

from click.testing import CliRunner

from hexarena import cli
from hexarena.results.record.journal import read_journal

RANDOM = f"{shlex.quote(sys.executable)} -m hexarena.players random --seed {{seed}}"


def _config(tmp_path, games: int, second: str = "b") -> str:
    path = tmp_path / f"t-{games}-{second}.toml"
    path.write_text(f'games_per_pair = {games}\n[engines.a]\ncmd = {RANDOM.split()!r}\n'.replace("'", '"')
                    + f'[engines.{second}]\ncmd = {RANDOM.split()!r}\n'.replace("'", '"')
                    + '[[games]]\ngame = "spelde"\nsizes = [4]\n', encoding="utf-8")
    return str(path)


def invoke(*args: str):
    return CliRunner().invoke(cli.main, list(args))


def test_a_lost_tournament_json_is_written_again_by_a_resume_with_its_config(tmp_path):
    out = tmp_path / "run"
    assert invoke("tournament", _config(tmp_path, 2), "--out", str(out), "-q").exit_code == 0
    saved = (out / "tournament.json").read_text()
    (out / "tournament.json").unlink()
    for args in (["status", str(out)], ["tournament", "--resume", "--out", str(out)]):
        result = invoke(*args)
        assert result.exit_code == 1
        assert "holds a journal but no tournament.json" in result.output
        assert f"hexarena tournament CONFIG --resume --out {out}" in result.output
    other = invoke("tournament", _config(tmp_path, 2, second="c"), "--resume", "--out", str(out), "-q")
    assert other.exit_code == 1 and "was it written by another config or version?" in other.output
    fewer = invoke("tournament", _config(tmp_path, 1), "--resume", "--out", str(out), "-q")
    assert fewer.exit_code == 1 and "spelde-4-pie/0001 is not in this config's schedule" in fewer.output
    assert not (out / "tournament.json").exists()
    grown = invoke("tournament", _config(tmp_path, 4), "--resume", "--out", str(out), "-q")
    assert grown.exit_code == 0, grown.output
    assert "tournament.json was missing: written again" in grown.output
    assert len(read_journal(out)) == 4 and '"games_per_pair": 4' in (out / "tournament.json").read_text()
    assert saved.replace('"games_per_pair": 2', '"games_per_pair": 4') == (out / "tournament.json").read_text()


def test_status_counts_the_schedules_games_and_names_a_journaled_game_outside_it(tmp_path):
    import json
    out = tmp_path / "run"
    assert invoke("tournament", _config(tmp_path, 2), "--out", str(out), "-q").exit_code == 0
    line = json.loads((out / "journal.jsonl").read_text().splitlines()[0])
    line["id"], line["seal"] = "spelde-4-pie/9999", None
    with open(out / "journal.jsonl", "a") as fh:                      # a line added by hand
        fh.write(json.dumps({k: v for k, v in line.items() if v is not None or k != "seal"}) + "\n")
    result = invoke("status", str(out))
    assert result.exit_code == 0, result.output
    assert f"{out}: 2/2 games (finished)" in result.output
    assert "1 journaled game(s) not in the schedule (first: spelde-4-pie/9999)" in result.output
