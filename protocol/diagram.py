"""The board drawn in text, for people: `showboard` and `hexarena show`.

Free form by docs/protocol.md; nothing parses it. Row 2n-1 is at the top. Site
(ci, ri) is drawn at column 2*ci - ri (in half-site steps), so each site's
six neighbours sit around it. Stacks higher than one show their height.

Two forms. The compact one (`showboard`): each row labelled with its number
on the left and its first and last site on the right. With ``edges=True``
(`hexarena show`): row numbers on the left, and each column letter just
past the column's lower end (under row 1 for the columns that reach it,
right of the row below for the others), as HGP names them; the sites of the
last action in parentheses, `(b)`; the phase and the game's shown keys
(``GameInfo.shown``) in the header.
"""
from __future__ import annotations

from hexarena.engine.game import GameState


def diagram(state: GameState, marked: frozenset[int] = frozenset(), edges: bool = False,
            last_token: str = "") -> str:
    """Header line(s) (game, side to move, ply, result if over) and the board.

    `marked`: bits of the sites to show in parentheses (the last action's).
    """
    pos = state.to_position()
    n = pos.size
    outcome = state.outcome()
    status = f"over, {outcome.result()}" if outcome is not None else f"{pos.to_move.word} to move"
    header = f"{state.info.describe(state.variant)} {n}, ply {state.ply}, {status}"
    if not edges:
        return "\n".join([header, *_compact_rows(state)])
    lines = [header + f", phase {state.info.key_text(pos, 'phase')}"]
    lines += state.info.shown(pos.keys)
    if last_token:
        lines.append(f"last: {last_token}" + (" (sites in parentheses)" if marked else ""))
    return "\n".join(lines + _edge_rows(state, marked))


def _site_tokens(state: GameState) -> dict[int, str]:
    pos = state.to_position()
    heights = any(h > 1 for _, h in pos.stacks.values())
    return {bit: colour.value + (str(h) if heights and h > 1 else "") for bit, (colour, h) in pos.stacks.items()}


def _compact_rows(state: GameState) -> list[str]:
    board = state.board
    n = board.n
    tokens = _site_tokens(state)
    step = 2 if any(len(t) > 1 for t in tokens.values()) else 1
    label_width = len(str(2 * n - 1))
    lines = []
    for ri in range(2 * n - 2, -1, -1):
        cols = [ci for ci in range(2 * n - 1) if abs(ci - ri) <= n - 1]
        row = [" "] * (4 * n * step)
        for ci in cols:
            token = tokens.get(ri * board.width + ci, ".")
            x = (2 * ci - ri + n - 1) * step
            row[x:x + len(token)] = token
        first, last = board.name(ri * board.width + cols[0]), board.name(ri * board.width + cols[-1])
        lines.append(f"{ri + 1:>{label_width}}  {''.join(row).rstrip()}   {first}-{last}")
    return lines


def _edge_rows(state: GameState, marked: frozenset[int]) -> list[str]:
    """The board with coordinates on its edges; two characters per half-site step."""
    board = state.board
    n, last = board.n, 2 * board.n - 2
    tokens = _site_tokens(state)
    items: list[tuple[int, int, str]] = []     # (line = row index, x, text); line -1 is under row 1

    def x_of(ci: int, ri: int) -> int:
        return 2 * (2 * ci - ri + n - 1)

    for bit in board.sites:
        ci, ri = board.coords(bit)
        text = tokens.get(bit, ".")
        if bit in marked:
            items.append((ri, x_of(ci, ri) - 1, f"({text})"))
        else:
            items.append((ri, x_of(ci, ri), text))
    for ri in range(last + 1):
        first = max(0, ri - (n - 1))
        label = str(ri + 1)
        items.append((ri, x_of(first - 1, ri) - len(label) + 1, label))
    for ci in range(last + 1):
        lowest = max(0, ci - (n - 1))
        items.append((lowest - 1, x_of(ci, lowest - 1), chr(97 + ci)))
    shift = -min(x for _, x, _ in items)
    lines = []
    for ri in range(last, -2, -1):
        row: list[str] = []
        for line, x, text in items:
            if line == ri:
                x += shift
                row.extend(" " * (x + len(text) - len(row)))
                row[x:x + len(text)] = text
        lines.append("".join(row).rstrip())
    return lines
