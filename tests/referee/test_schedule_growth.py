"""Growing a finished tournament with real engines: old records stay byte-identical, only new games run."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from hexarena import cli
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.schedule import schedule
from hexarena.results.record.journal import read_journal

BASE = ('seed = 4\ngames_per_pair = 2\n[engines.random]\nplayer = "random"\n[engines.greedy]\nplayer = "greedy"\n'
        '[[games]]\ngame = "spelde"\nsize = 4\nopenings = ["c2"]\n')
GROWN = (BASE.replace("games_per_pair = 2", "games_per_pair = 4").replace('openings = ["c2"]', 'openings = ["c2", "a1"]')
         + '[engines.mcts]\nplayer = "mcts:20"\n[[games]]\ngame = "marbanta"\nsize = 5\n'
           'engines = ["random", "mcts"]\n')


def invoke(*args: str):
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False)


@pytest.mark.slow
def test_growing_a_finished_tournament_keeps_old_records_and_plays_only_new_games(tmp_path):
    conf, out = tmp_path / "t.toml", tmp_path / "o"
    conf.write_text(BASE)
    assert invoke("tournament", str(conf), "--out", str(out), "-j", "2", "-q").exit_code == 0
    journal = (out / "journal.jsonl").read_bytes()
    old = read_journal(out)
    sgfs = {r.sgf: (out / r.sgf).read_bytes() for r in old}
    assert len(old) == 2

    conf.write_text(GROWN)
    result = invoke("tournament", str(conf), "--out", str(out), "-j", "2", "--resume")
    assert result.exit_code == 0, result.output + result.stderr
    assert (out / "journal.jsonl").read_bytes().startswith(journal)
    assert all((out / name).read_bytes() == data for name, data in sgfs.items())
    records = read_journal(out)
    assert len(records) == len(schedule(C.load(conf))) == 3 * 2 * 4 + 4    # spelde: 3 pairings x 2 openings x 4; marbanta: 4
    assert records[:2] == old and len({r.id for r in records}) == len(records)
    assert {r.id for r in records[2:]}.isdisjoint({r.id for r in old})

    again = invoke("tournament", str(conf), "--out", str(out), "--resume", "-q")      # nothing left to play
    assert again.exit_code == 0 and len(read_journal(out)) == len(records)
    conf.write_text(GROWN.replace("seed = 4", "seed = 5"))
    refused = invoke("tournament", str(conf), "--out", str(out), "--resume")
    assert refused.exit_code == 1 and "seed: saved 4, now 5" in refused.stderr
