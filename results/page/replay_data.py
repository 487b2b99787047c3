"""A replayed game as compact per-ply data for the HTML report's viewer.

The viewer draws no rules: it applies, ply after ply, the site changes the
rules computed here. One game is a small JSON object:

* ``bd``: the board, ``GAME-SIZE`` (the id of its empty drawing in the page)
* ``m``: the action tokens; ``x``: think times in seconds (only when recorded)
* ``d``: per ply, the sites that changed, space separated: ``e5b`` (a black
  stone), ``g7w3`` (a white stack of 3), ``f6`` (emptied)
* ``h``: per ply, the sites of the action when they differ from the changed
  sites (``-`` none), else ``""``
* ``p``: ``{ply: "MOVER PHASE[ PRISON]"}`` at ply 0 and wherever the status is
  not the previous one with the other side to move

A board string is never repeated: 1,000 games of 60 plies stay near a
megabyte.
"""
from __future__ import annotations

from hexarena.engine import registry
from hexarena.engine.geometry import Hexagon
from hexarena.engine.position import Position

from .board_svg import action_sites
from .replay import Replay


def site_text(colour_value: str, height: int, stacks: bool) -> str:
    return colour_value + (str(height) if stacks and height > 1 else "")


def status_text(pos: Position) -> str:
    """`b play` (mover, phase), with the prison for Anda-prison: `w play 2,0`."""
    text = f"{pos.to_move.value} {registry.get(pos.game).key_text(pos, 'phase')}"
    return text + f" {registry.get(pos.game).key_text(pos, 'prison')}" if pos.game == "anda-prison" else text


def game_data(replay: Replay) -> dict:
    """The viewer's data of one replayed game (see the module docstring)."""
    first = replay.states[0]
    board: Hexagon = first.board
    stacks = first.info.stacks
    previous: dict[int, tuple] = {}
    diffs: list[str] = []
    highlights: list[str] = []
    initial = ""
    statuses: dict[str, str] = {}
    last_status = ""
    for ply, state in enumerate(replay.states):
        pos = state.to_position()
        current = pos.stacks
        changed = {bit for bit, _ in current.items() ^ previous.items()}
        names = []
        for bit in board.sorted_sites(changed):
            stack = current.get(bit)
            names.append(board.name(bit) + (site_text(stack[0].value, stack[1], stacks) if stack else ""))
        status = status_text(pos)
        expected = _other_mover(last_status)
        if ply == 0 or status != expected:
            statuses[str(ply)] = status
        last_status = status
        if ply:
            diffs.append(" ".join(names))
            marked = action_sites(replay.actions[ply - 1])
            highlights.append("" if marked == changed else
                              " ".join(board.name(b) for b in board.sorted_sites(marked)) or "-")
        else:
            initial = " ".join(names)
        previous = current
    data: dict[str, object] = {"bd": f"{first.info.id}-{board.n}", "m": replay.tokens, "d": diffs, "h": highlights, "p": statuses, "i0": initial}
    if any(s is not None for s in replay.seconds):
        data["x"] = replay.seconds
    return data


def _other_mover(status: str) -> str:
    if not status:
        return ""
    mover, _, rest = status.partition(" ")
    return ("w" if mover == "b" else "b") + " " + rest
