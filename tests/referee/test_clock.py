"""Deadlines and the Fischer clock, under trio's MockClock (no real waiting)."""
from __future__ import annotations

import random
import re
from functools import partial

import pytest
import trio
import trio.testing

from hexarena.engine.core import Termination
from hexarena.protocol.controller import EngineCrashed, EngineTimeout, ProtocolViolation
from hexarena.referee.game.clock import Clock, Limits
from hexarena.referee.game.match import Seat, Setup, play_game
from hexarena.referee.engines.process import EngineChannel
from tests.support.memfake import MemEngine, mem_connect


def run_mock(fn):
    return trio.run(fn, clock=trio.testing.MockClock(autojump_threshold=0))


def seats(a: MemEngine, b: MemEngine) -> tuple[Seat, Seat]:
    return Seat(a.name, partial(mem_connect, a)), Seat(b.name, partial(mem_connect, b))


# -- the pure clock ------------------------------------------------------------------------

def test_clock_without_main_time_gives_the_move_limit_every_time():
    clock = Clock(Limits(move=5))
    assert clock.budget(0) == 5 and clock.told(0) == ("5", "1") and clock.left == [None, None]
    assert clock.charge(0, 4.9)
    assert clock.budget(0) == 5
    assert clock.charge(1, 5.05)                 # inside the 50 ms margin
    verdict = clock.charge(1, 5.06)
    assert not verdict and verdict.overrun == pytest.approx(0.06)


def test_the_default_is_ten_seconds_a_move_and_none_means_the_same():
    assert Clock(Limits()).budget(0) == 10
    assert Limits(control="none").control == "move"


def test_fischer_clock_spends_and_adds_the_increment():
    clock = Clock(Limits(move=10, main=12, increment=1))
    assert clock.budget(0) == 10
    assert clock.charge(0, 8)
    assert clock.left == [5, 12]
    assert clock.budget(0) == 5            # less than the move cap now
    assert clock.told(0) == ("5", "0")
    assert not clock.charge(0, 5.1)
    assert clock.left == [5, 12]           # a forfeited move leaves the clock as it was


def test_under_a_clock_there_is_no_hidden_move_cap():
    # 60 s on the clock, a 4 s move is fine unless a cap is set explicitly
    clock = Clock(Limits(main=60, increment=1))
    assert clock.budget(0) == 60 and clock.charge(0, 4)
    assert clock.left[0] == 57
    capped = Clock(Limits(main=60, increment=1, move=3))
    assert capped.told(0) == ("3", "0")    # told the smaller of the two
    verdict = capped.charge(0, 4)
    assert not verdict and verdict.allowed == 3 and verdict.overrun == pytest.approx(1)


@pytest.mark.parametrize("main, increment", [(60, 1), (5, 0.1), (0.1, 0.01), (300, 0)])
def test_an_engine_spending_90_percent_of_what_it_has_never_forfeits(main, increment):
    """What it has before a move: the main time left, which holds every increment earned so far."""
    clock = Clock(Limits(main=main, increment=increment))
    for _ in range(2000):
        spend = 0.9 * clock.budget(0)
        assert clock.charge(0, spend)
    assert clock.left[0] >= increment       # converges to 10 x the increment, never below it


@pytest.mark.parametrize("limits", [
    Limits(move=2), Limits(main=30, increment=0.5), Limits(main=30, increment=0.5, move=4),
    Limits(control="byoyomi", main=10, period=5, periods=3),
    Limits(control="canadian", main=10, period=20, stones=5), Limits(control="canadian", period=3, stones=2),
    Limits(main=30, increment=0.5, margin=0),
])
def test_an_engine_overrunning_by_more_than_the_margin_always_forfeits(limits):
    rng = random.Random(7)
    for trial in range(200):
        clock = Clock(limits)
        for _ in range(rng.randrange(30)):           # some moves in time first, to reach varied states
            assert clock.charge(0, rng.uniform(0, 1) * clock.budget(0))
        over = limits.margin + rng.choice([1e-6, 1e-3, 0.5, 100])
        verdict = clock.charge(0, clock.budget(0) + over)
        assert not verdict and verdict.overrun == pytest.approx(over)


