"""Replaying a game record: every position of an SGF written by the referee.

The record is replayed through the rules, so a record that does not follow
them is reported at the first action that breaks them (ply and token); so is
an exception the rules themselves raise (a fault of a game's code: its type,
message and place), which is an SgfError like any unreadable record.
A move node may carry its think time as ``XT[seconds]``; it is read when
present and a decimal number (None otherwise); its ``XA`` values (the
engine's info lines, verbatim) are kept as text. Numbers (SZ, XK, XT) are read
by ``engine.numbers``: ASCII digits, at most 20 of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.actions import Action
from hexarena.engine.errors import RulesError, raised
from hexarena.engine.game import GameState
from hexarena.engine.numbers import decimal, whole

from ..record.sgf import SgfError, SgfNode, parse_sgf

_MOVERS = tuple((c.letter, c) for c in (Colour.BLACK, Colour.WHITE))     # an action node's property, its colour


@dataclass(frozen=True)
class Replay:
    """The header of a record and every state of the game, initial state first.

    `tokens[i]`, `actions[i]`, `seconds[i]` and `info[i]` (the XA info lines,
    verbatim; empty when none) belong to the action that led from `states[i]`
    to `states[i + 1]`.
    """

    header: SgfNode
    states: list[GameState]
    tokens: list[str]
    actions: list[Action]
    seconds: list[float | None]
    info: list[list[str]] = field(default_factory=list)


def replay_record(text: str) -> Replay:
    """Parse and replay an SGF record; SgfError saying what and where on any defect."""
    nodes = parse_sgf(text)
    root = nodes[0]
    game, size = root.get("XG"), root.get("SZ")
    if game is None:
        raise SgfError("root node: no XG[game id] property: not a hexarena record")
    if size is None:
        raise SgfError("root node: no SZ[board side] property")
    try:
        info = registry.get(game)
        variant = info.variant(whole(size, "SZ"), (root.get("XV") or "").split())
        state = info.new_game(variant, whole(root.get("XK") or "0", "XK"))
    except (RulesError, ValueError) as exc:
        raise SgfError(f"root node: {exc}") from None
    except Exception as exc:                # a fault of the game's own code, not of the record
        raise SgfError(f"root node: the rules raised {raised(exc)}") from None
    states: list[GameState] = [state]
    tokens: list[str] = []
    actions: list[Action] = []
    seconds: list[float | None] = []
    said: list[list[str]] = []
    for ply, node in enumerate(nodes[1:], 1):
        props = node.props
        moves = [(c, props[letter]) for letter, c in _MOVERS if letter in props]
        if len(moves) != 1:
            raise SgfError(f"node {ply}: expected exactly one B[...] or W[...] action")
        colour, values = moves[0]
        token = values[0] if values else None
        if colour is not state.to_move:
            raise SgfError(f"ply {ply}: {colour.word} plays {token!r} but "
                           f"{state.to_move.word} is to move")
        try:
            action = state.parse(token or "")
            state = state.play(action)
        except RulesError as exc:
            raise SgfError(f"ply {ply}: {token!r}: {exc}") from None
        except Exception as exc:            # a fault of the game's own code, not of the record
            raise SgfError(f"ply {ply}: {token!r}: the rules raised {raised(exc)}") from None
        states.append(state)
        tokens.append(token or "")
        actions.append(action)
        seconds.append(_seconds(props["XT"][0]) if props.get("XT") else None)
        said.append(props.get("XA", []))
    return Replay(root, states, tokens, actions, seconds, said)


def _seconds(text: str) -> float | None:
    try:
        return decimal(text, "XT")
    except RulesError:
        return None
