"""Boards as SVG: a pure function of a position and the last action.

Each game says how its board is drawn (``GameInfo.drawing``): as hexagonal
cells, or as the points of a triangular grid (the same graph either way), and
which position keys are shown beside the phase (``GameInfo.shown_keys``).
Column letters and row numbers, as HGP names them, run along the edges.

Every site is one ``<g class="site" data-site="e5" data-stone="b"
data-height="1" data-last="1">`` element: the drawing's state lives in its
data attributes and the embedded style sheet paints them, so a viewer
(the HTML report's replay) updates a position by setting attributes on an
empty :func:`board_template`, and tests read the DOM back the same way.
"""
from __future__ import annotations

import math
from functools import lru_cache
from html import escape

from hexarena.engine import registry
from hexarena.engine.actions import Action, Grow, Move, Pair, PieStones, Place, Split
from hexarena.engine.core import Colour
from hexarena.engine.geometry import hexagon, iter_bits
from hexarena.engine.position import Position

STEP = 36.0                          # pixels between neighbouring sites
ROW = STEP * math.sqrt(3) / 2        # pixels between rows
PAD = STEP * 1.25                    # room for the coordinates
STATUS_HEIGHT = 52.0                 # the three text lines under the board

#: The style sheet of a board; the HTML report includes it once for all boards.
STYLE = """
.hexboard{font-family:sans-serif}
.hexboard .cell{fill:#e8c98a;stroke:#7a5c2e;stroke-width:1}
.hexboard .grid{stroke:#7a5c2e;stroke-width:1.2;fill:none}
.hexboard .point{fill:#7a5c2e}
.hexboard .coord{font-size:11px;fill:#555;text-anchor:middle;dominant-baseline:central}
.hexboard .stone,.hexboard .mark{display:none}
.hexboard .site[data-stone=b] .stone{display:inline;fill:#222;stroke:#000}
.hexboard .site[data-stone=w] .stone{display:inline;fill:#f7f7f7;stroke:#333}
.hexboard .height{font-size:13px;font-weight:bold;text-anchor:middle;dominant-baseline:central}
.hexboard .site[data-stone=b] .height{fill:#fff}
.hexboard .site[data-stone=w] .height{fill:#000}
.hexboard .site[data-last="1"] .cell{fill:#f5e07a}
.hexboard .site[data-last="1"] .mark{display:inline;fill:none;stroke:#d62728;stroke-width:2.5}
.hexboard .status{font-size:13px;fill:#222}
"""


def is_point_board(game: str) -> bool:
    """Whether the game's board is drawn as the points of a triangular grid (else as cells)."""
    return registry.get(game).drawing == "points"


def action_sites(action: Action | None) -> frozenset[int]:
    """Every site an action names: a pair's two stones, a split's site and flips, a growth's
    root and branches, a move's source and destination. Words: none."""
    if action is None:
        return frozenset()
    if isinstance(action, Place):
        return frozenset({action.cell})
    if isinstance(action, Pair):
        return frozenset({action.a, action.b})
    if isinstance(action, PieStones):
        return frozenset({action.black, action.white})
    if isinstance(action, Split):
        return frozenset({action.cell, *iter_bits(action.flips)})
    if isinstance(action, Move):
        return frozenset({action.src, action.dst})
    if isinstance(action, Grow):
        return frozenset({action.root, *action.branches})
    return frozenset()


def status_lines(position: Position, last_token: str = "", note: str = "") -> tuple[str, str, str]:
    """The three lines under a board: who moves and the phase; the game's shown keys
    (``GameInfo.shown``) and the ply; the last action and a note (such as the result)."""
    info = registry.get(position.game)
    mover = position.to_move.name.capitalize()
    first = f"{mover} to move, phase {info.key_text(position, 'phase')}"
    second = "; ".join([*info.shown(position.keys), f"ply {info.key_text(position, 'ply')}"])
    third = "; ".join(t for t in (f"last: {last_token}" if last_token else "", note) if t)
    return first, second, third


def board_svg(position: Position, last: Action | None = None, last_token: str = "", note: str = "") -> str:
    """The SVG of `position`, the sites of `last` (the action that led to it) highlighted.

    `last_token` and `note` are printed under the board (escaped). Pure: the
    same arguments give the same text.
    """
    board = hexagon(position.size)
    stones = {board.name(bit): (colour, height) for bit, (colour, height) in position.stacks.items()}
    marked = {board.name(bit) for bit in action_sites(last)}
    return _svg(position.game, position.size, stones, marked,
                status_lines(position, last_token, note), standalone=True)