def test_byoyomi_periods_are_used_up_only_by_moves_that_run_past_them():
    clock = Clock(Limits(control="byoyomi", main=10, period=5, periods=3))
    assert clock.budget(0) == 25 and clock.told(0) == ("10", "0")
    assert clock.charge(0, 8)                          # main time: 2 s left
    assert clock.budget(0) == 17
    v = clock.charge(0, 4)                             # 2 s of main, then 2 s into a period: kept
    assert (v.left, v.count) == (5, 3) and clock.told(0) == ("5", "3")
    assert clock.charge(0, 4.9).count == 3             # inside a period: no period used
    assert clock.charge(0, 7).count == 2               # ran past one period
    assert clock.budget(0) == 10
    assert clock.charge(0, 9.9).count == 1             # ran past one more
    assert clock.charge(0, 5.04).count == 1            # the last period is kept by a move in time
    assert not clock.charge(0, 5.06)


def test_byoyomi_a_long_first_move_may_spend_main_time_and_periods():
    clock = Clock(Limits(control="byoyomi", main=10, period=5, periods=3))
    assert clock.charge(0, 21).count == 1              # 10 main + 11: two periods run past
    assert not Clock(Limits(control="byoyomi", main=10, period=5, periods=3)).charge(0, 25.1)


def test_canadian_stones_reset_each_period():
    clock = Clock(Limits(control="canadian", main=5, period=10, stones=3))
    assert clock.budget(0) == 15
    v = clock.charge(0, 6)                             # 1 s into the first period; counts as a stone
    assert (v.left, v.count) == (9, 2) and clock.told(0) == ("9", "2")
    assert clock.charge(0, 4).count == 1
    v = clock.charge(0, 5)                             # the period's last stone: a new period
    assert (v.left, v.count) == (10, 3)
    assert clock.charge(0, 3) and clock.charge(0, 3)
    assert clock.budget(0) == 4
    assert not clock.charge(0, 4.1)


def test_each_seat_has_its_own_clock_and_time_odds():
    clock = Clock((Limits(main=60, increment=1), Limits(main=10)))
    assert clock.budget(0) == 60 and clock.budget(1) == 10
    clock.charge(1, 4)
    assert clock.left == [60, 6]


def test_time_settings_words():
    assert Limits(move=7.5).time_settings() == ("0", "7", "1")
    assert Limits(main=90, increment=2).time_settings() == ("90", "0", "0")
    assert Limits(main=0.1, increment=0.01).time_settings() == ("1", "0", "0")     # never `0 0 0`
    by = Limits(control="byoyomi", main=60, period=10, periods=5)
    ca = Limits(control="canadian", main=60, period=30, stones=10)
    assert by.time_settings() == ("60", "10", "1") and ca.time_settings() == ("60", "30", "10")
    clock = Clock((Limits(main=90, increment=2), by))
    assert clock.settings(0, kgs=True) == ("kgs-time_settings", "fischer", "90", "2")
    assert clock.settings(0, kgs=False) == ("time_settings", "90", "0", "0")
    assert clock.settings(1, kgs=True) == ("kgs-time_settings", "byoyomi", "60", "10", "5")
    assert Clock(ca).settings(0, kgs=True) == ("kgs-time_settings", "canadian", "60", "30", "10")
    assert Clock(Limits(move=3)).settings(0, kgs=True) == ("kgs-time_settings", "byoyomi", "0", "3", "1")
    # an increment is rounded down, to 0 too: told as 1 s, a 0.1 s increment made engines overspend
    assert Clock(Limits(main=10, increment=0.1)).settings(0, kgs=True) == ("kgs-time_settings", "fischer", "10", "0")
    assert Clock(Limits(main=10, increment=2.5)).settings(0, kgs=True) == ("kgs-time_settings", "fischer", "10", "2")


@pytest.mark.parametrize("kwargs", [
    {"move": 0}, {"move": -1}, {"start": 0}, {"main": 0}, {"increment": -1}, {"move": float("nan")},
    {"control": "sudden"}, {"control": "byoyomi", "period": 5}, {"control": "byoyomi", "periods": 2},
    {"control": "canadian", "period": 5, "stones": 0}, {"control": "move", "main": 5},
    {"main": 10, "stones": 3}, {"margin": -0.1}, {"control": "fischer"},
])
def test_limits_refuse_nonsense(kwargs):
    with pytest.raises(ValueError):
        Limits(**kwargs)


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
        slow = MemEngine("slow", think=lambda k: 10.04 if k < 3 else 10.06)
        quick = MemEngine("quick", seed=2)
        report = await play_game(Setup("spelde", 5), seats(slow, quick), Limits(move=10))
        assert report.termination == Termination.TIME.value
        assert report.result in ("B+T", "W+T")
        assert report.faulty == "slow" and report.winner == "quick"
        assert len([m for m in report.moves if (report.black if m.colour == "B" else report.white) == "slow"]) == 2
    run_mock(main)


