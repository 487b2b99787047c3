"""EngineChannel over real pipes, with and without the pipe fast path (referee/eager.py).

The test plays the engine: it writes answers into the engine's stdout pipe
and reads the engine's stdin pipe. An answer written before the command is
in the pipe when the channel looks, so the eager channel takes it without
awaiting (no cancel scope); one written later makes it wait under the
deadline. Every behaviour must be the same both ways. Deadlines run on
trio's MockClock.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import termios
import time

import pytest
import trio
import trio.testing

from hexarena.protocol.controller import CommandFailed, EngineCrashed, EngineTimeout, ProtocolViolation
from hexarena.referee.engines.channel import EngineChannel
from hexarena.referee.engines.eager import eager_pair

MODES = pytest.mark.parametrize("eager", [True, False], ids=["eager", "plain"])


class Pipes:
    """A channel to "the engine", whose ends are `stdin` (what it reads) and `stdout` (what it writes)."""

    def __init__(self, eager: bool, max_bytes: int = 1_000_000):
        (in_r, in_w), (out_r, out_w) = os.pipe(), os.pipe()
        self.stdin, self.stdout = in_r, out_w
        self.stdout_read = out_r                # the channel's end of `stdout`
        os.set_blocking(in_r, False)
        send, receive = eager_pair(trio.lowlevel.FdStream(in_w), trio.lowlevel.FdStream(out_r), eager)
        self.channel = EngineChannel(send, receive, "fake", max_bytes)

    def answer(self, data: bytes) -> None:
        os.write(self.stdout, data)

    def received(self) -> bytes:
        try:
            return os.read(self.stdin, 65536)
        except BlockingIOError:
            return b""

    async def answer_later(self, delay: float, data: bytes) -> None:
        await trio.sleep(delay)
        self.answer(data)

    async def close(self) -> None:
        await self.channel.aclose_streams()
        for fd in (self.stdin, self.stdout):
            try:
                os.close(fd)
            except OSError:
                pass


def run_mock(fn, *args):
    return trio.run(fn, *args, clock=trio.testing.MockClock(autojump_threshold=0))


@MODES
def test_an_answer_in_the_pipe_and_one_that_comes_later(eager):
    async def main():
        p = Pipes(eager)
        p.answer(b"=1 spelde\n\n")
        assert await p.channel.command("name", deadline=trio.current_time() + 5) == "spelde"
        assert p.received() == b"1 name\n"
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.answer_later, 2, b"=2 e")
            nursery.start_soon(p.answer_later, 3, b"5\n\n")
            t0 = trio.current_time()
            assert await p.channel.command("genmove", "b", deadline=t0 + 5) == "e5"
            assert trio.current_time() - t0 == pytest.approx(3)
        assert p.channel.wait_seconds == pytest.approx(3)
        assert p.channel.healthy
        await p.close()
    run_mock(main)


@MODES
def test_part_of_an_answer_in_the_pipe_and_the_rest_later(eager):
    async def main():
        p = Pipes(eager)
        p.answer(b"=1 a\nb")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.answer_later, 1, b"\n\n")
            assert await p.channel.command("showboard", deadline=trio.current_time() + 5) == "a\nb"
        await p.close()
    run_mock(main)


@MODES
@pytest.mark.parametrize("answer,error,message", [
    (b"=7 2\n\n", ProtocolViolation, "fake: response id 7, expected 1"),
    (b"= 2\n\n", ProtocolViolation, "fake: response carries no id, expected 1"),
    (b"=1 2\n\n=1 2\n\n", ProtocolViolation, "fake: 2 responses to one command"),
    (b"hello\n\n=1 2\n\n", ProtocolViolation, "fake: response does not start with '=' or '?': 'hello'"),
    (b"=1x 2\n\n", ProtocolViolation, "fake: no space after =1 in response"),
    (b"=1 caf\xe9\n\n", ProtocolViolation, "fake: response is not UTF-8 (byte 6)"),
    (b"=1 " + b"x" * 101 + b"\n\n", ProtocolViolation, "fake: response text of 101 bytes exceeds 100"),
    (b"=1 " + b"x" * 200, ProtocolViolation, "fake: response exceeds 100 bytes without its terminating"),
])
def test_bad_answers_are_the_same_error_both_ways_and_the_channel_stays_broken(eager, answer, error, message):
    async def main():
        p = Pipes(eager, max_bytes=100)
        p.answer(answer)
        with pytest.raises(error) as first:
            await p.channel.command("name", deadline=trio.current_time() + 5)
        assert str(first.value).startswith(message), str(first.value)
        assert not p.channel.healthy
        with pytest.raises(error) as second:
            await p.channel.command("name", deadline=trio.current_time() + 5)
        assert second.value is first.value
        await p.close()
    run_mock(main)


@MODES
def test_an_answer_of_exactly_the_cap_is_taken_and_a_refusal_keeps_the_channel(eager):
    async def main():
        p = Pipes(eager, max_bytes=100)
        p.answer(b"=1 " + b"x" * 100 + b"\n\n")
        assert await p.channel.command("name", deadline=trio.current_time() + 5) == "x" * 100
        p.answer(b"?2 unknown command\n\n")
        with pytest.raises(CommandFailed, match="unknown command"):
            await p.channel.command("frobnicate", deadline=trio.current_time() + 5)
        p.answer(b"\r\n=3 ok\r\n\r\n")
        assert await p.channel.command("name", deadline=trio.current_time() + 5) == "ok"
        assert p.channel.healthy
        await p.close()
    run_mock(main)


@MODES
def test_no_answer_times_out_at_the_deadline(eager):
    async def main():
        p = Pipes(eager)
        t0 = trio.current_time()
        with pytest.raises(EngineTimeout, match="fake: no answer to 'genmove' in time"):
            await p.channel.command("genmove", "b", deadline=t0 + 3)
        assert trio.current_time() - t0 == pytest.approx(3)
        assert p.channel.wait_seconds == pytest.approx(3)
        await p.close()
    run_mock(main)


@MODES
def test_a_deadline_already_passed_times_out_before_writing_even_with_the_answer_there(eager):
    async def main():
        p = Pipes(eager)
        p.answer(b"=1 2\n\n")
        with pytest.raises(EngineTimeout):
            await p.channel.command("name", deadline=trio.current_time())
        assert p.received() == b""
        await p.close()
    run_mock(main)


@MODES
def test_an_exit_during_a_command_is_a_crash_at_once(eager):
    async def main():
        p = Pipes(eager)

        async def exit_later():
            await trio.sleep(1)
            p.channel.engine_exited("exited with status 3")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(exit_later)
            t0 = trio.current_time()
            with pytest.raises(EngineCrashed, match=r"fake: exited with status 3 \(during 'genmove'\)"):
                await p.channel.command("genmove", "b", deadline=t0 + 100)
            assert trio.current_time() - t0 == pytest.approx(1 + 0.05)    # + EXIT_GRACE for a last answer
        with pytest.raises(EngineCrashed, match="fake: exited with status 3"):
            await p.channel.command("name", deadline=trio.current_time() + 5)
        await p.close()
    run_mock(main)


@MODES
def test_an_answer_written_just_before_the_exit_is_taken(eager):
    async def main():
        p = Pipes(eager)

        async def answer_and_exit():
            await trio.sleep(1)
            p.answer(b"=1 e5\n\n")
            p.channel.engine_exited("exited with status 0")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(answer_and_exit)
            assert await p.channel.command("genmove", "b", deadline=trio.current_time() + 100) == "e5"
        with pytest.raises(EngineCrashed, match="fake: exited with status 0"):     # known before sending
            await p.channel.command("name", deadline=trio.current_time() + 5)
        assert p.received() == b"1 genmove b\n"
        await p.close()
    run_mock(main)


@MODES
def test_eof_is_a_crash_and_so_is_a_closed_stdin(eager):
    async def main():
        p = Pipes(eager)
        os.close(p.stdout)
        with pytest.raises(EngineCrashed, match=r"fake: closed its stdout \(exited\?\)"):
            await p.channel.command("name", deadline=trio.current_time() + 5)
        await p.close()
        q = Pipes(eager)
        os.close(q.stdin)
        with pytest.raises(EngineCrashed, match=r"fake: cannot write to it: its stdin is closed \(exited\?\)"):
            await q.channel.command("name", deadline=trio.current_time() + 5)
        await q.close()
    run_mock(main)


@MODES
def test_a_cut_off_answer_at_eof_is_a_violation(eager):
    async def main():
        p = Pipes(eager)
        p.answer(b"=1 e5")
        os.close(p.stdout)
        with pytest.raises(ProtocolViolation, match="fake: stdout closed in the middle of a response"):
            await p.channel.command("name", deadline=trio.current_time() + 5)
        await p.close()
    run_mock(main)


@MODES
def test_a_command_longer_than_the_pipe_holds_is_sent_in_full(eager):
    async def main():
        p = Pipes(eager)
        word = "x" * 200_000
        got = bytearray()

        async def engine():
            while not got.endswith(b"\n"):
                await trio.lowlevel.wait_readable(p.stdin)
                got.extend(p.received())
            p.answer(b"=1 ok\n\n")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(engine)
            assert await p.channel.command("set", word, deadline=trio.current_time() + 5) == "ok"
        assert bytes(got) == f"1 set {word}\n".encode()
        await p.close()
    run_mock(main)


@MODES
def test_an_outer_cancellation_stops_a_command_answered_at_once(eager):
    async def main():
        p = Pipes(eager)
        p.answer(b"=1 2\n\n")
        with trio.CancelScope() as scope:
            scope.cancel()
            await p.channel.command("name", deadline=trio.current_time() + 5)
        assert scope.cancelled_caught
        assert p.received() == b""
        await p.close()
    run_mock(main)


def test_the_fast_path_stops_spinning_for_a_kind_of_command_whose_answers_miss_it(monkeypatch):
    """A genmove answered after the spin made the spin a waste: the next genmoves poll once,
    without spinning, until every REPROBE-th tries again; a `play`, answered at once, spins still."""
    from hexarena.referee.engines import channel as channel_mod, eager
    monkeypatch.setattr(eager, "SPIN", 0.2)           # real seconds, long enough to see

    async def genmove(p: Pipes, cid: int) -> float:
        started = time.perf_counter()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.answer_later, 1, f"={cid} e5\n\n".encode())
            assert await p.channel.command("genmove", "b", deadline=trio.current_time() + 5) == "e5"
        return time.perf_counter() - started

    async def main():
        p = Pipes(True)
        assert await genmove(p, 1) >= 0.2                 # spun in vain, then waited
        spins = [await genmove(p, cid) >= 0.2 for cid in range(2, 2 + channel_mod.REPROBE)]
        assert spins == [False] * (channel_mod.REPROBE - 1) + [True]      # the REPROBE-th miss spins again
        p.answer(f"={2 + channel_mod.REPROBE} \n\n".encode())
        assert await p.channel.command("play", "b", "e5", deadline=trio.current_time() + 5) == ""
        await p.close()
    run_mock(main)


async def pair(p: Pipes, first_limit: float = 5, second_limit: float = 5):
    """`time_left b 5 1` then `genmove b` as a chain, deadlines from now and from the second's writing."""
    now = trio.current_time()
    said, answer, start = await p.channel.command_chain([(("time_left", "b", "5", "1"), now + first_limit, False)],
                                                        ("genmove", "b"), lambda start: start + second_limit)
    return said[0], answer, start


