"""Openings played by real engine processes: game pairs, records, distinct games from deterministic engines."""
from __future__ import annotations

from functools import partial

import pytest
import trio
from sgfmill import sgf

from hexarena.referee.console.live import final_summary, journal_summaries
from hexarena.referee.tournament import config as C
from hexarena.referee.tournament.run import run
from hexarena.results.record.journal import read_journal
from hexarena.results.rating.repeats import repeated_games

FIXED = ["{python}", "-P", "-m", "hexarena.players", "random", "--seed", "5"]     # deterministic


def tournament(tmp_path, entry: dict, games_per_pair: int = 2, **engines) -> list:
    engines = engines or {"one": {"cmd": FIXED}, "two": {"cmd": FIXED[:-1] + ["6"]}}
    config = C.from_dict({"seed": 3, "games_per_pair": games_per_pair, "engines": engines,
                          "time": {"move": 10, "start": 20}, "games": [entry]})
    trio.run(partial(run, config, tmp_path, concurrency=2))
    return read_journal(tmp_path)                   # whole records: the run returns counts


@pytest.mark.slow
def test_paired_games_share_their_opening_with_seats_exchanged(tmp_path):
    records = sorted(tournament(tmp_path, {"game": "spelde", "size": 5, "openings": ["c3 e5", "a1"]}),
                     key=lambda r: r.id)
    assert len(records) == 4 and not any(r.void for r in records)
    for one, two in zip(records[::2], records[1::2]):
        assert one.opening == two.opening and one.tokens[:one.opening] == two.tokens[:two.opening]
        assert (one.first, one.second) == (two.second, two.first)
    assert [r.tokens[:r.opening] for r in records[::2]] == [["c3", "e5"], ["a1"]]
    for r in records:
        think = [m.think for m in r.moves]
        assert len(think) == r.plies
        assert think[:r.opening] == [None] * r.opening and all(t >= 0 for t in think[r.opening:])
        root = sgf.Sgf_game.from_bytes((tmp_path / r.sgf).read_bytes()).get_root()
        assert root.get("XO") == str(r.opening) and "move 10 s" in root.get("OT")
        nodes = sgf.Sgf_game.from_bytes((tmp_path / r.sgf).read_bytes()).get_main_sequence()[1:]
        assert [n.has_property("XT") for n in nodes] == [False] * r.opening + [True] * (len(nodes) - r.opening)


@pytest.mark.slow
def test_deterministic_engines_replay_games_without_openings_and_not_with_random_ones(tmp_path):
    same = tournament(tmp_path / "plain", {"game": "spelde", "size": 4}, games_per_pair=4)
    assert repeated_games(same) and repeated_games(same)[0].repeated == 2      # games 3, 4 repeat 1, 2
    summaries, repeats = journal_summaries(tmp_path / "plain" / "journal.jsonl")   # the streaming reader
    assert repeats == repeated_games(same) and summaries == [r.summary() for r in same]
    assert "identical games: one vs two on spelde-4 pie: 2 of 4" in final_summary(summaries, repeats)
    assert final_summary(summaries, repeats) == final_summary(same)
    varied = tournament(tmp_path / "random", {"game": "spelde", "size": 4, "random_openings": 2}, games_per_pair=4)
    assert not any(r.void for r in varied)
    assert len({tuple(r.tokens) for r in varied}) == 4 and repeated_games(varied) == []


#: A real random engine that refuses to be told `c3` (its rules "disagree" with the referee's).
DISAGREES = ["{python}", "-c", (
    "import sys\n"
    "from hexarena.players.serve import make_engine\n"
    "engine = make_engine('random', 1)\n"
    "for line in sys.stdin:\n"
    "    w = line.split()\n"
    "    if w[1:2] == ['play'] and w[-1] == 'c3':\n"
    "        sys.stdout.write('?' + w[0] + ' illegal move\\n\\n'); sys.stdout.flush(); continue\n"
    "    answer = engine.handle(line)\n"
    "    if answer:\n"
    "        sys.stdout.write(answer); sys.stdout.flush()\n"
    "    if engine.finished:\n"
    "        break\n")]


@pytest.mark.slow
def test_nobody_forfeits_in_an_opening_the_game_is_void(tmp_path):
    records = sorted(tournament(tmp_path, {"game": "spelde", "size": 5, "openings": ["c3", "e5"]},
                               one={"cmd": DISAGREES}, two={"cmd": FIXED}), key=lambda r: r.id)
    assert [r.void for r in records] == [True, True, False, False]
    assert all(r.faulty == "one" and r.reason.startswith("opening: one failed play black c3") for r in records[:2])
    assert records[2].tokens[0] == "e5" and records[2].opening == 1
