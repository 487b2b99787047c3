"""The engine side on every playable game, through the generic interface only.

Grows by itself as games land in engine/registry.py.
"""
from __future__ import annotations

import random
from itertools import islice

import pytest

from hexarena.engine import registry

from tests.support.transcript import answer, engine, seeded

GAMES = registry.playable()
SIZE = 4
PLIES = 40


def body(out: str) -> str:
    assert out.startswith("=") and out.endswith("\n\n"), out
    return out.split(" ", 1)[1][:-2] if " " in out else ""


def configs() -> list[tuple[str, str]]:
    return [(g, b) for g in GAMES for b in registry.get(g).balances]


@pytest.mark.parametrize("game,balance", configs())
def test_genmove_undo_play_round_trip(game: str, balance: str) -> None:
    """genmove answers a legal canonical token; undo + play of it gives the same position."""
    eng = engine(seeded(3))
    assert answer(eng, f"game {game} {balance}") == "= \n\n"
    assert answer(eng, f"boardsize {SIZE}") == "= \n\n"
    assert body(answer(eng, "game")).split()[:2] == [game, balance]
    for _ in range(PLIES):
        state = eng.session.current
        if state.outcome() is not None:
            break
        colour = state.to_move.value
        token = body(answer(eng, f"genmove {colour}"))
        assert state.format(state.parse(token)) == token
        after = body(answer(eng, "position"))
        assert answer(eng, "undo") == "= \n\n"
        assert body(answer(eng, "position")) == state.position()
        assert answer(eng, f"play {colour} {token}") == "= \n\n"
        assert body(answer(eng, "position")) == after


@pytest.mark.parametrize("game,balance", configs())
def test_legal_moves_and_cells_match_the_rules(game: str, balance: str) -> None:
    """On side 3: at side 4 Spelde's flip sets already pass 100000 (that path is tested in test_commands)."""
    eng = engine()
    rng = random.Random(7)
    answer(eng, f"game {game} {balance}")
    answer(eng, "boardsize 3")
    for _ in range(PLIES):
        state = eng.session.current
        actions = list(islice(state.legal_actions(), 100_001))
        out = answer(eng, "legal_moves")
        if len(actions) > 100_000:
            assert out.startswith("? too many moves")
        else:
            assert sorted(body(out).split()) == sorted(state.format(a) for a in actions)
        assert body(answer(eng, "legal_cells")).split() == state.board.names(state.legal_cells())
        if state.outcome() is not None:
            assert body(answer(eng, "final_score")) == state.outcome().result()
            break
        assert answer(eng, "final_score").startswith("? cannot score")
        action = state.random_action(rng)
        assert answer(eng, f"play {state.to_move.value} {state.format(action)}") == "= \n\n"


@pytest.mark.parametrize("game,balance", configs())
def test_set_position_round_trip(game: str, balance: str) -> None:
    eng = engine(seeded(5))
    answer(eng, f"game {game} {balance}")
    answer(eng, f"boardsize {SIZE}")
    for _ in range(6):
        state = eng.session.current
        if state.outcome() is not None:
            break
        answer(eng, f"genmove {state.to_move.value}")
    text = body(answer(eng, "position"))
    other = engine()
    assert answer(other, f"set_position {text}") == "= \n\n"
    assert body(answer(other, "position")) == text
    assert other.session.current == eng.session.current
    assert answer(other, "undo") == "? cannot undo\n\n"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_and_option_is_selectable(game: str) -> None:
    info = registry.get(game)
    eng = engine()
    for balance in info.balances:
        for name, values in info.options:
            for value in values:
                assert answer(eng, f"game {game} {value and f'{name}={value}'} {balance}") == "= \n\n"
                described = body(answer(eng, "game")).split()
                assert described[:2] == [game, balance]
                assert (f"{name}={value}" in described) == (value != values[0])


@pytest.mark.parametrize("game", [g for g in GAMES if registry.get(g).uses_komi])
def test_komi_setting(game: str) -> None:
    eng = engine()
    answer(eng, f"game {game} nopie")
    answer(eng, f"boardsize {SIZE}")
    plain = body(answer(eng, "position"))
    assert answer(eng, "komi 3") == "= \n\n"
    with_komi = body(answer(eng, "position"))
    assert with_komi != plain                               # applied at once on a cleared board
    answer(eng, "clear_board")
    assert body(answer(eng, "position")) == with_komi       # survives clear_board
    answer(eng, f"game {game} nopie")
    answer(eng, f"boardsize {SIZE}")
    assert body(answer(eng, "position")) == plain           # game resets it
    answer(eng, f"set_position {plain}")
    answer(eng, "komi 5")
    assert body(answer(eng, "position")) == plain           # a loaded position is kept


def test_list_games() -> None:
    assert body(answer(engine(), "list_games")).split("\n") == GAMES
