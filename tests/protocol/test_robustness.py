"""The controller against misbehaving engines as real child processes (referee/process.py).

Each misbehaviour yields one precise error type and message, never a hang:
every test runs under a hard trio deadline, and the process is gone afterwards.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import trio

from hexarena.protocol.controller import CommandFailed, EngineCrashed, ProtocolViolation
from hexarena.referee.engines.process import EngineProcess

FAKE = r'''
import os, sys, time
mode = sys.argv[1]
out = sys.stdout.buffer
def write(data, flush=True):
    out.write(data)
    if flush:
        out.flush()
if mode == "banner":
    write(b"Welcome to my engine\n")
if mode == "early-answer":
    write(b"= ready\n\n")
for line in sys.stdin.buffer:
    cid = line.split()[0]
    if mode == "split":
        for piece in (b"=", cid, b" spel", b"de\nmar", b"banta\n", b"\n"):
            write(piece)
            time.sleep(0.02)
    elif mode == "close-mid-answer":
        write(b"=" + cid + b" e5")
        os.close(1)
        time.sleep(600)
    elif mode == "huge":
        write(b"=" + cid + b" " + b"x" * 3_000_000)
        time.sleep(600)
    elif mode == "huge-terminated":
        write(b"=" + cid + b" " + b"x" * 1_500_000 + b"\n\n")
    elif mode == "binary":
        write(b"\x00\xff\xfe\x80garbage\n\n")
    elif mode == "two-answers":
        write(b"=" + cid + b" 2\n\n=" + cid + b" 2\n\n")
    elif mode == "wrong-id":
        write(b"=" + str(int(cid) + 7).encode() + b" 2\n\n")
    elif mode == "space-after-mark":
        write(b"= 2\n\n")
    elif mode == "no-space":
        write(b"=" + cid + b"x 2\n\n")
    elif mode == "not-utf8":
        write(b"=" + cid + b" caf\xe9\n\n")
    elif mode == "exit":
        sys.exit(4)
    elif mode == "refuse":
        write(b"?" + cid + b" unknown command\n\n")
    else:
        write(b"=" + cid + b" 2\n\n")
'''


def talk(tmp_path: Path, mode: str, commands: int = 1, max_bytes: int = 1_000_000) -> list[object]:
    """Send `commands` protocol_version commands; the answers and errors in order (a hard 20 s limit)."""
    got: list[object] = []

    async def session() -> None:
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                engine = await EngineProcess.start(nursery, [sys.executable, "-c", FAKE, mode],
                                                   tmp_path / "fake.log", "fake", max_bytes=max_bytes)
                try:
                    for _ in range(commands):
                        try:
                            got.append(await engine.channel.command(
                                "protocol_version", deadline=trio.current_time() + 5))
                        except (CommandFailed, EngineCrashed, ProtocolViolation) as exc:
                            got.append(exc)
                finally:
                    await engine.aclose(quit_grace=0.5, term_grace=0.5)
                assert engine.process.returncode is not None

    trio.run(session)
    return got


def error(got: object, kind: type[Exception], message: str) -> None:
    assert type(got) is kind, got
    assert str(got).startswith(message), str(got)


def test_a_well_behaved_fake_for_comparison(tmp_path):
    assert talk(tmp_path, "good", 3) == ["2", "2", "2"]


def test_an_answer_split_across_many_writes(tmp_path):
    assert talk(tmp_path, "split", 2) == ["spelde\nmarbanta"] * 2


def test_output_before_being_asked_a_banner(tmp_path):
    [got] = talk(tmp_path, "banner")      # read alone or together with the answer: both are violations
    error(got, ProtocolViolation, "fake: response does not start with '=' or '?': 'Welcome to my engine\\n")


def test_output_before_being_asked_an_early_answer(tmp_path):
    [got] = talk(tmp_path, "early-answer")   # alone: no id; together with the answer: two responses
    assert type(got) is ProtocolViolation and "ready" in str(got), got
    assert str(got).startswith(("fake: response carries no id, expected 1: = 'ready'",
                                "fake: 2 responses to one command: Response(id=None, ok=True, text='ready')")), got


def test_stdout_closed_mid_answer(tmp_path):
    [got] = talk(tmp_path, "close-mid-answer")
    error(got, ProtocolViolation, "fake: stdout closed in the middle of a response: '=1 e5'")


def test_an_answer_larger_than_the_cap_is_refused_before_its_end(tmp_path):
    [got] = talk(tmp_path, "huge")
    error(got, ProtocolViolation, "fake: response exceeds 1000000 bytes without its terminating empty line")


def test_a_terminated_answer_larger_than_the_cap(tmp_path):
    [got] = talk(tmp_path, "huge-terminated")
    error(got, ProtocolViolation, "fake: response")
    assert "exceeds 1000000" in str(got)


def test_a_larger_cap_accepts_it(tmp_path):
    [got] = talk(tmp_path, "huge-terminated", max_bytes=2_000_000)
    assert got == "x" * 1_500_000


def test_binary_garbage(tmp_path):
    [got] = talk(tmp_path, "binary")
    error(got, ProtocolViolation, "fake: response is not UTF-8 (byte 1): '\\x00")


def test_not_utf8(tmp_path):
    [got] = talk(tmp_path, "not-utf8")
    error(got, ProtocolViolation, "fake: response is not UTF-8 (byte 6)")


def test_two_answers_to_one_command(tmp_path):
    [got] = talk(tmp_path, "two-answers")
    error(got, ProtocolViolation, "fake: 2 responses to one command: Response(id=1, ok=True, text='2')")


def test_a_wrong_id(tmp_path):
    [got] = talk(tmp_path, "wrong-id")
    error(got, ProtocolViolation, "fake: response id 8, expected 1")


def test_a_space_after_the_mark_means_no_id(tmp_path):
    [got] = talk(tmp_path, "space-after-mark")
    error(got, ProtocolViolation, "fake: response carries no id, expected 1")


def test_no_space_after_the_id(tmp_path):
    [got] = talk(tmp_path, "no-space")
    error(got, ProtocolViolation, "fake: no space after =1 in response: '=1x 2'")


def test_an_engine_that_exits_instead_of_answering(tmp_path):
    [got] = talk(tmp_path, "exit")
    error(got, EngineCrashed, "fake: closed its stdout: exited with status 4")


@pytest.mark.parametrize("mode", ["banner", "close-mid-answer", "huge", "wrong-id", "exit"])
def test_after_a_fault_the_channel_stays_broken_with_the_same_error(tmp_path, mode):
    first, second = talk(tmp_path, mode, 2)
    assert second is first


def test_a_refusal_does_not_break_the_channel(tmp_path):
    got = talk(tmp_path, "refuse", 2)
    assert [type(g) for g in got] == [CommandFailed, CommandFailed]
    assert got[1].message == "unknown command"