async def pair_answered(p: Pipes, first: bytes, second: bytes):
    """:func:`pair`, its answers written 1 s and 2 s after it starts."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(p.answer_later, 1, first)
        nursery.start_soon(p.answer_later, 2, second)
        return await pair(p)


@MODES
def test_a_chain_of_commands_is_answered_in_order(eager):
    async def main():
        p = Pipes(eager)
        said, answer, start = await pair_answered(p, b"=1\n\n", b"=2 e5\n\n")
        assert (said, answer) == ("", "e5") and trio.current_time() == pytest.approx(2)
        assert start == pytest.approx(0 if eager else 1)     # over a pipe both go at once
        assert p.received() == b"1 time_left b 5 1\n2 genmove b\n" and p.channel.healthy
        p.answer(b"=3 e5\n\n")                                # a single command after it
        assert await p.channel.command("name", deadline=trio.current_time() + 5) == "e5"
        await p.close()
    run_mock(main)


@MODES
def test_a_refused_command_of_a_chain_leaves_the_next_to_be_answered(eager):
    async def main():
        p = Pipes(eager)
        said, answer, _ = await pair_answered(p, b"?1 unknown command\n\n", b"=2 e5\n\n")
        assert isinstance(said, CommandFailed) and said.message == "unknown command" and answer == "e5"
        assert p.channel.healthy
        await p.close()
    run_mock(main)


@MODES
def test_a_timeout_in_a_chain_is_the_answer_of_the_commands_after_it(eager):
    async def main():
        p = Pipes(eager)
        said, answer, _ = await pair(p, first_limit=1, second_limit=10)
        assert isinstance(said, EngineTimeout) and answer is said and "'time_left'" in str(said)
        assert trio.current_time() == pytest.approx(1) and not p.channel.healthy
        await p.close()
    run_mock(main)


@MODES
def test_both_answers_at_once_are_a_violation_unless_the_second_was_written(eager):
    """Over a pipe the second command is written with the first, so its answer may come with the
    first's; one command at a time, an answer to a command not yet written is output not asked for."""
    async def main():
        p = Pipes(eager)
        p.answer(b"=1\n\n=2 e5\n\n")
        said, answer, _ = await pair(p)
        if eager:
            assert (said, answer) == ("", "e5") and p.channel.healthy
        else:
            assert isinstance(said, ProtocolViolation) and "2 responses to one command" in str(said)
        await p.close()
    run_mock(main)


