"""Every game declares its players' knowledge in its own module (players/games/<module>.py);
a game without it is an error, never a silent default."""
from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest

from hexarena.engine import registry
from hexarena.players import heuristic_bot
from hexarena.players.games import GameKnowledge, MissingKnowledge, evaluation_for, knowledge_for, selection_for
from hexarena.players.selection import UCT
from tests.support.positions import new

GAMES_DIR = Path(__file__).resolve().parents[2] / "players" / "games"
#: The modules of players/games that belong to no single game.
SHARED = {"__init__", "common", "knowledge"}


@pytest.mark.parametrize("game", registry.playable())
def test_every_registered_game_declares_its_knowledge_in_its_own_module(game: str) -> None:
    module = importlib.import_module(f"hexarena.players.games.{registry.GAME_MODULES[game]}")
    assert isinstance(module.KNOWLEDGE, GameKnowledge)
    assert knowledge_for(game) is module.KNOWLEDGE
    assert evaluation_for(game) == (module.evaluate, module.SCALE)


def test_every_game_module_belongs_to_a_registered_game() -> None:
    modules = {p.stem for p in GAMES_DIR.glob("*.py")} - SHARED
    assert modules == set(registry.GAME_MODULES.values())


def test_a_registered_game_without_a_module_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAME_MODULES", {**registry.GAME_MODULES, "hexline": "hexline"})
    with pytest.raises(MissingKnowledge, match=r"game 'hexline' has no players/games/hexline\.py"):
        knowledge_for("hexline")


def test_a_game_module_without_knowledge_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAME_MODULES", {**registry.GAME_MODULES, "hexline": "common"})  # no KNOWLEDGE
    with pytest.raises(MissingKnowledge, match=r"players/games/common\.py declares no KNOWLEDGE"):
        knowledge_for("hexline")


def test_an_unknown_game_is_an_error_naming_the_games() -> None:
    with pytest.raises(MissingKnowledge, match=r"no game 'hexline'; games: anda, "):
        knowledge_for("hexline")


def test_the_players_do_not_fall_back_for_a_game_without_knowledge(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new("spelde", 5, "nopie")
    assert heuristic_bot(state, random.Random(1)) in state.legal_actions()
    monkeypatch.setattr(registry, "GAME_MODULES", {g: m for g, m in registry.GAME_MODULES.items() if g != "spelde"})
    with pytest.raises(MissingKnowledge, match="no game 'spelde'"):
        heuristic_bot(state, random.Random(1))
    with pytest.raises(MissingKnowledge, match="no game 'spelde'"):
        selection_for(state)


def test_knowledge_defaults_are_random_playouts_and_uct_and_a_scale_is_positive() -> None:
    def evaluate(state: object) -> float:
        return 0.0
    plain = GameKnowledge(evaluate, 2.0)
    assert plain.selection == UCT() and plain.candidates is None and not plain.narrow
    assert type(plain.evaluator(7)).__name__ == "RandomPlayout"
    with pytest.raises(ValueError, match="scale must be positive, got 0"):
        GameKnowledge(evaluate, 0.0)
