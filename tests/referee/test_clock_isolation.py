"""Two games in one process, one of them between engines flooding maximal analysis: the other
game's engines are charged the time they took (real engine processes, one trio run).

The honest engines answer the moment a flooding engine has written its answer, so each honest
answer reaches the referee while the referee reads a flood; each writes down its own time on
the move, which the test compares with what its clock was charged."""
from __future__ import annotations

import statistics
from functools import partial

import trio

from hexarena.referee.engines.process import open_engine
from hexarena.referee.game.clock import Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from tests.support.flood import flood_argv, follower_argv

MOVES = 12            # the honest game's plies (its cap)


def test_a_flood_of_analysis_in_one_game_charges_nothing_to_another(tmp_path) -> None:
    signal, own = tmp_path / "signal", tmp_path / "own"
    signal.write_text("")

    def seat(name: str, argv: list[str]) -> Seat:
        return Seat(name, partial(open_engine, argv, tmp_path / f"{name}.log", name))

    async def main():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(play_game, Setup("vaxandis", 13, ply_cap=100_000),
                                       (seat("flood-a", flood_argv(signal)), seat("flood-b", flood_argv(signal))),
                                       Limits(move=60)))
            record = await play_game(Setup("vaxandis", 13, ply_cap=MOVES),
                                     (seat("honest-a", follower_argv(signal, own)),
                                      seat("honest-b", follower_argv(signal, own))), Limits(move=30))
            nursery.cancel_scope.cancel()
            return record

    record = trio.run(main)
    assert record.forfeit is None and record.plies == MOVES, record.reason
    took = [float(x) for x in own.read_text().split()]
    assert len(took) == MOVES
    excess = sorted(move.think - mine for move, mine in zip(record.moves, took))
    # Charged past the engine's own time: pipe latency and scheduling, a few ms. Reading the
    # flood's lines on the event loop would add its whole cost (~0.2 s an answer) to each move.
    assert statistics.median(excess) < 0.08, excess
    assert excess[-1] < 1.0, excess