def test_the_last_deadline_of_a_chain_runs_from_its_writing():
    """Over a pipe both commands are written at once: an engine slow to answer the first spends
    the second's time; one at a time, the second's time starts once the first is answered."""
    async def main(eager: bool):
        p = Pipes(eager)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.answer_later, 1, b"=1\n\n")
            nursery.start_soon(p.answer_later, 3, b"=2 e5\n\n")
            said, answer, _ = await pair(p, second_limit=2.5)
        await p.close()
        return said, answer
    said, answer = run_mock(main, True)
    assert said == "" and isinstance(answer, EngineTimeout)
    assert run_mock(main, False) == ("", "e5")


@pytest.mark.parametrize("late", [False, True], ids=["in time", "after the block"])
def test_a_game_alone_in_its_loop_waits_for_its_answer_in_poll(late, monkeypatch):
    """Inside `playing()`, alone: an answer written by another thread while the channel waits in
    poll(2) is taken; one later than BLOCK is awaited in trio, under the deadline, as ever."""
    import threading
    from hexarena.referee.engines import channel as channel_mod
    from hexarena.referee.engines.eager import alone, playing
    monkeypatch.setattr(channel_mod, "BLOCK", 0.005 if late else 3.0)    # real seconds of poll(2)

    async def main():
        p = Pipes(True)
        with playing():
            assert alone()
            if late:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(p.answer_later, 2, b"=1 e5\n\n")
                    assert await p.channel.command("genmove", "b", deadline=trio.current_time() + 5) == "e5"
                assert trio.current_time() == pytest.approx(2)
                with pytest.raises(EngineTimeout):
                    await p.channel.command("genmove", "b", deadline=trio.current_time() + 1)
            else:
                threading.Timer(0.001, p.answer, (b"=1 e5\n\n",)).start()
                assert await p.channel.command("genmove", "b", deadline=trio.current_time() + 5) == "e5"
                assert trio.current_time() == 0             # no await: the mock clock never moved
            with playing():
                assert not alone()                           # two games: none blocks the loop
        await p.close()
    run_mock(main)


