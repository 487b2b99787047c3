"""Fuzz HGP's two sides: the engine side's whole command table (lines in, one answer out, never
`? internal error`, never an exception), and the controller side's reading of engine output
(responses or ProtocolViolation; an answer's text or ProtocolViolation / CommandFailed)."""
from __future__ import annotations

from contextlib import suppress

from hypothesis import given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.players.serve import make_engine
from hexarena.protocol.controller import CommandFailed, ProtocolViolation, Response, ResponseReader, expect, \
    parse_response

from tests.support.fuzz_shared import command_lines
from tests.support.fuzz_texts import fragments, one_second

GAMES = registry.playable()
@given(lines=st.lists(command_lines(), min_size=1, max_size=8))
def test_engine_side_command_lines(lines: list[str]) -> None:
    eng = make_engine("random", seed=1)
    for line in lines:
        with one_second(f"handle({line[:40]!r})"):
            out = eng.handle(line)
        assert out is None or (out[:1] in ("=", "?") and out.endswith("\n\n") and "\n\n" not in out[:-2]), out
        assert out is None or "internal error" not in out, (line, out)
        if eng.finished:
            return
    assert eng.handle("protocol_version") == "= 2\n\n"


_ANSWER_WORDS = ("=", "?", "=1", "?1", "=12", " ", "\n", "\n\n", "\r\n", "e5", "resign", "swap", "9" * 25,
                 "ok", "\xff", "\x00")


@st.composite
def engine_output(draw) -> list[bytes]:
    text = draw(fragments(_ANSWER_WORDS, 16))
    raw = text.encode("utf-8", "surrogatepass") + draw(st.binary(max_size=8))
    cuts = sorted(draw(st.lists(st.integers(0, len(raw)), max_size=4)))
    return [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)])]


@given(chunks=engine_output(), cap=st.sampled_from([8, 64, 1_000_000]), cid=st.integers(0, 20))
def test_controller_reads_engine_output(chunks: list[bytes], cap: int, cid: int) -> None:
    reader = ResponseReader(max_bytes=cap)
    with one_second("feed"), suppress(ProtocolViolation):
        for chunk in chunks:
            for resp in reader.feed(chunk):
                assert isinstance(resp, Response) and len(resp.text.encode()) <= cap
                try:
                    expect(resp, cid)
                except (ProtocolViolation, CommandFailed):
                    pass
        reader.eof()


@given(raw=fragments(_ANSWER_WORDS, 16))
def test_controller_parses_one_response(raw: str) -> None:
    with one_second("parse_response"), suppress(ProtocolViolation):
        parse_response(raw)
