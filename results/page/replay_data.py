"""A replayed game as compact per-ply data for the HTML report's viewer.

The viewer draws no rules: it applies, ply after ply, the site changes the
rules computed here. One game is a small JSON object:

* ``bd``: the board, ``GAME-SIZE`` (the id of its empty drawing in the page)
* ``m``: the action tokens; ``x``: think times in seconds (only when recorded)
* ``d``: per ply, the sites that changed, space separated: ``e5b`` (a black
  stone), ``g7w3`` (a white stack of 3), ``f6`` (emptied)
* ``h``: per ply, the sites of the action when they differ from the changed
  sites (``-`` none), else ``""``
* ``p``: ``{ply: "MOVER PHASE[|SHOWN]"}`` at ply 0 and wherever the status is
  not the previous one with the other side to move; SHOWN is the game's shown
  keys as drawings print them (``GameInfo.shown``), joined by ``; ``

A board string is never repeated: 1,000 games of 60 plies stay near a
megabyte.
"""
from __future__ import annotations

import functools

from hexarena.engine import registry
from hexarena.engine.game import GameInfo, GameState
from hexarena.engine.geometry import Hexagon
from hexarena.engine.position import Position

from .board_svg import action_sites
from .replay import Replay


def site_text(colour_value: str, height: int, stacks: bool) -> str:
    return colour_value + (str(height) if stacks and height > 1 else "")


def status_text(pos: Position) -> str:
    """`b play` (mover, phase), with the game's shown keys after a bar:
    `w play|prison: 2 black, 0 white`."""
    return _status(registry.get(pos.game), pos.to_move.value, pos.keys)


def _status(info: GameInfo, mover: str, keys: dict[str, str]) -> str:
    phase = keys["phase"] if "phase" in keys else info.position_defaults().get("phase", "")
    text = f"{mover} {phase}"
    shown = info.shown(keys)
    return text + "|" + "; ".join(shown) if shown else text


def game_data(replay: Replay) -> dict:
    """The viewer's data of one replayed game (see the module docstring)."""
    first = replay.states[0]
    board: Hexagon = first.board
    info = first.info
    names = _site_names(board)
    diffs: list[str] = []
    highlights: list[str] = []
    initial = ""
    statuses: dict[str, str] = {}
    last_status = ""
    before: GameState | None = None
    for ply, state in enumerate(replay.states):
        changes = state.changes(before)
        text = " ".join(names[bit] + (site_text(stack[0].value, stack[1], info.stacks) if stack else "")
                        for bit, stack in sorted(changes.items(), key=lambda item: board.rank[item[0]]))
        status = _status(info, state.to_move.value, state.position_keys())
        if ply == 0 or status != _other_mover(last_status):
            statuses[str(ply)] = status
        last_status = status
        if ply:
            diffs.append(text)
            marked = action_sites(replay.actions[ply - 1])
            highlights.append("" if marked == changes.keys() else
                              " ".join(names[b] for b in board.sorted_sites(marked)) or "-")
        else:
            initial = text
        before = state
    data: dict[str, object] = {"bd": f"{info.id}-{board.n}", "m": replay.tokens, "d": diffs, "h": highlights, "p": statuses, "i0": initial}
    if any(s is not None for s in replay.seconds):
        data["x"] = replay.seconds
    return data


@functools.cache
def _site_names(board: Hexagon) -> dict[int, str]:
    return {bit: board.name(bit) for bit in board.sites}


def _other_mover(status: str) -> str:
    if not status:
        return ""
    mover, _, rest = status.partition(" ")
    return ("w" if mover == "b" else "b") + " " + rest
