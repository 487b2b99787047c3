"""The coordinator's check (hexarena/cluster_check.py) of an adjudicated record: judged again from the
record's own analysis under the tournament's [adjudication]; a real game, then forgeries of it."""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
import trio

from hexarena.cluster_check import refusal
from hexarena.referee.engines.process import open_engine
from hexarena.referee.game.adjudication import Adjudication
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.tournament.schedule import ScheduledGame
from hexarena.results.record.game import GameRecord
from tests.support.fakes12 import fake12_argv

RULES = Adjudication(resign_moves=3)
GAME = ScheduledGame("spelde-4-nopie/0000", "spelde", 4, "nopie", "a", "b", (1, 2))


@pytest.fixture(scope="module")
def adjudicated(tmp_path_factory) -> GameRecord:
    logs = tmp_path_factory.mktemp("logs")
    seats = tuple(Seat(name, partial(open_engine, fake12_argv(flags), logs / f"{name}.log", name))
                  for name, flags in (("a", "v12,wr=0.97"), ("b", "v12,wr=0.5/0.5/0.03")))
    record = trio.run(partial(play_game, Setup("spelde", 4, ("nopie",), adjudication=RULES), seats,
                              Limits(move=5, start=10, command=5), game_id=GAME.id))
    assert record.termination == "adjudicated" and record.plies == 10, record.reason
    return record


def test_an_adjudicated_record_is_accepted_under_its_rules(adjudicated):
    assert refusal(adjudicated, GAME, RULES) is None


def test_forged_adjudications_are_refused(adjudicated):
    record = adjudicated
    assert "without [adjudication]" in str(refusal(record, GAME, None))
    assert "before its end" in str(refusal(record, GAME, Adjudication(resign_moves=2)))
    assert "do not decide" in str(refusal(record, GAME, Adjudication(resign_moves=4)))
    forged = replace(record, winner="b", result="W+")
    assert "where the moves give" in str(refusal(forged, GAME, RULES))
    assert record.adjudication is not None
    assert "where the winrates give" in str(refusal(replace(record, adjudication={**record.adjudication, "ply": 9}),
                                                    GAME, RULES))
    moves = record.moves
    unsure = replace(moves[-1], analysis=({"line": "info winrate 0.5", "winrate": 0.5},))   # b did not concede
    assert "do not decide" in str(refusal(replace(record, moves=moves[:-1] + (unsure,)), GAME, RULES))
    cut = replace(record, moves=moves[:-1], plies=9)
    assert "do not decide" in str(refusal(cut, GAME, RULES))