@MODES
def test_a_refusal_that_ends_a_chain_is_the_answer_of_the_commands_after_it(eager):
    """Over a pipe the commands after it were written and their answers are never read: the
    channel is broken; one at a time, they are never sent and the channel stays usable."""
    async def main():
        p = Pipes(eager)
        now = trio.current_time()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.answer_later, 1, b"?1 illegal move\n\n")
            said, answer, _ = await p.channel.command_chain(
                [(("play", "b", "e5"), now + 5, True), (("time_left", "w", "5", "1"), now + 5, False)],
                ("genmove", "w"), lambda start: start + 5)
        assert isinstance(said[0], CommandFailed) and said[1] is said[0] and answer is said[0]
        assert trio.current_time() == pytest.approx(1) and p.channel.healthy is not eager
        sent = p.received()
        assert sent == (b"1 play b e5\n2 time_left w 5 1\n3 genmove w\n" if eager else b"1 play b e5\n")
        await p.close()
    run_mock(main)


@MODES
def test_junk_read_with_the_answers_before_it_is_the_fault_of_the_answer_it_precedes(eager):
    """An engine printing a line of its own before its `genmove` answer, the chain's three
    answers read at once: the answers before the junk are their commands' answers, and the
    violation is the `genmove`'s (the command a game's record then names), not the first one's."""
    async def main():
        p = Pipes(eager)
        p.answer(b"=1\n\nthinking about the move...\n=2 e5\n\n")
        said, answer, _ = await pair(p)
        assert said == ""
        assert isinstance(answer, ProtocolViolation) and "thinking about the move" in str(answer)
        await p.close()
    run_mock(main)




