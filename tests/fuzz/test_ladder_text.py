"""Fuzz the ladder's inputs: the messages the server reads from a bridge (the login, then answers,
crashes, drains and pings: wire.load, read_login, from_bridge), the messages a bridge reads from the
server (wire.from_server) and the ladder's config (ladder.config.loads). Each either refuses with
its documented error (WireError; ConfigError) or returns fields of the types the wire states."""
from __future__ import annotations

from contextlib import suppress

from hypothesis import example, given
from hypothesis import strategies as st

from hexarena.ladder import config as L
from hexarena.ladder import wire
from hexarena.ladder.wire import WireError

from tests.support.fuzz_shared import TOML_VALUES, assert_sound, messages
from tests.support.fuzz_texts import HUGE, OTHER_DIGITS, fragments, mutated, one_second

#: One real message of each kind, both ways.
def _check_strings(value: list[str] | None, most: int) -> None:
    assert value is None or (isinstance(value, list) and all(isinstance(v, str) and len(v) <= most for v in value))


@given(text=messages())
@example(text='[' * 100_000)                                             # deeper than json's recursion
@example(text='{"t": "command", "game": "g", "line": "genmove w", "within": NaN}')
def test_messages_from_a_bridge(text: str) -> None:
    with one_second("wire.load"), suppress(WireError):
        data = wire.load(text)
        assert isinstance(data, dict) and isinstance(data["t"], str)
        if data["t"] == "login":
            login = wire.read_login(data)
            assert 0 < len(login.account) <= 40 and 0 < len(login.token) <= 200
            assert len(login.name) <= 100 and len(login.version) <= 100
            for listed in (login.pools, login.games):
                assert len(listed) <= 64
                _check_strings(listed, 100)
            return
        out = wire.from_bridge(data, 4096)
        assert out["t"] in ("ping", "drain", "crashed", "answer")
        if out["t"] == "answer":
            assert isinstance(out["text"], str) and 0 < len(out["text"]) <= 4096


@given(text=messages())
@example(text='{"t": "command", "game": "g", "line": "genmove w", "within": "soon"}')  # float() of any field
@example(text='{"t": "command", "game": "g", "line": "genmove w", "within": NaN}')
@example(text='{"t": "welcome", "pools": [1, 2]}')                                    # join() of numbers
@example(text='{"t": "game", "game": "g", "resume": [[], {}, ""]}')
def test_messages_from_the_server(text: str) -> None:
    with one_second("wire.from_server"), suppress(WireError):
        out = wire.from_server(wire.load(text))
        kind = out["t"]
        if kind in ("game", "command", "end"):
            assert isinstance(out["game"], str) and 0 < len(out["game"]) <= 100
        if kind == "welcome":
            _check_strings(out["pools"], 100)
            assert out["resume"] is None or isinstance(out["resume"], str)
        elif kind == "game":
            _check_strings(out["resume"], 4096)
        elif kind == "command":
            assert isinstance(out["line"], str) and len(out["line"]) <= 4096
            assert isinstance(out["within"], float) and 0 <= out["within"] <= 1e6
        elif kind == "end":
            assert out["sgf"] is None or isinstance(out["sgf"], str)
            assert all(isinstance(out[k], str) and len(out[k]) <= 200 for k in ("first", "second", "result", "reason"))
        elif kind == "refused":
            assert isinstance(out["reason"], str) and len(out["reason"]) <= 200


CONFIG = """\
interval = 10
provisional = 10
[bounds]
message_bytes = 65536
messages_per_second = 50
burst = 200
per_account = 4
connections = 200
login_seconds = 10
idle_seconds = 120
[adjudication]
resign_below = 0.05
[[pools]]
name = "spelde-5"
game = "spelde"
size = 5
variant = "pie"
network = 0.5
anchors = ["random", "greedy"]
komi = 0
[pools.time]
move = 1
main = 60
[[pools]]
name = "anda-7"
game = "anda"
size = 7
"""
TOML_WORDS = tuple(sorted({*(w for line in CONFIG.splitlines() for w in line.split()), "=", "[", "]", "[[", "]]",
                           "{", "}", '"', "true", "inf", "nan", "-inf", "1e999", "0x7f", "vaxandis", "mcts",
                           *HUGE, *OTHER_DIGITS}))


@st.composite
def config_texts(draw) -> str:
    """The example ladder config, some of its values replaced by any TOML value, some lines mutated."""
    lines = []
    for line in CONFIG.splitlines():
        key, eq, _ = line.partition(" = ")
        lines.append(f"{key} = {draw(TOML_VALUES)}" if eq and draw(st.integers(0, 9)) < 2 else line)
    return draw(mutated(lines, TOML_WORDS, sep="\n"))


@given(text=st.one_of(config_texts(), fragments(TOML_WORDS, 30)))
@example(text=CONFIG.replace("interval = 10", "interval = nan"))
@example(text=CONFIG.replace("burst = 200", "burst = " + "9" * 5000))
@example(text=CONFIG.replace("main = 60", "main = 1e308"))
def test_ladder_config_toml(text: str) -> None:
    with one_second("ladder config loads"), suppress(L.ConfigError):
        cfg = L.loads(text)
        assert cfg.pools and len({p.name for p in cfg.pools}) == len(cfg.pools)
        for pool in cfg.pools:
            assert_sound(pool.limits)
            assert 0 <= pool.network <= 60
