"""`hexarena check`: the optional refusals of a `play` the rules forbid, and rebuilding the engine's board.

An engine need not validate `play` (HGP 1.1): accepting an illegal action is
graded NOTIMPL (FAIL under `--strict`) by :meth:`Checker.validates`, and the
engine's board is then rebuilt with `clear_board` and the actions played so far.
"""
from __future__ import annotations

import random

from hexarena.engine.actions import Action
from hexarena.engine.errors import InvalidNotation
from hexarena.engine.game import GameInfo, GameState
from hexarena.protocol.commands import MALFORMED

from .grading import Checker, equal

__all__ = ["play", "refusals"]


def _illegal_site(state: GameState) -> str | None:
    """A well-formed placement the rules forbid now (an occupied site, a wrong phase)."""
    board = state.board
    for name in board.names(board.mask):
        try:
            if not state.is_legal(state.parse(name)):
                return name
        except InvalidNotation:
            return None
    return None


async def play(c: Checker, check: str, state: GameState, action: Action) -> bool:
    """`play` the mover's `action`; True when the engine accepted it."""
    return await c.ok(check, "play", state.to_move.word, state.format(action)) is not None


async def _rebuild(c: Checker, p: str, info: GameInfo, n: int, played: list[Action]) -> GameState | None:
    """After the engine accepted an illegal `play`: `clear_board` and replay `played`; the state, or None."""
    if await c.ok(f"{p} clear_board (rebuild)", "clear_board") is None:
        return None
    state = info.new_game(info.variant(n), 0)
    for action in played:
        if not await play(c, f"{p} play (rebuild)", state, action):
            return None
        state = state.play(action)
    return state


async def refusals(c: Checker, p: str, info: GameInfo, n: int, state: GameState, played: list[Action],
                   rng: random.Random) -> GameState | None:
    """The optional refusals of a `play` the rules forbid; the engine's board rebuilt if it accepted one."""
    to_move, other = state.to_move.word, state.to_move.other.word
    intact = True
    site = _illegal_site(state)
    if site is not None:
        intact &= await c.validates(f"{p} play (illegal {site})", "illegal move", "play", to_move, site)
    token = state.format(state.random_action(rng))
    intact &= await c.validates(f"{p} play (wrong colour)", "illegal move", "play", other, token)
    intact &= await c.validates(f"{p} play (malformed {MALFORMED})", "syntax error", "play", to_move, MALFORMED)
    if intact:
        if c.has("position"):
            await c.ok(f"{p} position (after refusals)", "position", judge=equal(state.position()))
        return state
    return await _rebuild(c, p, info, n, played)
