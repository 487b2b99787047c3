"""Deadlines and the Fischer clock, under trio's MockClock (no real waiting)."""
from __future__ import annotations

from functools import partial

import pytest
import trio
import trio.testing

from hexarena.engine.core import Colour, Termination
from hexarena.protocol.controller import EngineCrashed, EngineTimeout, ProtocolViolation
from hexarena.referee.clock import Clock, Limits
from hexarena.referee.match import Seat, Setup, play_game
from hexarena.referee.process import EngineChannel
from tests.referee.memfake import MemEngine, mem_connect


def run_mock(fn):
    return trio.run(fn, clock=trio.testing.MockClock(autojump_threshold=0))


def seats(a: MemEngine, b: MemEngine) -> tuple[Seat, Seat]:
    return Seat(a.name, partial(mem_connect, a)), Seat(b.name, partial(mem_connect, b))


# -- the pure clock ------------------------------------------------------------------------

def test_clock_without_main_time_gives_the_move_limit_every_time():
    clock = Clock(Limits(move=5))
    assert clock.budget(0) == 5
    assert clock.charge(0, 4.9)
    assert clock.budget(0) == 5
    assert not clock.charge(1, 5.1)


def test_fischer_clock_spends_and_adds_the_increment():
    clock = Clock(Limits(move=10, main=12, increment=1))
    assert clock.budget(0) == 10
    assert clock.charge(0, 8)
    assert clock.left == [5, 12]
    assert clock.budget(0) == 5            # less than the move limit now
    assert not clock.charge(0, 5.5)


@pytest.mark.parametrize("kwargs", [{"move": 0}, {"move": -1}, {"start": 0}, {"main": 0}, {"increment": -1},
                                    {"move": float("nan")}])
def test_limits_refuse_nonsense(kwargs):
    with pytest.raises(ValueError):
        Limits(**kwargs)


def test_time_settings_words():
    assert Limits(move=7.5).time_settings() == ("0", "7", "1")
    assert Limits(main=90, increment=2).time_settings() == ("90", "0", "0")


# -- the channel ---------------------------------------------------------------------------

async def _channel_pair():
    to_send, to_recv = trio.testing.memory_stream_one_way_pair()
    from_send, from_recv = trio.testing.memory_stream_one_way_pair()
    return EngineChannel(to_send, from_recv, "fake"), to_recv, from_send


def test_channel_times_out_at_the_deadline_and_stays_broken():
    async def main():
        ch, to_recv, from_send = await _channel_pair()
        start = trio.current_time()
        with pytest.raises(EngineTimeout, match="fake"):
            await ch.command("genmove", "b", deadline=start + 3)
        assert trio.current_time() - start == pytest.approx(3)
        assert not ch.healthy
        with pytest.raises(EngineTimeout):
            await ch.command("name", deadline=trio.current_time() + 3)
    run_mock(main)


def test_channel_reads_a_response_split_in_pieces_and_checks_the_id():
    async def main():
        ch, to_recv, from_send = await _channel_pair()

        async def engine():
            await to_recv.receive_some(100)
            for piece in (b"=", b"1 e", b"5\n", b"\n"):
                await trio.sleep(0.5)
                await from_send.send_all(piece)
            await to_recv.receive_some(100)
            await from_send.send_all(b"=7 e6\n\n")         # wrong id
        async with trio.open_nursery() as n:
            n.start_soon(engine)
            assert await ch.command("genmove", "b", deadline=trio.current_time() + 10) == "e5"
            with pytest.raises(ProtocolViolation, match="id 7, expected 2"):
                await ch.command("genmove", "w", deadline=trio.current_time() + 10)
    run_mock(main)


def test_channel_eof_is_a_crash_and_extra_responses_are_a_violation():
    async def main():
        ch, to_recv, from_send = await _channel_pair()
        await from_send.send_all(b"=1\n\n=1\n\n")
        with pytest.raises(ProtocolViolation, match="2 responses to one command"):
            await ch.command("clear_board", deadline=trio.current_time() + 1)
        ch2, to_recv2, from_send2 = await _channel_pair()
        await from_send2.aclose()
        with pytest.raises(EngineCrashed):
            await ch2.command("name", deadline=trio.current_time() + 1)
    run_mock(main)


# -- deadlines in a game ---------------------------------------------------------------------