def test_fischer_clock_runs_out_after_several_moves():
    async def main():
        # 3.5 s per move against 10 s main + 1 s increment: left 7.5, 5, 2.5, then too slow
        slow = MemEngine("slow", think=lambda k: 3.5)
        quick = MemEngine("quick", seed=2)
        report = await play_game(Setup("spelde", 5), seats(slow, quick), Limits(move=30, main=10, increment=1))
        assert report.termination == Termination.TIME.value and report.faulty == "slow"
        assert "within 2.5 s" in report.reason and "0.050 s past it" in report.reason
        told = [c for c in slow.received if c.startswith("time_left")]
        assert [int(c.split()[2]) for c in told] == [10, 7, 5, 2]
        assert "time_settings 10 0 0" in slow.received
    run_mock(main)


def test_a_move_limit_alone_is_told_as_one_byoyomi_period_before_every_genmove():
    async def main():
        a, b = MemEngine("a", think=lambda k: 0.4), MemEngine("b", seed=2, think=lambda k: 1.2)
        await play_game(Setup("spelde", 4), seats(a, b), Limits(move=2.5))
        for engine in (a, b):
            assert "time_settings 0 2 1" in engine.received
            asked = [i for i, c in enumerate(engine.received) if c.startswith("genmove")]
            assert asked and all(re.fullmatch(r"time_left (black|white) 2 1", engine.received[i - 1])
                                 for i in asked), engine.received
    run_mock(main)


def test_a_move_limit_alone_is_told_in_decimal_seconds_to_an_hgp_12_engine():
    clock = Clock(Limits(move=0.5))
    assert clock.told(0, decimal=True) == ("0.500", "1") and clock.told(0) == ("1", "1")    # never told 0
    assert clock.settings(0, kgs=True, decimal=True) == ("kgs-time_settings", "byoyomi", "0.000", "0.500", "1")
    assert clock.charge(0, 0.5) and clock.told(1, decimal=True) == ("0.500", "1")


def test_the_time_of_one_engine_is_not_charged_to_the_other():
    async def main():
        a = MemEngine("a", think=lambda k: 3.0)
        b = MemEngine("b", think=lambda k: 0.5, seed=2)
        report = await play_game(Setup("spelde", 5), seats(a, b), Limits(main=100))
        assert report.termination == Termination.NO_MOVES.value
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
        assert report.void and report.result == "Void" and report.faulty == "deaf"
        assert trio.current_time() - t0 == pytest.approx(20)
    run_mock(main)


def test_swap_exchanges_the_engines_colours():
    async def main():
        def swapper(k, state):
            return "swap" if k == 1 else None
        first = MemEngine("first")
        second = MemEngine("second", answers=swapper, seed=5)
        report = await play_game(Setup("spelde", 5), seats(first, second), Limits())
        assert report.moves[1].action == "swap" and report.moves[1].colour == "W"
        assert report.black == "second" and report.white == "first"
        # after the swap White is still to move, and the engine now holding White is `first`
        assert report.moves[2].colour == "W"
        assert [c for c in first.received if c.startswith("genmove")][:2] == ["genmove black", "genmove white"]
        assert report.termination == Termination.NO_MOVES.value
        assert report.winner in (report.black, report.white) and report.forfeit is None
    run_mock(main)


def test_ply_cap_adjudicates():
    async def main():
        report = await play_game(Setup("spelde", 5, ply_cap=6), seats(MemEngine("a"), MemEngine("b", seed=3)),
                                 Limits())
        assert len(report.tokens) == 6
        assert report.termination == Termination.PLY_CAP.value and report.result == "0"
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
    assert received[:8] == ["protocol_version", "name", "version", "list_games", "game spelde nopie", "boardsize 5",
                            "komi 3", "clear_board"]
    assert report.komi == 3


# -- clocks in a game (MockClock) -------------------------------------------------------------

def _last_told(engine: MemEngine) -> float:
    return float([c for c in engine.received if c.startswith("time_left")][-1].split()[2])


