"""Comparing a game's compiled core with its Python rules, state by state.

:func:`compare` checks one position in both implementations: the position string, the
end, the legal placements, the legal actions in order and, for every action (or a sample
of them), the state after it; sites not listed must be refused in both with the same
reason. :data:`COUNTS` tallies what was compared (tests/engine/conftest.py prints it).
"""
from __future__ import annotations

import importlib
import random
from collections import Counter
from itertools import islice

from hexarena.engine import registry
from hexarena.engine.actions import Place
from hexarena.engine.errors import IllegalMove
from hexarena.engine.game import GameInfo, GameState, Variant
from hexarena.engine.position import Position, parse_position


class Counts(Counter):
    """(game, what) -> how many were compared."""

    def lines(self) -> list[str]:
        games = sorted({g for g, _ in self})
        return [f"{g}: " + ", ".join(f"{self[g, w]} {w}" for w in ("games", "positions", "actions", "refusals",
                                                                   "ends", "playouts", "fuzzed positions") if self[g, w])
                for g in games]


COUNTS = Counts()


def rules(game: str) -> tuple[GameInfo, GameInfo]:
    """(the Python rules, the core's rules) of a game the core implements."""
    package = f"hexarena.engine.games.{registry.GAME_MODULES[game]}"
    python = importlib.import_module(f"{package}.state").RULES
    return python, importlib.import_module(f"{package}.compiled").RULES


def load(info: GameInfo, text: str) -> GameState:
    """The state of a well-formed position string under `info` (as registry.from_position)."""
    pos: Position = parse_position(text)
    balance = pos.keys.get("variant", info.balances[0])
    tokens = [balance] + [f"{k}={pos.keys[k]}" for k, _ in info.options if k in pos.keys]
    variant: Variant = info.variant(pos.size, tokens)
    return info.from_position(variant, pos, info.read_keys(pos))


def after(state: GameState, action) -> GameState | str:
    """The state after `action` (compared field by field: a core state equals the Python
    state of the same position), or the reason it is refused."""
    try:
        return state.play(action)
    except IllegalMove as exc:
        return f"illegal: {exc}"


def compare(py: GameState, co: GameState, rng: random.Random, every: bool = True, cap: int = 400) -> list:
    """Check one position in both implementations; return its legal actions (Python's).

    `every`: every listed action is played in both and every site's placement is tried;
    otherwise a sample of `cap // 20` of each."""
    game = py.info.id
    text = py.position()
    assert co.position() == text
    assert co == py and hash(co) == hash(py), text
    assert co.outcome() == py.outcome(), text
    assert co.legal_cells() == py.legal_cells(), text
    actions = list(islice(py.legal_actions(), cap + 1))
    assert list(islice(co.legal_actions(), cap + 1)) == actions, text
    played = actions if every else rng.sample(actions, min(len(actions), cap // 20))
    for action in played:
        assert after(co, action) == after(py, action), (text, py.format(action))
    sites = list(py.board.sites)
    if not every:
        sites = rng.sample(sites, min(len(sites), cap // 20))
    listed = set(actions)
    for s in sites:
        if Place(s) not in listed:
            assert after(co, Place(s)) == after(py, Place(s)), (text, py.board.name(s))
            COUNTS[game, "refusals"] += 1
    COUNTS[game, "positions"] += 1
    COUNTS[game, "actions"] += len(played)
    return actions
