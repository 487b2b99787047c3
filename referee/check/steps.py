"""`hexarena check`: the steps shared by the sequences (tool.py, pie.py): `position` and `legal_moves`
compared with the rules' own (when the engine lists them), `genmove` judged by the rules."""
from __future__ import annotations

from hexarena.engine.errors import IllegalMove, InvalidNotation
from hexarena.engine.game import GameState
from hexarena.protocol.commands import TOO_MANY_MOVES, bounded_legal_moves

from .grading import Checker, equal, tokens_match

__all__ = ["genmove", "judge_action", "legal_moves", "position"]


async def position(c: Checker, check: str, state: GameState) -> None:
    if c.has("position"):
        await c.ok(check, "position", judge=equal(state.position()))


async def legal_moves(c: Checker, check: str, state: GameState) -> None:
    if not c.has("legal_moves"):
        return
    text = bounded_legal_moves(state)
    if text is None:
        await c.refused(check, TOO_MANY_MOVES, "legal_moves")
    else:
        await c.ok(check, "legal_moves", judge=tokens_match(text.split(), "legal moves"))


def judge_action(state: GameState, text: str) -> tuple[str | None, GameState | None]:
    """(a problem, None) or (None, the state after it) for an answer to `genmove` in `state`:
    a legal action in its canonical form, or `resign` (the state after it is `state`)."""
    token = text.strip()
    if token.lower() == "resign":
        return None, state
    try:
        action = state.parse(token)
        after = state.play(action)
    except InvalidNotation as exc:
        return f"malformed: {exc}", None
    except IllegalMove as exc:
        return f"illegal per our rules: {exc}", None
    if token != state.format(action):
        return f"not canonical, expected {state.format(action)!r}", None
    return None, after


async def genmove(c: Checker, check: str, state: GameState) -> GameState | None:
    """Ask for a move; the state after it (the same state after `resign`), None on a FAIL."""
    result: list[GameState] = []

    def judge(text: str) -> str | None:
        problem, after = judge_action(state, text)
        if after is not None:
            result.append(after)
        return problem

    text = await c.ok(check, "genmove", state.to_move.word, judge=judge)
    return result[0] if text is not None else None
