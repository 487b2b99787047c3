"""How a game ended is a value the referee returns (referee/game/faults.py): each kind of end,
between real engine processes, with the moves and the referee's own states that go with it."""
from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import pytest
import trio

from hexarena.engine.core import Colour, Termination
from hexarena.referee.engines.process import open_engine
from hexarena.referee.game import faults
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.faults import Finished, Forfeited, Voided
from hexarena.referee.game.match import Refereed, Seat, Setup, referee
from hexarena.results.record.game import VoidCause
from tests.support.fakes import fake_argv

LIMITS = Limits(move=1.0, start=10.0, command=5.0)

#: An engine that answers `protocol_version` and dies at its next command: a fault in the handshake.
DIES_AFTER_HELLO = [sys.executable, "-c", """
import sys
for line in sys.stdin:
    words = line.split()
    cid = words[0] if words and words[0].isdigit() else ''
    print('=' + cid + ' 2\\n', flush=True)
    break
"""]


def seat(tmp_path: Path, name: str, argv: list[str]) -> Seat:
    return Seat(name, partial(open_engine, argv, tmp_path / f"{name}.log", name))


def play(tmp_path: Path, first: list[str], second: list[str], setup: Setup = Setup("spelde", 5)) -> Refereed:
    return trio.run(referee, setup, (seat(tmp_path, "one", first), seat(tmp_path, "two", second)), LIMITS)


def check_trail(refereed: Refereed) -> None:
    """The referee's states cover its record's moves: one state more than actions, one action per move."""
    moves = refereed.record.moves or ()
    assert len(refereed.states) == len(moves) + 1 and len(refereed.actions) == len(moves)
    state = refereed.states[0]
    for move, action, after in zip(moves, refereed.actions, refereed.states[1:]):
        assert state.to_move.letter == move.colour and state.format(action) == move.action
        state = state.play(action)
        assert state.position() == after.position()


def test_a_game_the_rules_end_returns_its_finish_and_every_state(tmp_path):
    done = play(tmp_path, fake_argv("good"), fake_argv("good"))
    assert isinstance(done.end, Finished) and done.end.reason == "ended by the rules"
    assert done.end.outcome.termination is Termination.NO_MOVES and done.end.adjudication is None
    assert done.record.termination == "no-moves" and done.record.faulty is None
    check_trail(done)
    assert done.states[-1].outcome() == done.end.outcome


def test_the_ply_cap_and_a_resignation_are_finishes(tmp_path):
    capped = play(tmp_path, fake_argv("good"), fake_argv("good"), Setup("spelde", 5, ply_cap=4))
    assert capped.end == Finished(capped.states[-1].adjudicate(), "ply cap 4")
    assert len(capped.record.moves) == 4
    check_trail(capped)
    resigned = play(tmp_path, fake_argv("good"), fake_argv("resign", 2))
    assert resigned.end == Finished(resigned.end.outcome, "two resigned")
    assert resigned.end.outcome.termination is Termination.RESIGN and resigned.record.winner == "one"
    check_trail(resigned)


@pytest.mark.parametrize("mode, at, termination", [("illegal", 3, Termination.ILLEGAL),
                                                   ("malformed", 2, Termination.MALFORMED),
                                                   ("hang", 2, Termination.TIME),
                                                   ("crash", 3, Termination.CRASH)])
def test_a_fault_of_the_mover_is_a_forfeit_of_its_seat(tmp_path, mode, at, termination):
    lost = play(tmp_path, fake_argv("good"), fake_argv(mode, at))
    assert isinstance(lost.end, Forfeited) and (lost.end.seat, lost.end.termination) == (1, termination)
    assert lost.record.reason == lost.end.reason and lost.record.faulty == "two" and lost.record.winner == "one"
    check_trail(lost)


def test_a_refused_play_of_a_checked_action_is_the_other_seat_s_forfeit(tmp_path):
    lost = play(tmp_path, fake_argv("refuse-play", 4), fake_argv("good"))
    assert isinstance(lost.end, Forfeited) and (lost.end.seat, lost.end.termination) == (0, Termination.CRASH)
    assert "one refused play" in lost.end.reason
    check_trail(lost)


def test_a_fault_in_the_handshake_is_a_forfeit_without_moves(tmp_path):
    lost = play(tmp_path, fake_argv("good"), DIES_AFTER_HELLO)
    assert isinstance(lost.end, Forfeited) and (lost.end.seat, lost.end.termination) == (1, Termination.CRASH)
    assert lost.record.moves == () and lost.states == () and lost.record.result == "B+F"


def test_voids_name_their_cause_and_seat(tmp_path):
    unstarted = play(tmp_path, fake_argv("good"), fake_argv("crash-start"))
    assert isinstance(unstarted.end, Voided) and (unstarted.end.cause, unstarted.end.seat) == (VoidCause.START, 1)
    missing = play(tmp_path, ["/nonexistent/engine"], fake_argv("good"))
    assert isinstance(missing.end, Voided) and (missing.end.cause, missing.end.seat) == (VoidCause.START, 0)
    refused = play(tmp_path, fake_argv("good"), fake_argv("refuse-play", 1), Setup("spelde", 5, opening=("c3",)))
    assert isinstance(refused.end, Voided) and (refused.end.cause, refused.end.seat) == (VoidCause.OPENING, 1)
    for void in (unstarted, missing, refused):
        assert void.record.void and void.record.reason == void.end.reason and void.states == ()


def test_a_failure_of_the_referee_itself_is_an_exception_it_turns_into_a_void(tmp_path, capsys):
    def broken() -> object:
        raise RuntimeError("the referee's own bug")
    seats = (seat(tmp_path, "one", fake_argv("good")), Seat("two", broken))      # type: ignore[arg-type]
    void = trio.run(referee, Setup("spelde", 5), seats, LIMITS)
    assert isinstance(void.end, Voided) and (void.end.cause, void.end.seat) == (VoidCause.REFEREE, None)
    assert "RuntimeError" in capsys.readouterr().err


def test_no_end_of_a_game_is_an_exception_class():
    kinds = [v for v in vars(faults).values() if isinstance(v, type) and issubclass(v, BaseException)
             and v.__module__ == faults.__name__]
    assert kinds == []
    assert faults.Played(Forfeited(1, Termination.TIME, "late")).outcome().winner is Colour.BLACK
