"""The coordinator's replay check (hexarena/cluster_check.py) on the records of a real local run,
and on those records altered the ways a forger would alter them."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hexarena.cluster_check import refusal, verified, with_sgf
from hexarena.referee.tournament import config as config_mod
from hexarena.referee.tournament.schedule import schedule
from hexarena.results.page.replay_cache import CACHE_NAME, replay_file
from hexarena.results.record.game import GameRecord

CONFIG = """seed = 5
games_per_pair = 2
[time]
move = 10
[engines.random]
player = "random"
[engines.greedy]
player = "greedy"
[[games]]
game = "spelde"
size = 5
openings = ["c3", "e5 a1"]
[[games]]
game = "spelde"
size = 4
ply_cap = 5
[[games]]
game = "marbanta"
size = 4
openings = ["e5,c3 keep", "c3,e5 swap"]
[[games]]
game = "vaxandis"
size = 4
[[games]]
game = "anda"
size = 4
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> list[tuple[GameRecord, object]]:
    folder = tmp_path_factory.mktemp("check")
    (folder / "t.toml").write_text(CONFIG, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "hexarena", "tournament", "t.toml", "--out", "out", "-j", "2", "-q"],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    games = {g.id: g for g in schedule(config_mod.load(folder / "t.toml"))}
    records = [GameRecord.from_dict(json.loads(line)) for line in (folder / "out" / "journal.jsonl").open()]
    return [(r, games[r.id]) for r in records]


def test_every_record_of_a_real_run_is_accepted(played):
    endings = {r.termination.value for r, _ in played}
    assert "ply-cap" in endings and len(endings) >= 2 and not [r for r, _ in played if r.void]
    assert [(r.id, refusal(r, g)) for r, g in played if refusal(r, g) is not None] == []


def flip(result: str) -> str:
    return {"B": "W", "W": "B"}[result[0]] + result[1:]


def test_a_forged_winner_is_refused(played):
    for record, game in played:
        if record.winner is None:
            continue
        forged = replace(record, winner=record.loser, result=flip(record.result))
        assert "where the moves give" in refusal(forged, game), record.id
        assert "where the moves give" in refusal(replace(record, winner=record.loser), game)


def test_a_changed_or_extra_action_termination_or_identity_is_refused(played):
    record, game = next((r, g) for r, g in played if r.game == "spelde" and r.size == 5)
    moves = record.moves
    assert "not legal" in refusal(replace(record, moves=moves[:-1] + (replace(moves[-1], action=moves[0].action),)),
                                  game)
    assert refusal(replace(record, moves=moves + (replace(moves[-1], colour="B"),), plies=record.plies + 1),
                   game) is not None
    assert "opening" in refusal(replace(record, moves=(replace(moves[0], action="a1"),) + moves[1:]), game)
    assert refusal(replace(record, termination="resign", result=record.result[:2] + "R"), game) is not None
    assert "schedule says" in refusal(replace(record, first=record.second, second=record.first), game)
    # the game was over: only the other engine's `play` of the last action was still to come
    colour = record.moves[-1].colour
    last, other = (record.black, record.white) if colour == "B" else (record.white, record.black)
    win = "W" if colour == "B" else "B"
    forfeit = replace(record, termination="crash", forfeit="crash", faulty=other, winner=last,
                      result=f"{colour}+F")
    assert refusal(forfeit, game) is None
    assert "cannot have forfeited" in refusal(replace(forfeit, faulty=last, winner=other, result=f"{win}+F"), game)


def test_a_forfeit_is_checked_for_what_can_be_checked(played):
    record, game = next((r, g) for r, g in played if r.termination.value == "ply-cap")
    cut = record.opening + 2                                 # stopped with the 3rd chosen action to come
    short = replace(record, moves=tuple(replace(m, think=None, left=None) for m in record.moves[:cut]), plies=cut)
    to_move = "B" if short.moves[-1].colour == "W" else "W"
    mover = short.black if to_move == "B" else short.white
    other = short.second if mover == short.first else short.first
    win = "W" if to_move == "B" else "B"
    ok = replace(short, termination="illegal", forfeit="illegal", faulty=mover, winner=other, result=f"{win}+F")
    assert refusal(ok, game) is None
    # only the engine to move can answer with an illegal action
    assert "cannot have forfeited" in refusal(replace(ok, faulty=other, winner=mover, result=f"{to_move}+F"), game)
    # a crash is the engine's to move (in `genmove`, or in `play` of the last action), not the last mover's
    assert refusal(replace(ok, termination="crash", forfeit="crash"), game) is None
    assert "cannot have forfeited" in refusal(replace(ok, termination="crash", forfeit="crash", faulty=other,
                                                      winner=mover, result=f"{to_move}+F"), game)
    assert "where the moves give" in refusal(replace(ok, result=f"{win}+T"), game)


def test_a_checked_record_gets_its_sgf_and_report_cache_entry_from_the_check_s_replay(played, tmp_path):
    (tmp_path / "t.toml").write_text(CONFIG, encoding="utf-8")
    config = config_mod.load(tmp_path / "t.toml")
    out = tmp_path / "out"
    for record, game in played:
        checked, why, trail = verified(json.loads(record.to_json()), game)
        assert why is None and checked is not None
        assert len(trail[0]) == record.plies + 1 and len(trail[1]) == record.plies
        assert with_sgf(checked, config, out, trail).sgf == f"games/{record.id}.sgf"
    cached = {}
    for line in (out / CACHE_NAME).read_text().splitlines():
        entry = json.loads(line)
        cached[entry["k"][0]] = entry["d"]
    assert sorted(cached) == sorted(f"games/{r.id}.sgf" for r, _ in played)
    for path, data in cached.items():
        assert data == replay_file(out / path), path
