"""Strategies the fuzz suite's files share (tests/fuzz/): the organiser's TOML values and the
soundness of an accepted clock, HGP command lines, and the ladder's wire messages."""
from __future__ import annotations

import json

from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.players.serve import make_engine
from hexarena.referee.game.clock import Limits

from tests.support.fuzz_games import positions, tokens
from tests.support.fuzz_texts import HUGE, OTHER_DIGITS, fragments, mutated

GAMES = registry.playable()
_scalars = st.one_of(st.integers(-10 ** 20, 10 ** 20).map(str), st.sampled_from(HUGE),
                    st.sampled_from(("inf", "-inf", "nan", "true", "0", "-1", "1.5", "1e999", "0o7", "1979-05-27"
                                     )),
                    st.text(max_size=8).map(lambda s: '"' + s.replace("\\", "").replace('"', "") + '"'),
                    st.sampled_from(OTHER_DIGITS).map(lambda d: f'"{d}"'))
TOML_VALUES = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3).map(lambda v: f"[{', '.join(v)}]"),
                           max_leaves=5)


def assert_sound(limits: Limits) -> None:
    """A clock a game can run: every number finite, none negative, none past 10,000,000 seconds
    (a float past that overflows the referee's deadlines and timestamps)."""
    for name in ("move", "main", "increment", "start", "command", "period", "margin", "periods", "stones"):
        value = getattr(limits, name)
        assert value is None or 0 <= value <= 10_000_000, (name, value)


NAMES = tuple(make_engine("random").commands)
ARGS = tuple(sorted({"b", "w", "black", "white", "B", "2", "5", "13", "0", "pie", "nopie", "flips=dense",
                     "none", "absolute", "byoyomi", "canadian", "fischer", *GAMES,
                     *(t for g in GAMES for t in tokens(g)[:40]),
                     *(w for g in GAMES for p in positions(g)[:3] for w in p.split())}))


@st.composite
def command_lines(draw) -> str:
    cid = draw(st.one_of(st.just(""), st.integers(0, 10 ** 30).map(str), fragments((), 2)))
    name = draw(st.one_of(st.sampled_from(NAMES), fragments(NAMES, 2)))
    args = draw(st.lists(st.one_of(st.sampled_from(ARGS), fragments(ARGS, 3)), max_size=6))
    return " ".join(w for w in (cid, name, *args) if w)


REAL = (
    {"t": "login", "version": 1, "account": "alice", "token": "x" * 43, "pools": ["spelde-5"],
     "games": ["spelde", "anda"], "name": "mcts", "engine_version": "1.0"},
    {"t": "answer", "game": "spelde-5-000001", "text": "=3 e5\n\n"},
    {"t": "crashed", "game": "spelde-5-000001", "why": "exit 1"},
    {"t": "drain"}, {"t": "ping"}, {"t": "pong"},
    {"t": "welcome", "pools": ["spelde-5"], "resume": None},
    {"t": "refused", "reason": "unknown account or wrong token"},
    {"t": "game", "game": "spelde-5-000001", "pool": "spelde-5", "resume": ["game spelde", "boardsize 5", "play b c3"]},
    {"t": "command", "game": "spelde-5-000001", "line": "7 genmove w", "within": 1.5},
    {"t": "end", "game": "spelde-5-000001", "first": "alice", "second": "random", "result": "1-0",
     "reason": "resign", "sgf": "(;GM[hexarena]SZ[5];B[c3])"},
)
KINDS = tuple(sorted({m["t"] for m in REAL} | {"", "LOGIN", "answer ", "\x00"}))
KEYS = tuple(sorted({k for m in REAL for k in m} | {"", "T", "id"}))

_json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(KINDS), st.sampled_from(HUGE), st.sampled_from(OTHER_DIGITS),
    st.integers(0, 12).map(lambda n: "x" * (1 << n) * 5))     # strings past each length bound
JSON_VALUES = st.recursive(_json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3), max_leaves=8)


@st.composite
def messages(draw) -> str:
    """A real message with some fields replaced by any JSON value, dropped or added; or its text
    mutated; or any text made of the wire's words."""
    base = dict(draw(st.sampled_from(REAL)))
    for key in list(base):
        kind = draw(st.integers(0, 9))
        if kind < 2:
            base[key] = draw(JSON_VALUES)
        elif kind == 2:
            del base[key]
    base.update(draw(st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=2)))
    text = json.dumps(base)                                           # NaN and Infinity as Python writes them
    words = (*KINDS, *KEYS, "{", "}", "[", "]", ":", ",", '"', "null", "1e999", "NaN", "-Infinity", "[" * 50)
    return draw(st.one_of(st.just(text), mutated([text], words), fragments(words, 20)))
