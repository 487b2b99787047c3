"""`hexarena check`: every pie decision of a game, played.

An engine that mishandles `swap` or `keep` (keeps the wrong side to move, or
the wrong phase) plays every other check correctly and forfeits at the
decision of its first real game. So for each game, at one size, the checker
walks the balancing phases from the initial position by random play and,
at every point where the rules offer `swap` or `keep`, takes each of them
in turn (and one other action when the rules offer one, to reach the
decisions after it: a game may have three). Each decision line is played to
the engine from a cleared board with `play`; after the decision the engine's
`position` and `legal_moves` (when it lists them) are compared with the
rules', and it is asked to `genmove` for the side the rules say is to move.
"""
from __future__ import annotations

import random

from hexarena.engine.actions import Action, Keep, Swap
from hexarena.engine.game import GameInfo, GameState

from .grading import Checker
from .steps import genmove, legal_moves, position

__all__ = ["check_decisions", "decision_lines", "pie_size"]

DECISIONS = (Swap(), Keep())
#: Random actions walked past a decision point looking for the next one before the walk ends.
GAP = 6
#: The most decision lines checked per game.
MAX_LINES = 16


def pie_size(sizes: list[int]) -> int:
    """The size the decisions are checked at: the smallest sampled size of at least 3 (room for the
    balancing phases), else the largest sampled."""
    return min((n for n in sizes if n >= 3), default=max(sizes))


def _other_action(state: GameState, rng: random.Random) -> Action | None:
    """A random legal action that is not a decision word, if one is found in a few draws."""
    for _ in range(20):
        action = state.random_action(rng)
        if type(action) not in (Swap, Keep):
            return action
    return None


def decision_lines(info: GameInfo, n: int, rng: random.Random) -> list[list[Action]]:
    """Action lines from the initial position, each ending with `swap` or `keep`: every decision
    word at every decision point reached by random play (at most MAX_LINES lines)."""
    lines: list[list[Action]] = []

    def walk(line: list[Action], state: GameState) -> None:
        for _ in range(GAP):
            if state.outcome() is not None or len(lines) >= MAX_LINES:
                return
            words = [w for w in DECISIONS if state.is_legal(w)]
            other = _other_action(state, rng)
            for word in words:
                if len(lines) < MAX_LINES:
                    lines.append(line + [word])
                    walk(line + [word], state.play(word))
            if other is None:
                return
            if words:                       # the other branch of this decision, followed on
                walk(line + [other], state.play(other))
                return
            line, state = line + [other], state.play(other)

    walk([], info.new_game(info.variant(n), 0))
    return lines


async def check_decisions(c: Checker, info: GameInfo, n: int, rng: random.Random) -> None:
    """Play each decision line to the engine; compare and `genmove` after the decision."""
    for line in decision_lines(info, n, rng):
        state = info.new_game(info.variant(n), 0)
        tokens = []
        for action in line:
            tokens.append(state.format(action))
            state = state.play(action)
        label = f"{info.id} {n} pie {' '.join(tokens)}"
        if not await _replay(c, label, info, n, line):
            continue
        await position(c, f"{label}: position", state)
        await legal_moves(c, f"{label}: legal_moves", state)
        if state.outcome() is None:
            await genmove(c, f"{label}: genmove {state.to_move.word}", state)


async def _replay(c: Checker, label: str, info: GameInfo, n: int, line: list[Action]) -> bool:
    """`clear_board` and `play` the line (a verdict for the decision itself, and for any refusal)."""
    ok, text = await c.ask(f"{label}: clear_board", "clear_board")
    if not ok:
        return c.verdict(False, f"{label}: clear_board", f"refused: ? {text}")
    state = info.new_game(info.variant(n), 0)
    for i, action in enumerate(line):
        token, colour = state.format(action), state.to_move.word
        if i == len(line) - 1:
            return await c.ok(f"{label}: play {colour} {token}", "play", colour, token) is not None
        ok, text = await c.ask(f"{label}: play", "play", colour, token)
        if not ok:
            return c.verdict(False, f"{label}: play {colour} {token}", f"refused: ? {text}")
        state = state.play(action)
    return False