def board_template(game: str, size: int, standalone: bool = False) -> str:
    """The empty board of a game and size: the template the report's replay fills in."""
    return _svg(game, size, {}, set(), ("", "", ""), standalone=standalone)


@lru_cache(maxsize=64)
def site_xy(size: int) -> dict[str, tuple[float, float]]:
    """Pixel centre of each site by name (row 2n-1 at the top, as in docs/protocol.md)."""
    board = hexagon(size)
    return {board.name(bit): _xy(size, *board.coords(bit)) for bit in board.sites}


def _xy(n: int, ci: float, ri: float) -> tuple[float, float]:
    return PAD + (ci - ri / 2 + (n - 1) / 2) * STEP, PAD + (2 * n - 2 - ri) * ROW


def _svg(game: str, n: int, stones: dict[str, tuple[Colour, int]], marked: set[str],
         status: tuple[str, str, str], standalone: bool) -> str:
    board = hexagon(n)
    points = is_point_board(game)
    stacks = registry.get(game).stacks
    width = 2 * PAD + (2 * n - 2) * STEP
    height = 2 * PAD + (2 * n - 2) * ROW
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="hexboard" data-game="{escape(game)}" '
           f'data-size="{n}" viewBox="0 0 {width:.0f} {height + STATUS_HEIGHT:.0f}" '
           f'width="{width:.0f}" height="{height + STATUS_HEIGHT:.0f}">']
    if standalone:
        out.append(f"<style>{STYLE}</style>")
    out.append(f'<rect width="100%" height="100%" fill="{"#f3e2b8" if points else "#fdf6e3"}"/>')
    if points:
        out.append(_grid(n))
    out.append(_coordinates(n))
    radius = STEP / math.sqrt(3)
    for bit in board.sites:
        name = board.name(bit)
        x, y = _xy(n, *board.coords(bit))
        colour, h = stones.get(name, (None, 0))
        attrs = (f'data-site="{name}" data-stone="{colour.value if colour else ""}" '
                 f'data-height="{h if colour else ""}"' + (' data-last="1"' if name in marked else ""))
        out.append(f'<g class="site" {attrs}>')
        if points:
            out.append(f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="2.5"/>')
        else:
            corners = " ".join(f"{x + radius * math.cos(math.radians(a)):.1f},"
                               f"{y + radius * math.sin(math.radians(a)):.1f}" for a in range(30, 390, 60))
            out.append(f'<polygon class="cell" points="{corners}"/>')
        out.append(f'<circle class="stone" cx="{x:.1f}" cy="{y:.1f}" r="{STEP * 0.42:.1f}"/>'
                   f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="{STEP * 0.47:.1f}"/>')
        if stacks:
            label = str(h) if colour and h > 1 else ""
            out.append(f'<text class="height" x="{x:.1f}" y="{y:.1f}">{label}</text>')
        out.append("</g>")
    for i, line in enumerate(status):
        out.append(f'<text class="status" data-line="{i}" x="{PAD / 3:.0f}" '
                   f'y="{height + 14 + 16 * i:.0f}">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _grid(n: int) -> str:
    """The lines of the triangular grid: each site joined to its neighbours."""
    board = hexagon(n)
    segments = []
    for bit in board.sites:
        ci, ri = board.coords(bit)
        x, y = _xy(n, ci, ri)
        for dc, dr in ((1, 0), (0, 1), (1, 1)):
            if board.bit(ci + dc, ri + dr) is not None:
                x2, y2 = _xy(n, ci + dc, ri + dr)
                segments.append(f"M{x:.1f} {y:.1f}L{x2:.1f} {y2:.1f}")
    return f'<path class="grid" d="{"".join(segments)}"/>'


def _coordinates(n: int) -> str:
    """Row numbers at both ends of each row; each column letter past the end of the column
    that meets row 1 or row 2n-1 (every column meets one of them)."""
    last = 2 * n - 2
    labels: list[tuple[float, float, str]] = []
    for c in range(last + 1):
        if c <= n - 1:
            labels.append((c, -0.8, chr(97 + c)))
        if c >= n - 1:
            labels.append((c, last + 0.8, chr(97 + c)))
    for r in range(last + 1):
        cols = [c for c in range(last + 1) if abs(c - r) <= n - 1]
        for x in (cols[0] - 0.8, cols[-1] + 0.8):
            labels.append((x, r, str(r + 1)))
    return "".join(f'<text class="coord" x="{_xy(n, c, r)[0]:.1f}" y="{_xy(n, c, r)[1]:.1f}">{t}</text>'
                   for c, r, t in labels)