def test_in_a_game_an_engine_spending_90_percent_of_its_time_left_never_forfeits():
    async def main():
        a = MemEngine("a")
        a.think = lambda k: 0.9 * _last_told(a)
        b = MemEngine("b", seed=2)
        b.think = lambda k: 0.9 * _last_told(b)
        report = await play_game(Setup("spelde", 6), seats(a, b), Limits(main=20, increment=0.5))
        assert report.termination == Termination.NO_MOVES.value
        assert len(report.moves) > 20
        assert all(m.left is not None and m.left >= 0.5 for m in report.moves)
        assert "time_settings 20 0 0" in a.received        # no kgs-time_settings in list_commands
    run_mock(main)


def test_the_clock_follows_the_engine_through_a_swap():
    async def main():
        first = MemEngine("first", think=lambda k: 2.0)
        second = MemEngine("second", answers=lambda k, state: "swap" if k == 1 else None, seed=5)
        report = await play_game(Setup("spelde", 5), seats(first, second), Limits(main=100))
        told = [c.split()[1:3] for c in first.received if c.startswith("time_left")]
        assert told[:3] == [["black", "100"], ["white", "98"], ["white", "96"]]
        assert (report.moves[0].think, report.moves[0].left) == (2.0, 98.0)
        assert (report.moves[2].think, report.moves[2].left) == (2.0, 96.0)
    run_mock(main)


def test_a_time_forfeit_in_byoyomi_says_by_how_much_the_move_overran():
    async def main():
        slow = MemEngine("slow", think=lambda k: 4.0 if k < 4 else 6.0)
        report = await play_game(Setup("spelde", 5), seats(slow, MemEngine("q", seed=2)),
                                 Limits(control="byoyomi", main=5, period=5, periods=1))
        assert report.termination == Termination.TIME.value and report.faulty == "slow"
        assert "within 5 s (no answer 0.050 s past it)" in report.reason
        assert "time_settings 5 5 1" in slow.received
        assert [c.split()[2:] for c in slow.received if c.startswith("time_left")] == [
            ["5", "0"], ["1", "0"], ["5", "1"], ["5", "1"]]
    run_mock(main)


# -- a real process ----------------------------------------------------------------------------

THINKER = r'''
import sys, time
from hexarena.players.serve import make_engine
eng, think, moves = make_engine("random", 1), float(sys.argv[1]), 0
for line in sys.stdin:
    print("got", line.strip(), file=sys.stderr, flush=True)
    words = line.split()
    if words[1:2] == ["list_commands"]:
        out = eng.handle(line).rstrip("\n") + "\nkgs-time_settings\n\n"
    elif words[1:2] == ["kgs-time_settings"]:
        out = "=" + words[0] + "\n\n"
    else:
        if words[1:2] in (["genmove"], ["genmove_analyze"]):
            moves += 1
            if moves == 1:
                time.sleep(think)
        out = eng.handle(line)
    sys.stdout.write(out or "")
    sys.stdout.flush()
    if eng.finished:
        break
'''


def _real_game(tmp_path, time: dict, think: float):
    from hexarena.referee.tournament import config as C
    from hexarena.referee.tournament.run import run
    data = {"games_per_pair": 1, "time": time,
            "engines": {"thinker": {"cmd": ["{python}", "-c", THINKER, str(think)]},
                        "random": {"player": "random"}},
            "games": [{"game": "spelde", "size": 5, "ply_cap": 6}]}
    from hexarena.results.record.journal import read_journal
    trio.run(partial(run, C.from_dict(data), tmp_path, concurrency=1))
    [record] = read_journal(tmp_path)
    return record, (tmp_path / "logs" / f"{record.id}.1-thinker.log").read_text()


@pytest.mark.slow
def test_a_real_fischer_game_lets_an_engine_think_longer_than_a_move_cap_would(tmp_path):
    """A 2.5 s move on a 60 s + 1 s clock is in time; with `move = 2` it is not."""
    from sgfmill import sgf

    record, log = _real_game(tmp_path / "clock", {"main": 60, "increment": 1}, 2.5)
    assert record.termination == "ply-cap" and record.faulty is None, record.reason
    # the thinker lists hgp_version: told decimal seconds
    assert "kgs-time_settings fischer 60.000 1.000" in log and "time_left black 60.000 0" in log
    assert re.search(r"time_left black 58\.[0-4]\d\d 0", log)        # 60 - 2.5 + 1, rounded down
    node = sgf.Sgf_game.from_bytes((tmp_path / "clock" / record.sgf).read_bytes()).get_main_sequence()[1]
    assert float(node.get("XT")) >= 2.5 and 58 <= float(node.get("BL")) < 58.5

    capped, log = _real_game(tmp_path / "capped", {"main": 60, "increment": 1, "move": 2}, 2.5)
    assert capped.termination == "time" and capped.faulty == "thinker" and capped.plies == 0
    assert "no move within 2 s" in capped.reason and "time_left black 2.000 0" in log


