"""Fuzz what a tournament's organiser writes: the config's TOML text (referee.config.loads:
ConfigError only) and the entries of an openings list (referee.openings.parse_line: OpeningError only)."""
from __future__ import annotations

from contextlib import suppress

from hypothesis import example, given
from hypothesis import strategies as st

from hexarena.engine import registry
from hexarena.referee.tournament import config as C
from hexarena.referee.game.openings import OpeningError, parse_line

from tests.support.fuzz_games import positions, tokens
from tests.support.fuzz_shared import TOML_VALUES, assert_sound
from tests.support.fuzz_texts import HUGE, OTHER_DIGITS, fragments, mutated, one_second

CONFIG = """\
seed = 7
games_per_pair = 3
pairing = "round-robin"
[time]
move = 5
main = 60
increment = 0.5
[engines.random]
player = "random"
[engines.greedy]
cmd = ["{python}", "-m", "hexarena.players", "greedy", "--seed", "{seed}"]
[engines.greedy.time]
move = 2
[[games]]
game = "spelde"
sizes = [5, 6]
variants = ["pie", "nopie flips=dense"]
openings = ["c3", "a1 e5"]
[[games]]
game = "anda"
size = 7
ply_cap = 40
komi = 3
random_openings = 2
[sprt]
elo0 = 0
elo1 = 10
"""
TOML_WORDS = tuple(sorted({*(w for line in CONFIG.splitlines() for w in line.split()), "=", "[", "]", "[[", "]]",
                           "{", "}", '"', "'", "true", "false", "inf", "nan", "-inf", "1e999", "0x7f", "1_000",
                           "1979-05-27", "gauntlet", "challengers", "logs", "cap_kb", "control", "byoyomi",
                           "periods", "stones", "max_games", *HUGE, *OTHER_DIGITS}))


@st.composite
def config_texts(draw) -> str:
    """The example config, some of its values replaced by any TOML value, some lines mutated."""
    lines = []
    for line in CONFIG.splitlines():
        key, eq, _ = line.partition(" = ")
        kind = draw(st.integers(0, 9))
        lines.append(f"{key} = {draw(TOML_VALUES)}" if eq and kind < 2 else line)
    return draw(mutated(lines, TOML_WORDS, sep="\n"))


@given(text=st.one_of(config_texts(), fragments(TOML_WORDS, 30)))
@example(text=CONFIG.replace("seed = 7", "seed = " + "9" * 5000))            # found by this test: int()'s limit
@example(text=CONFIG.replace("elo0 = 0", "elo0 = " + "9" * 400))             # found: float() OverflowError
@example(text=CONFIG.replace("move = 5", "move = " + "9" * 400))             # found: math.isfinite OverflowError
@example(text=CONFIG.replace("main = 60", "main = 1e308"))                   # accepted, then every game void
def test_config_toml(text: str) -> None:
    with one_second("loads"), suppress(C.ConfigError):
        cfg = C.loads(text)
        for limits in (cfg.limits, *(e.time for e in cfg.engines)):
            assert_sound(limits)


GAMES = {game: (4 if game == "vaxandis" else 5) for game in registry.playable()}


@given(data=st.data())
def test_openings_entries(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(sorted(GAMES)), label="game")
    info = registry.get(game)
    words = tokens(game) + positions(game)[:4]
    text = data.draw(st.one_of(fragments(words, 8), mutated(list(tokens(game)[:6]), words)), label="entry")
    variant = data.draw(st.sampled_from(info.balances), label="variant")
    komi = data.draw(st.none() | st.integers(0, 5), label="komi")
    with one_second("parse_line"), suppress(OpeningError):
        parse_line(text, game, GAMES[game], variant, komi)
