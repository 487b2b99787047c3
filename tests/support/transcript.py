"""Transcript helpers: feed lines to a fresh EngineSide, compare exact output."""
from __future__ import annotations

import random

from hexarena.engine.actions import Action
from hexarena.engine.game import GameState
from hexarena.protocol.engine_side import EngineSide


def first_legal(state: GameState, seconds: float | None) -> Action:
    """A deterministic chooser: the first listed legal action."""
    return next(iter(state.legal_actions()))


def seeded(seed: int = 0):
    rng = random.Random(seed)
    return lambda state, seconds: state.random_action(rng)


def engine(choose=first_legal) -> EngineSide:
    return EngineSide(choose, name="testbot", version="9.9")


def run(lines: list[str], eng: EngineSide | None = None) -> str:
    """The concatenated output for `lines` (lines with no response add nothing)."""
    eng = eng or engine()
    return "".join(r for r in (eng.handle(line) for line in lines) if r is not None)


def answer(eng: EngineSide, line: str) -> str:
    out = eng.handle(line)
    assert out is not None, line
    return out


#: docs/protocol.md, "Phase names": each game's phase words, in the order they occur.
PROTOCOL_PHASES = {
    "anda": ("offer", "answer", "play"),
    "anda-prison": ("pair", "pair-swap", "swap", "komi", "komi-swap", "corners", "play", "proposed",
                    "declined", "agreed"),
    "spelde": ("open", "swap", "play"),
    "vaxandis": ("open", "swap", "play"),
    "marbanta": ("pie", "swap", "play"),
}