# -- the [time] table --------------------------------------------------------------------------

def _config(time: dict, odds: dict | None = None):
    from hexarena.referee.tournament import config as C
    engines = {"a": {"player": "random"}, "b": {"player": "greedy"}}
    if odds is not None:
        engines["b"]["time"] = odds
    data = {"time": time, "engines": engines, "games": [{"game": "spelde"}]}
    config = C.from_dict(data, "t.toml")
    assert C.from_dict(C.to_dict(config)) == config          # the saved copy reads back the same
    return config


def test_time_tables_read_every_control():
    assert _config({}).limits == Limits()
    assert _config({"move": 5}).limits.cap == 5
    fischer = _config({"main": 60, "increment": 0.5, "margin": 0.02}).limits
    assert (fischer.control, fischer.cap, fischer.margin) == ("fischer", None, 0.02)
    by = _config({"control": "byoyomi", "main": 0, "period": 10, "periods": 3}).limits
    assert (by.main, by.period, by.periods) == (0, 10, 3)
    ca = _config({"control": "canadian", "main": 300, "period": 60, "stones": 20, "move": 30}).limits
    assert (ca.stones, ca.cap) == (20, 30)


def test_engine_time_odds_lay_over_the_time_table():
    config = _config({"main": 60, "increment": 1, "start": 5}, odds={"main": 30})
    b = config.engine("b").time
    assert (b.main, b.increment, b.start) == (30, 1, 5) and config.engine("a").time is None
    other = _config({"main": 60, "increment": 1}, odds={"control": "byoyomi", "main": 10, "period": 5,
                                                        "periods": 2})
    assert other.engine("b").time.control == "byoyomi" and other.engine("b").time.increment == 0


@pytest.mark.parametrize("time, odds, key", [
    ({"control": "hourglass"}, None, "time.control"),
    ({"control": "byoyomi", "period": 5}, None, "time"),
    ({"main": 60, "periods": 2}, None, "time"),
    ({"main": 60, "periods": 0}, None, "time.periods"),
    ({"margin": -1}, None, "time.margin"),
    ({"main": 60}, {"main": "long"}, "engines.b.time.main"),
    ({"main": 60}, {"speed": 1}, "engines.b.time.speed"),
])
def test_time_table_errors_name_the_key(time, odds, key):
    from hexarena.referee.tournament.config import ConfigError
    with pytest.raises(ConfigError) as info:
        _config(time, odds)
    assert info.value.key == key, str(info.value)


@pytest.mark.slow
def test_a_real_engine_under_a_move_limit_alone_is_told_time_left_before_every_genmove(tmp_path):
    record, log = _real_game(tmp_path / "move", {"move": 1.5}, 0.1)
    assert record.termination == "ply-cap", record.reason
    lines = [line.split(" ", 2)[2] for line in log.splitlines() if line.startswith("got ")]   # the thinker's own log
    assert "kgs-time_settings byoyomi 0.000 1.500 1" in lines, log
    asked = [i for i, line in enumerate(lines) if line.startswith("genmove")]
    assert len(asked) == 3 and all(lines[i - 1] == "time_left black 1.500 1" for i in asked), log


@pytest.mark.parametrize("field, value", [("main", 1e308), ("move", 1e9), ("increment", 2e7), ("period", 1e308),
                                          ("start", 1e10), ("command", 1e300), ("margin", 1e12)])
def test_a_limit_past_ten_million_seconds_is_refused_naming_it(field, value):
    extra = {"periods": 1, "control": "byoyomi"} if field == "period" else {"main": 60.0} if field == "increment" else {}
    with pytest.raises(ValueError, match=f"{field} must be at most 10,000,000 seconds"):
        Limits(**extra, **{field: value})


def test_a_config_with_main_1e308_is_refused_at_its_check(tmp_path):
    from hexarena.referee.tournament import config as C
    from hexarena.referee.tournament.config_check import ConfigError
    path = tmp_path / "t.toml"
    path.write_text('[time]\nmain = 1e308\n[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "random"\n'
                    '[[games]]\ngame = "spelde"\nsize = 4\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"t.toml:1: time: main must be at most 10,000,000 seconds"):
        C.load(path)
