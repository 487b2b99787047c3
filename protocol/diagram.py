"""The `showboard` diagram: a hexagon drawn in text, for people.

Free form by PROTOCOL.md; nothing parses it. Row 2n-1 is at the top. Site
(ci, ri) is drawn at column 2*ci - ri, so each site's six neighbours sit
around it. A row is labelled with its number on the left and its first and
last site on the right. Vaxandis stacks higher than one show their height.
"""
from __future__ import annotations

from hexarena.engine.game import GameState

def diagram(state: GameState) -> str:
    """Header line (game, side to move, ply, result if over) and the board."""
    pos = state.to_position()
    board = state.board
    n = pos.size
    heights = any(h > 1 for _, h in pos.stacks.values())
    outcome = state.outcome()
    status = f"over, {outcome.result()}" if outcome is not None else f"{pos.to_move.word} to move"
    lines = [f"{state.info.describe(state.variant)} {n}, ply {state.ply}, {status}"]
    label_width = len(str(2 * n - 1))
    step = 2 if heights else 1   # characters per half-site: neighbours in a row are 2 steps apart
    for ri in range(2 * n - 2, -1, -1):
        cols = [ci for ci in range(2 * n - 1) if abs(ci - ri) <= n - 1]
        row = [" "] * (4 * n * step)
        for ci in cols:
            bit = ri * board.width + ci
            stack = pos.stacks.get(bit)
            if stack is None:
                token = "."
            else:
                colour, height = stack
                token = colour.value + (str(height) if heights and height > 1 else "")
            x = (2 * ci - ri + n - 1) * step
            row[x:x + len(token)] = token
        first, last = board.name(ri * board.width + cols[0]), board.name(ri * board.width + cols[-1])
        lines.append(f"{ri + 1:>{label_width}}  {''.join(row).rstrip()}   {first}-{last}")
    return "\n".join(lines)
