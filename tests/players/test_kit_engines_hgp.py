"""The Rust and C kits' example engines (core/examples/hgp_engine.rs, hgp_engine.c) against the
Python engine side (protocol/engine_side.py, served by `python -m hexarena.players random`), in
real processes on the same bytes: HGP's framing (lines of any length, NUL and other control bytes
dropped, a byte that is not UTF-8, a line holding only an id), the failure words of bad
arguments, `undo`, `komi` as a setting for the next game, and `legal_moves`' byte bound. The
answers are compared as the controller reads them: the status and id, the failure word (the
detail after it is each engine's own), the text of a success."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import kits

pytestmark = pytest.mark.skipif(kits.tools_missing() is not None, reason=str(kits.tools_missing()))

EMPTY_ANDA_PRISON_3 = "b.w/..../...../..../..."
#: The session, one command a line (bytes: some are no text).
SESSION: list[bytes] = [
    b"1 game spelde nopie", b"2 boardsize 3", b"3 play b a1", b"4 komi 0", b"5 position",
    b"6 undo", b"7 position", b"8 undo", b"9 known_command undo",
    b"10 play x e5", b"11 genmove", b"12 play b e5 extra", b"13 komi -1", b"14 komi 2.5", b"15 komi +3",
    b"16", b"  0017 protocol_version", b"18 protocol_version # caf\xe9", b"19 proto\x00col_ver\x01sion\r",
    b"20 known_command " + b"y" * 70_000, b"21 protocol_version # " + b"x" * 70_000,
    b"22 play b " + b"a1," * 30_000, b"23 protocol_version",
    b"24 set_position anda-prison 3 b " + EMPTY_ANDA_PRISON_3.encode() + b" phase=agreed prison=3,0 komi=2",
    b"25 komi 40", b"26 final_score", b"27 position",
    b"28 set_position spelde 3 b www/wwww/wwww./ww.w/w.. variant=nopie", b"29 legal_moves",
    b"30 game anda nopie", b"31 boardsize 3", b"32 komi 3", b"33 position", b"34 play b a1,b4", b"35 komi 5",
    b"36 position", b"37 clear_board", b"38 position", b"39 play b resign", b"40 play w e05",
    b"41 boardsize -1", b"42 boardsize x", b"43 quit",
]


def answers(cmd: list[str], data: bytes) -> list[str]:
    """The engine's answers to `data`, as a controller reads them."""
    run = subprocess.run(cmd, input=data, capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    out = []
    for answer in run.stdout.decode().split("\n\n")[:-1]:
        answer = answer.strip()
        out.append(answer.split(":", 1)[0] if answer.startswith("?") else answer)
    return out


@pytest.fixture(scope="module")
def expected() -> list[str]:
    return answers([sys.executable, "-m", "hexarena.players", "random"], b"\n".join(SESSION) + b"\n")


@pytest.mark.parametrize("kit", ["rust", "c"])
def test_the_kit_engines_answer_as_the_python_engine_side(kit: str, expected: list[str], tmp_path: Path) -> None:
    engine = kits.rust_engine() if kit == "rust" else kits.c_engine(tmp_path)
    got = answers([str(engine)], b"\n".join(SESSION) + b"\n")
    assert len(got) == len(expected) == len(SESSION), (got, expected)
    for line, mine, theirs in zip(SESSION, got, expected):
        assert mine == theirs, line[:80]
    assert "?29 too many moves" in got and "=26 W+3" in got and "?16 syntax error" in got
