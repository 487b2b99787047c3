"""The controller side: command encoding, the response reader, `expect`."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.protocol.controller import (
    CommandFailed, ControllerError, EngineCrashed, EngineTimeout, ProtocolViolation, Response,
    ResponseReader, expect, format_command, parse_response,
)

from tests.support.transcript import engine


# -- format_command --------------------------------------------------------------

def test_format_command() -> None:
    assert format_command(12, "play", "b", "e5") == b"12 play b e5\n"
    assert format_command(0, "protocol_version") == b"0 protocol_version\n"
    assert format_command(3, "set_position", "spelde", "2", "b", "../.../..") == b"3 set_position spelde 2 b ../.../..\n"


@pytest.mark.parametrize("cid,name,args", [
    (-1, "name", ()),
    (True, "name", ()),
    (1, "", ()),
    (1, "play", ("b", "e5 e6")),
    (1, "play", ("b", "")),
    (1, "play", ("b#", "e5")),
    (1, "play\n", ()),
    (1, "play", ("b\te5",)),
    (1, "play", ("b", 5)),
    (1, "play", (" b",)),
    (1, "play", ("b ",)),
    (1, "play", ("b\x7fe5",)),
])
def test_format_command_refuses_unsendable_words(cid, name, args) -> None:
    with pytest.raises(ValueError):
        format_command(cid, name, *args)


_WORD = re.compile(r"[^\x00-\x20#\x7f]+\Z")


@settings(max_examples=400, deadline=None)
@given(st.integers(-2, 10**6), st.lists(st.text(st.sampled_from("ab5 \t\n#\x00\x7f\x85é\u2028"), max_size=4), min_size=1,
                                        max_size=4))
def test_format_command_sends_exactly_the_words_of_one_token_each(cid, words) -> None:
    """A command is sent when its id is a whole number >= 0 and each word is one HGP token (no
    whitespace, control character, DEL or `#`; other non-ASCII characters pass), else ValueError."""
    sendable = cid >= 0 and all(_WORD.match(w) for w in words)
    if sendable:
        assert format_command(cid, *words) == f"{cid} {' '.join(words)}\n".encode("utf-8")
    else:
        with pytest.raises(ValueError):
            format_command(cid, *words)


# -- the reader ---------------------------------------------------------------------

def test_one_response() -> None:
    assert ResponseReader().feed(b"=1 2\n\n") == [Response(1, True, "2")]


def test_failure_response() -> None:
    assert ResponseReader().feed(b"?4 illegal move: e5 is occupied\n\n") == [
        Response(4, False, "illegal move: e5 is occupied")]


def test_empty_answer_with_and_without_space() -> None:
    assert ResponseReader().feed(b"=2 \n\n=3\n\n") == [Response(2, True, ""), Response(3, True, "")]


def test_split_across_many_feeds_byte_by_byte() -> None:
    reader = ResponseReader()
    data = b"=1 spelde\nmarbanta\n\n?2 unknown command\n\n"
    got: list[Response] = []
    for i in range(len(data)):
        got += reader.feed(data[i:i + 1])
    assert got == [Response(1, True, "spelde\nmarbanta"), Response(2, False, "unknown command")]
    assert not reader.buffered()


def _outcome(reader: ResponseReader, *pieces: bytes) -> object:
    """The responses of the pieces fed in turn, or the violation the stream broke on (raised, or
    held in `broken` after the whole responses before it)."""
    try:
        responses = [r for piece in pieces for r in reader.feed(piece)]
    except ProtocolViolation as exc:
        return f"ProtocolViolation: {exc}"
    return responses if reader.broken is None else f"ProtocolViolation: {reader.broken}"


@pytest.mark.parametrize("data", [
    b"=1 2\n\n", b"?4 illegal move\n\n", b"=12\n\n", b"= e5\n\n", b"=1 a\nb\n\n", b"=1\n\n", b"?\n\n",
    b"=3 " + b"x" * 97 + b"\n\n", b"=1 " + b"x" * 98 + b"\n\n", b"=1 " + b"x" * 101 + b"\n\n",
    b"=1x 2\n\n", b"=1 caf\xe9\n\n", b"=1 caf\xc3\xa9\n\n", b"=1\te5 \t\n\n", b"=1 e5\xc2\xa0\n\n", b"=1 \x00\x0b\n\n",
    b"=1 a\rb\n\n", b"=" + b"1" * 20 + b" 2\n\n", b"=" + b"1" * 21 + b" 2\n\n",
])
def test_one_whole_response_in_one_feed_reads_as_when_split(data) -> None:
    """A feed of exactly one single-line response, or of a run of them (the answers to a chain), is
    decoded without buffering; the result (or the error) must be the one of the buffered path, taken
    when the same bytes come in two feeds."""
    for feed in (data, b"=7 played\n\n" + data, data + b"=8\n\n", data + b"?9 no\n\n=10 e5\n\n", data + data):
        whole = _outcome(ResponseReader(100), feed)
        assert whole == _outcome(ResponseReader(100), feed[:1], feed[1:])
        assert whole == _outcome(ResponseReader(100), feed[:-1], feed[-1:])
        assert whole == _outcome(ResponseReader(100), *(feed[i:i + 1] for i in range(len(feed))))


def test_an_id_longer_than_20_digits_is_a_violation() -> None:
    assert ResponseReader().feed(b"=" + b"9" * 20 + b" 2\n\n") == [Response(10**20 - 1, True, "2")]
    with pytest.raises(ProtocolViolation, match="response id of 5000 digits"):
        ResponseReader(10_000).feed(b"=" + b"1" * 5000 + b" 2\n\n")


def test_a_whole_response_after_a_partial_one_joins_it() -> None:
    reader = ResponseReader()
    assert reader.feed(b"=1 a") == []
    assert reader.feed(b"=2 b\n\n") == [Response(1, True, "a=2 b")]
    assert not reader.buffered()


def test_terminator_split_between_feeds() -> None:
    reader = ResponseReader()
    assert reader.feed(b"=1 2\n") == []
    assert reader.buffered()
    assert reader.feed(b"\n") == [Response(1, True, "2")]
    assert not reader.buffered()


def test_many_responses_in_one_feed() -> None:
    data = b"".join(b"=%d %d\n\n" % (i, i * i) for i in range(50))
    got = ResponseReader().feed(data)
    assert got == [Response(i, True, str(i * i)) for i in range(50)]


def test_crlf_accepted_even_split() -> None:
    reader = ResponseReader()
    assert reader.feed(b"=1 a\r\nb\r") == []
    assert reader.feed(b"\n\r") == []
    assert reader.feed(b"\n") == [Response(1, True, "a\nb")]


def test_multibyte_character_split_across_feeds() -> None:
    reader = ResponseReader()
    data = "=1 caf\u00e9\n\n".encode()
    cut = data.index(b"\xa9")
    assert reader.feed(data[:cut]) == []
    assert reader.feed(data[cut:]) == [Response(1, True, "caf\u00e9")]


def test_blank_lines_between_responses_are_skipped() -> None:
    assert ResponseReader().feed(b"\n=1 2\n\n\n\n=2 3\n\n") == [Response(1, True, "2"), Response(2, True, "3")]


@pytest.mark.parametrize("flood", [b"\n", b"\r", b"\r\n"], ids=["LF", "CR", "CRLF"])
@pytest.mark.parametrize("partial", [b"", b"=1 e5"], ids=["between answers", "inside an answer"])
def test_empty_lines_and_carriage_returns_without_an_answer_are_bounded(flood, partial) -> None:
    """An engine writing only empty lines (`yes ''`) or carriage returns must not keep the referee
    reading for ever: past the cap of bytes since its last response, a violation that says so."""
    reader = ResponseReader(max_bytes=100)
    assert reader.feed(b"=0 ok\n\n" + partial) == [Response(0, True, "ok")]
    with pytest.raises(ProtocolViolation) as exc:
        for _ in range(200):
            reader.feed(flood * 10)
    assert str(exc.value).endswith("bytes of empty lines and carriage returns and no response "
                                   "(over 100; a response ends with one empty line)"), str(exc.value)
    assert 100 < reader.blank <= 120


def test_empty_lines_count_from_the_last_response_however_the_answers_are_read() -> None:
    """Empty lines between answers, each run under the cap, never add up: whole answers read on
    their own (the reader's fast path) end a run as answers read behind the empty lines do."""
    reader = ResponseReader(max_bytes=100)
    for cid in range(50):
        assert reader.feed(b"\n" * 60) == []
        assert reader.blank >= 59
        assert reader.feed(b"=%d e5\n\n" % cid) == [Response(cid, True, "e5")]
        assert reader.blank == 0
        assert reader.feed(b"=%d e5\n\n\r\n" % cid) == [Response(cid, True, "e5")]
    assert not reader.buffered() and reader.unfinished() is None
    reader.eof()                                    # empty lines held are no answer cut off


def test_space_after_mark_means_no_id() -> None:
    resp = ResponseReader().feed(b"= 2\n\n")[0]
    assert resp == Response(None, True, "2")
    with pytest.raises(ProtocolViolation, match="no id, expected 5"):
        expect(resp, 5)


def test_garbage_is_refused_before_its_end() -> None:
    with pytest.raises(ProtocolViolation, match="does not start with '=' or '\\?'"):
        ResponseReader().feed(b"hello world")


def test_garbage_line_before_a_response() -> None:
    with pytest.raises(ProtocolViolation, match="does not start"):
        ResponseReader().feed(b"debug: thinking\n=1 e5\n\n")


def test_binary_garbage() -> None:
    with pytest.raises(ProtocolViolation):
        ResponseReader().feed(bytes(range(256)))


def test_non_utf8_response() -> None:
    with pytest.raises(ProtocolViolation, match="not UTF-8"):
        ResponseReader().feed(b"=1 \xff\xfe\n\n")


def test_no_space_after_id() -> None:
    with pytest.raises(ProtocolViolation, match="no space after =12"):
        ResponseReader().feed(b"=12abc\n\n")


def test_oversize_unterminated_is_refused_at_once() -> None:
    reader = ResponseReader(max_bytes=100)
    reader.feed(b"=1 " + b"x" * 100)            # the text's 100 bytes and the frame's room
    with pytest.raises(ProtocolViolation, match="exceeds 100 bytes"):
        reader.feed(b"x" * 20)


def test_oversize_terminated_in_one_feed() -> None:
    with pytest.raises(ProtocolViolation, match="exceeds 100"):
        ResponseReader(max_bytes=100).feed(b"=1 " + b"x" * 200 + b"\n\n")


def test_response_text_of_exactly_max_bytes_is_accepted() -> None:
    body = b"=123 " + b"x" * 100
    assert ResponseReader(max_bytes=100).feed(body + b"\n\n") == [Response(123, True, "x" * 100)]
    with pytest.raises(ProtocolViolation, match="response text of 101 bytes exceeds 100"):
        ResponseReader(max_bytes=100).feed(b"=1 " + b"x" * 101 + b"\n\n")


def test_a_legal_moves_answer_at_its_bound_fits_the_default_cap() -> None:
    """HGP 1.1: legal_moves holds at most 1,000,000 bytes of text; the default cap takes it whole."""
    text = b"ab " * 333_333 + b"a"
    assert len(text) == 1_000_000
    [response] = ResponseReader().feed(b"=4294967295 " + text + b"\n\n")
    assert response.id == 4294967295 and len(response.text) == 1_000_000


def test_default_cap_is_one_megabyte() -> None:
    reader = ResponseReader()
    with pytest.raises(ProtocolViolation):
        reader.feed(b"=1 " + b"y" * 1_000_030)


def test_reader_stays_broken_after_a_violation() -> None:
    reader = ResponseReader()
    with pytest.raises(ProtocolViolation):
        reader.feed(b"junk\n\n")
    with pytest.raises(ProtocolViolation):
        reader.feed(b"=1 2\n\n")


def test_eof_mid_answer() -> None:
    reader = ResponseReader()
    reader.feed(b"=1 e5\n")
    with pytest.raises(ProtocolViolation, match="stdout closed in the middle of a response"):
        reader.eof()


def test_eof_after_complete_answers() -> None:
    reader = ResponseReader()
    reader.feed(b"=1 e5\n\n\n")
    reader.eof()


# -- expect -------------------------------------------------------------------------------

def test_expect_returns_text() -> None:
    assert expect(Response(3, True, "e5"), 3) == "e5"


def test_expect_wrong_id() -> None:
    with pytest.raises(ProtocolViolation, match="response id 4, expected 3"):
        expect(Response(4, True, "e5"), 3)


def test_expect_failure_raises_command_failed() -> None:
    with pytest.raises(CommandFailed) as info:
        expect(Response(3, False, "illegal move: e5 is occupied"), 3)
    assert info.value.message == "illegal move: e5 is occupied"


def test_expect_missing_id_on_failure() -> None:
    with pytest.raises(ProtocolViolation):
        expect(Response(None, False, "unknown command"), 3)


def test_error_tree() -> None:
    for kind in (ProtocolViolation, CommandFailed, EngineCrashed, EngineTimeout):
        assert issubclass(kind, ControllerError)
    assert CommandFailed("x").message == "x"


def test_parse_response_multiline() -> None:
    assert parse_response("=7\nline one\nline two") == Response(7, True, "line one\nline two")


# -- the two sides together ---------------------------------------------------------------

def test_controller_reads_every_engine_answer() -> None:
    eng = engine()
    reader = ResponseReader()
    commands = [("protocol_version",), ("list_commands",), ("game",), ("boardsize", "5"),
                ("showboard",), ("legal_cells",), ("genmove", "b"), ("position",), ("frobnicate",),
                ("undo",), ("undo",), ("quit",)]
    texts = []
    for cid, (name, *args) in enumerate(commands, 1):
        line = format_command(cid, name, *args).decode()
        [resp] = reader.feed(eng.handle(line).encode())
        try:
            texts.append(expect(resp, cid))
        except CommandFailed as exc:
            texts.append("?" + exc.message)
    assert texts[0] == "2"
    assert texts[1].split("\n")[0] == "protocol_version"
    assert texts[8] == "?unknown command"
    assert texts[9] == "" and texts[10] == "?cannot undo"
    assert not reader.buffered()
