"""Replaying a game record: the positions of an SGF written by the referee.

The record is replayed through the rules, so a record that does not follow
them is reported at the first action that breaks them (ply and token).
"""
from __future__ import annotations

from dataclasses import dataclass

from hexarena.engine import registry
from hexarena.engine.core import Colour
from hexarena.engine.errors import RulesError
from hexarena.engine.game import GameState

from .sgf_read import SgfError, SgfNode, parse_sgf


@dataclass(frozen=True)
class Replay:
    """The header of a record and every state of the game, initial state first."""

    header: SgfNode
    states: list[GameState]
    tokens: list[str]


def replay(text: str) -> Replay:
    """Parse and replay an SGF record; SgfError saying what and where on any defect."""
    nodes = parse_sgf(text)
    root = nodes[0]
    game, size = root.get("XG"), root.get("SZ")
    if game is None:
        raise SgfError("root node: no XG[game id] property: not a hexarena record")
    if size is None or not size.isdigit():
        raise SgfError(f"root node: SZ[{size}] is not a board side")
    try:
        info = registry.get(game)
        variant = info.variant(int(size), (root.get("XV") or "").split())
        komi = root.get("XK") or "0"
        state = info.new_game(variant, int(komi) if komi.isdigit() else 0)
    except (RulesError, ValueError) as exc:
        raise SgfError(f"root node: {exc}") from None
    states, tokens = [state], []
    for ply, node in enumerate(nodes[1:], 1):
        moves = [(c, node.get(c.letter)) for c in (Colour.BLACK, Colour.WHITE) if c.letter in node.props]
        if len(moves) != 1:
            raise SgfError(f"node {ply}: expected exactly one B[...] or W[...] action")
        colour, token = moves[0]
        if colour is not state.to_move:
            raise SgfError(f"ply {ply}: {colour.word} plays {token!r} but "
                           f"{state.to_move.word} is to move")
        try:
            state = state.play(state.parse(token or ""))
        except RulesError as exc:
            raise SgfError(f"ply {ply}: {token!r}: {exc}") from None
        states.append(state)
        tokens.append(token or "")
    return Replay(root, states, tokens)
