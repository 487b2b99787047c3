"""Fuzz the Python engine kit's whole loop (players/sdk.py `serve`): raw bytes on stdin (any
chunk of UTF-8 or not, CR LF, NUL, no final newline) holding command lines weighted to what the kit
itself reads (time commands, `set_position`, `hexarena-seed`, `genmove_analyze`), for an engine
written against the kit that answers with analysis. The contract: every line that is not empty
after preprocessing gets one well-framed `=` or `?` answer, never `? internal error`; the loop ends
with status 0 at `quit` or end of input; the transcript holds each line received and sent."""
from __future__ import annotations

import io
import random
import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.players import sdk

from tests.support.fuzz_shared import command_lines
from tests.support.fuzz_games import positions
from tests.support.fuzz_texts import HUGE, OTHER_DIGITS, fragments, one_second

GAMES = registry.playable()
_NUMBERS = ("0", "1", "-1", "60", "5", "0.5", "1e308", "1e999", "inf", "nan", "-0", *HUGE, *OTHER_DIGITS)
_TIME = st.one_of(
    st.tuples(st.just("time_settings"), *[st.sampled_from(_NUMBERS)] * 3).map(" ".join),
    st.tuples(st.just("kgs-time_settings"), st.sampled_from(("none", "absolute", "byoyomi", "canadian", "fischer",
                                                             "x")),
              st.lists(st.sampled_from(_NUMBERS), max_size=4).map(" ".join)).map(" ".join),
    st.tuples(st.just("time_left"), st.sampled_from(("b", "w", "black", "x")), st.sampled_from(_NUMBERS),
              st.sampled_from(_NUMBERS)).map(" ".join))
_SETUP = st.one_of(
    st.sampled_from(GAMES).map(lambda g: f"game {g}"),
    st.sampled_from(("2", "4", "5", "13", "14", "0", "-3", *HUGE)).map(lambda n: f"boardsize {n}"),
    st.sampled_from(GAMES).flatmap(lambda g: st.sampled_from(positions(g)[:6]).map(lambda p: f"set_position {p}")),
    st.sampled_from(("0", "1", "-1", "18446744073709551616", *HUGE, *OTHER_DIGITS, "x", "1 2"))
    .map(lambda n: f"hexarena-seed {n}"),
    st.sampled_from(("genmove b", "genmove w", "genmove_analyze b", "genmove_analyze w 1", "genmove_analyze x",
                     "showboard", "clear_board", "undo", "final_score", "legal_actions")))
LINES = st.one_of(_TIME, _SETUP, command_lines(), fragments(("genmove_analyze", "time_left", "set_position"), 6))


class Analyst(sdk.Engine):
    """An engine written against the kit: a random legal action, with one line of analysis."""

    name = "analyst"

    def choose(self, state: sdk.GameState, budget: sdk.Budget, rng: random.Random):
        assert budget.seconds is None or budget.seconds >= 0
        assert budget.move_seconds is None or budget.move_seconds >= 0
        action = rng.choice(list(state.legal_actions()))
        return sdk.analysed(action, winrate=rng.random(), visits=rng.randrange(1000), pv=[str(action)])


@st.composite
def stdin_bytes(draw) -> bytes:
    lines = draw(st.lists(LINES, min_size=1, max_size=10))
    if draw(st.booleans()):                                    # half the sessions set a game up first
        game = draw(st.sampled_from(GAMES))
        lines = [f"game {game}", draw(st.sampled_from([f"set_position {p}" for p in positions(game)[:6]] + ["clear_board"])),
                 draw(_TIME), "genmove_analyze b", *lines]
    ends = st.sampled_from((b"\n", b"\r\n", b"\r", b"\x00\n"))
    raw = b"".join(line.encode("utf-8", "surrogatepass") + draw(ends) for line in lines)
    return raw + draw(st.binary(max_size=6))                   # undecodable bytes, no final newline


def _answers(out: str) -> list[str]:
    assert out == "" or out.endswith("\n\n"), out[-200:]
    return [a + "\n\n" for a in out[:-2].split("\n\n")] if out else []


@given(raw=stdin_bytes(), seed=st.integers(0, 2 ** 64))
@example(raw=b"game vaxandis\nboardsize 4\ntime_left b 1e999 0\ngenmove b\n", seed=0)
@example(raw=b"hexarena-seed " + b"9" * 5000 + b"\ngenmove_analyze b\n", seed=1)
def test_kit_serves_any_stdin(raw: bytes, seed: int) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", newline="")
    stdout = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "transcript.log"
        with one_second("sdk.serve"):
            status = sdk.serve(Analyst(), seed, str(log), stdin, stdout)
        transcript = log.read_text(encoding="utf-8").splitlines()
    assert status == 0
    answers = _answers(stdout.getvalue())
    for a in answers:
        assert a[:1] in ("=", "?") and "\n\n" not in a[:-2], a
        assert "internal error" not in a, a
    sent = [t for t in transcript if t.split(" ", 2)[1:2] == ["<"]]
    assert len(sent) == sum(len(a[:-2].split("\n")) for a in answers)
    received = [t for t in transcript if t.split(" ", 2)[1:2] == [">"]]
    assert len(received) >= len(answers)