@pytest.mark.parametrize("doubled, faulty", [(1, 0), (2, 1), (3, 2)])
def test_a_doubled_answer_read_with_a_chain_is_the_fault_of_the_command_it_answers(doubled, faulty):
    """`play`, `time_left` and `genmove` written at once, their answers read at once, one of them
    twice: the error is the answer of the command answered twice (the one a game's record names),
    and the commands before it keep their answers."""
    async def main():
        p = Pipes(True)
        answers = [b"=1\n\n", b"=2\n\n", b"=3 e5\n\n"]
        answers.insert(doubled, answers[doubled - 1])
        p.answer(b"".join(answers))
        now = trio.current_time()
        said, answer, _ = await p.channel.command_chain(
            [(("play", "w", "d4"), now + 5, True), (("time_left", "b", "5", "1"), now + 5, False)],
            ("genmove", "b"), lambda start: start + 5)
        got = [*said, answer]
        assert got[:faulty] == ["", ""][:faulty]
        assert isinstance(got[faulty], ProtocolViolation), got
        assert str(got[faulty]).startswith(f"fake: 2 responses to one command: Response(id={doubled}, "), got
        assert all(later is got[faulty] for later in got[faulty:])
        await p.close()
    run_mock(main)


@pytest.mark.parametrize("mode", ["plain", "eager", "eager alone"])
def test_bytes_that_keep_coming_without_an_answer_leave_the_loop_its_turns_and_the_deadline(mode):
    """512 KB of empty lines in the pipe when the command goes (an engine writing `yes ''`, its
    pipe never found empty), under a cap they do not reach, on a clock running 10,000 times
    faster than real time: the channel does not read them all before the loop's other tasks get
    their turn (every way of reading: awaited; the fast path of a loop with other games, which
    stops after YIELD_EVERY seconds of bytes without the answer; poll(2) of a game alone, which
    stops at BLOCK), and the command times out at its deadline saying what came."""
    from hexarena.referee.engines.eager import playing
    size = 1 << 19

    async def main():
        p = Pipes(mode != "plain", max_bytes=10**15)
        fcntl.fcntl(p.stdout, fcntl.F_SETPIPE_SZ, size)
        assert os.write(p.stdout, b"\n" * size) == size
        unread: list[int] = []

        async def other_game():                             # its first turn: how much is left unread
            unread.append(int.from_bytes(fcntl.ioctl(p.stdout_read, termios.FIONREAD, b"\0" * 4), "little"))
        with playing():
            with playing() if mode == "eager" else contextlib.nullcontext():
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(other_game)
                    t0 = trio.current_time()
                    with pytest.raises(EngineTimeout) as exc:
                        await p.channel.command("genmove", "b", deadline=t0 + 1000)
        assert 1000 <= trio.current_time() - t0 < 1500       # 50 ms of real time
        assert str(exc.value) == (f"fake: no answer to 'genmove' in time: "
                                  f"it wrote {size} bytes of empty lines and no answer")
        assert unread and unread[0] > 0, unread
        await p.close()
    trio.run(main, clock=trio.testing.MockClock(rate=10_000))