def test_a_move_just_inside_the_limit_is_fine_and_just_over_forfeits():
    async def main():
        slow = MemEngine("slow", think=lambda k: 9.99 if k < 3 else 10.01)
        quick = MemEngine("quick", seed=2)
        report = await play_game(Setup("spelde", 5), seats(slow, quick), Limits(move=10))
        assert report.outcome.termination is Termination.TIME
        assert report.result in ("B+T", "W+T")
        assert report.faulty == "slow" and report.winner == "quick"
        assert len([c for c, _ in report.actions if report.name_of(c) == "slow"]) == 2
    run_mock(main)


def test_fischer_clock_runs_out_after_several_moves():
    async def main():
        # 3.5 s per move against 10 s main + 1 s increment: left 7.5, 5, 2.5, then too slow
        slow = MemEngine("slow", think=lambda k: 3.5)
        quick = MemEngine("quick", seed=2)
        report = await play_game(Setup("spelde", 5), seats(slow, quick), Limits(move=30, main=10, increment=1))
        assert report.outcome.termination is Termination.TIME and report.faulty == "slow"
        assert "within 2.5 s" in report.reason
        told = [c for c in slow.received if c.startswith("time_left")]
        assert [int(c.split()[2]) for c in told] == [10, 7, 5, 2]
        assert "time_settings 10 0 0" in slow.received
    run_mock(main)


def test_the_time_of_one_engine_is_not_charged_to_the_other():
    async def main():
        a = MemEngine("a", think=lambda k: 3.0)
        b = MemEngine("b", think=lambda k: 0.5, seed=2)
        report = await play_game(Setup("spelde", 5), seats(a, b), Limits(move=5, main=100))
        assert report.outcome.termination is Termination.NO_MOVES
        told_b = [int(c.split()[2]) for c in b.received if c.startswith("time_left")]
        assert told_b[:3] == [100, 99, 99]     # 100 - 0.5 per move, floored
    run_mock(main)


def test_a_hung_handshake_voids_after_the_start_deadline():
    async def main():
        class Deaf(MemEngine):
            async def serve(self, stdin, stdout):
                await trio.sleep_forever()
        t0 = trio.current_time()
        report = await play_game(Setup("spelde", 5), seats(Deaf("deaf"), MemEngine("ok")), Limits(start=20))
        assert report.outcome is None and report.result == "Void" and report.faulty == "deaf"
        assert trio.current_time() - t0 == pytest.approx(20)
    run_mock(main)


def test_swap_exchanges_the_engines_colours():
    async def main():
        def swapper(k, state):
            return "swap" if k == 1 else None
        first = MemEngine("first")
        second = MemEngine("second", answers=swapper, seed=5)
        report = await play_game(Setup("spelde", 5), seats(first, second), Limits())
        assert report.actions[1] == (Colour.WHITE, "swap")
        assert report.name_of(Colour.BLACK) == "second" and report.name_of(Colour.WHITE) == "first"
        # after the swap White is still to move, and the engine now holding White is `first`
        assert report.actions[2][0] is Colour.WHITE
        assert [c for c in first.received if c.startswith("genmove")][:2] == ["genmove black", "genmove white"]
        assert report.outcome.termination is Termination.NO_MOVES
        assert report.winner == report.name_of(report.outcome.winner)
    run_mock(main)


def test_ply_cap_adjudicates():
    async def main():
        report = await play_game(Setup("spelde", 5, ply_cap=6), seats(MemEngine("a"), MemEngine("b", seed=3)),
                                 Limits())
        assert len(report.actions) == 6
        assert report.outcome.termination is Termination.PLY_CAP and report.result == "0"
        assert report.winner is None
    run_mock(main)


def test_a_referee_bug_voids_the_game_instead_of_crashing_the_run(capsys):
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def broken():
        raise RuntimeError("bug in the launcher")
        yield

    async def main():
        return await play_game(Setup("spelde", 5), (Seat("ok", partial(mem_connect, MemEngine("ok"))),
                                                     Seat("x", broken)), Limits())
    report = run_mock(main)
    assert report.result == "Void" and report.faulty is None
    assert "referee error" in report.reason and "bug in the launcher" in report.reason
    assert "RuntimeError" in capsys.readouterr().err


def test_komi_is_sent_after_the_game_and_size_and_given_to_the_rules():
    async def main():
        a, b = MemEngine("a"), MemEngine("b", seed=2)
        report = await play_game(Setup("spelde", 5, ("nopie",), komi=3), seats(a, b), Limits())
        return a.received, report
    received, report = run_mock(main)
    assert received[:6] == ["protocol_version", "list_games", "game spelde nopie", "boardsize 5", "komi 3",
                            "clear_board"]
    assert report.komi == 3
