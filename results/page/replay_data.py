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
from collections.abc import Sequence
from typing import cast

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.game import GameInfo, GameState, StoneState
from hexarena.engine.geometry import Hexagon, iter_bits
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


def status_of(info: GameInfo, key: Sequence[str]) -> str:
    """The status text of a status key: the mover's letter, the phase, then the values of the
    game's `shown_keys` in order (``("w", "play", "2,0")`` -> ``w play|prison: 2 black, 0 white``)."""
    return _status(info, key[0], {"phase": key[1], **dict(zip(info.shown_keys, key[2:]))})


def game_data(replay: Replay) -> dict:
    """The viewer's data of one replayed game (see the module docstring).

    Per ply it reads only what changed (:func:`site_changes`) and the state's ``position_keys()``;
    the texts of a status and of an action's sites are built once per game and value."""
    first = replay.states[0]
    board: Hexagon = first.board
    info = first.info
    names = _site_names(board)
    defaults = info.position_defaults()
    phase_default, shown_keys = defaults.get("phase", ""), info.shown_keys
    black = Colour.BLACK
    statuses_of: dict[tuple, tuple[str, str]] = {}   # status key -> (status, the other mover's status)
    marks: dict[object, tuple[int, str]] = {}        # action -> the sites it names (a mask), as `h` says them
    changed = site_changes(replay.states)
    highlights: list[str] = []
    statuses: dict[str, str] = {}
    follows = ""                                     # the status that needs no entry at this ply
    actions = replay.actions
    for ply, state in enumerate(replay.states):
        keys = state.position_keys()
        mover = state.to_move
        key = (mover is black, keys.get("phase", phase_default), *(keys.get(k) for k in shown_keys))
        known = statuses_of.get(key)
        if known is None:
            status = _status(info, mover.value, keys)
            known = statuses_of[key] = (status, other_mover(status))
        if ply == 0 or known[0] != follows:
            statuses[str(ply)] = known[0]
        follows = known[1]
        if ply:
            action = actions[ply - 1]
            marked = marks.get(action)
            if marked is None:
                sites_of = action_sites(action)
                marked = marks[action] = (sum(1 << b for b in sites_of),
                                          " ".join(names[b] for b in board.sorted_sites(sites_of)) or "-")
            highlights.append("" if marked[0] == changed[ply][1] else marked[1])
    data: dict[str, object] = {"bd": f"{info.id}-{board.n}", "m": replay.tokens,
                               "d": [text for text, _ in changed[1:]], "h": highlights, "p": statuses,
                               "i0": changed[0][0]}
    if any(s is not None for s in replay.seconds):
        data["x"] = replay.seconds
    return data


def site_changes(states: list[GameState]) -> list[tuple[str, int]]:
    """Per state, the sites that changed since the one before (all of them for the first) as
    the viewer's text (``e5b g7w3 f6``, in notation order) and as a mask of those sites: each
    state's ``changes(before)``; for the games of stones alone, read from the colour bitboards
    as ``StoneState.changes`` reads them (a site in both is White's), without building its dict."""
    board: Hexagon = states[0].board
    if states[0].info.stacks or not all(isinstance(s, StoneState) for s in states):
        return _stack_changes(states)
    rank = board.rank
    texts = _stone_texts(board)
    out: list[tuple[str, int]] = []
    b0 = w0 = 0
    stones = cast("list[StoneState]", states)
    for state in stones:
        b, w = state.black, state.white
        moved = (b ^ b0) | (w ^ w0)
        bits = (sorted(iter_bits(moved), key=rank.__getitem__) if moved & (moved - 1)
                else [moved.bit_length() - 1] if moved else ())
        parts = []
        mask = 0
        for bit in bits:
            now = 2 if w >> bit & 1 else 1 if b >> bit & 1 else 0
            if now != (2 if w0 >> bit & 1 else 1 if b0 >> bit & 1 else 0):
                parts.append(texts[now][bit])
                mask |= 1 << bit
        out.append((" ".join(parts), mask))
        b0, w0 = b, w
    return out


def _stack_changes(states: list[GameState]) -> list[tuple[str, int]]:
    """:func:`site_changes` through each state's ``changes(before)`` (stacks, or a state of
    another kind), each site's text built once per site, colour and height."""
    board: Hexagon = states[0].board
    names, rank, stacks = _site_names(board), board.rank, states[0].info.stacks
    black = Colour.BLACK
    sites: dict[tuple, str] = {}                     # (site, black?, height) -> `e5b`, `g7w3`; (site,) -> `f6`
    out: list[tuple[str, int]] = []
    before: GameState | None = None
    for state in states:
        changes = state.changes(before)
        parts = []
        mask = 0
        for bit in sorted(changes, key=rank.__getitem__) if len(changes) > 1 else changes:
            stack = changes[bit]
            key = (bit,) if stack is None else (bit, stack[0] is black, stack[1])
            text = sites.get(key)
            if text is None:
                text = sites[key] = names[bit] + (site_text(stack[0].value, stack[1], stacks) if stack else "")
            parts.append(text)
            mask |= 1 << bit
        out.append((" ".join(parts), mask))
        before = state
    return out


@functools.cache
def _stone_texts(board: Hexagon) -> tuple[dict[int, str], dict[int, str], dict[int, str]]:
    """Each site's text emptied, with a black stone and with a white one (`f6`, `f6b`, `f6w`)."""
    names = _site_names(board)
    return names, {bit: name + "b" for bit, name in names.items()}, {bit: name + "w" for bit, name in names.items()}


@functools.cache
def _site_names(board: Hexagon) -> dict[int, str]:
    return {bit: board.name(bit) for bit in board.sites}


def other_mover(status: str) -> str:
    """The same status with the other side to move (`b play` -> `w play`)."""
    if not status:
        return ""
    mover, _, rest = status.partition(" ")
    return ("w" if mover == "b" else "b") + " " + rest
