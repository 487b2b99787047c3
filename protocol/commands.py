"""The facts of HGP that both sides need: the two tiers of commands and the bound on answers.

*Play* commands are what the referee sends; every engine in a tournament
implements them. *Analysis* commands are optional: an engine that implements
one lists it in `list_commands` and answers it exactly as docs/protocol.md says,
one that does not answers `? unknown command`.

`legal_moves` is bounded: past :data:`MOVE_LIMIT` actions or
:data:`MOVE_BYTES` bytes of answer text the answer is `? too many moves`.
:func:`bounded_legal_moves` computes the answer (or None) lazily, never
building more than the bound, so the engine side and `hexarena check` agree.
"""
from __future__ import annotations

from collections.abc import Iterable

from hexarena.engine.game import GameState

__all__ = ["HGP_VERSION", "PLAY_COMMANDS", "ANALYSIS_COMMANDS", "ALL_COMMANDS", "MOVE_LIMIT", "MOVE_BYTES", "MALFORMED",
           "TOO_MANY_MOVES", "bounded_tokens", "bounded_legal_moves"]

#: The answer to `hgp_version`: the version docs/protocol.md describes.
HGP_VERSION = "1.2"
#: What the referee sends; every tournament engine implements these (`time_*` may be ignored).
PLAY_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
                 "list_games", "game", "boardsize", "clear_board", "komi", "play", "genmove",
                 "time_settings", "time_left")
#: Optional commands for tools, tests and people; answered exactly as written when listed.
ANALYSIS_COMMANDS = ("undo", "showboard", "legal_moves", "legal_cells", "position", "set_position",
                     "final_score", "kgs-time_settings", "hgp_version", "genmove_analyze")
ALL_COMMANDS = PLAY_COMMANDS + ANALYSIS_COMMANDS
#: hexarena's optional extension, outside HGP (docs/protocol.md): the seat's seed for the coming
#: game, sent to an engine that lists it so that a kept process plays as a fresh one would.
SEED_COMMAND = "hexarena-seed"

#: `legal_moves` answers `too many moves` past this many actions ...
MOVE_LIMIT = 100_000
#: ... or past this many bytes of answer text (the tokens and the spaces between them).
MOVE_BYTES = 1_000_000
#: The failure word for an unbounded `legal_moves`.
TOO_MANY_MOVES = "too many moves"
#: A token that is no action form of any game: `play` must answer `? syntax error`.
MALFORMED = "e5@"


def bounded_tokens(tokens: Iterable[str]) -> str | None:
    """The tokens joined by spaces, or None once they pass MOVE_LIMIT tokens or MOVE_BYTES bytes.

    Consumes `tokens` lazily and stops at the first token over a bound.
    """
    out: list[str] = []
    size = -1
    for token in tokens:
        size += len(token.encode()) + 1
        if len(out) >= MOVE_LIMIT or size > MOVE_BYTES:
            return None
        out.append(token)
    return " ".join(out)


def bounded_legal_moves(state: GameState) -> str | None:
    """The text of `legal_moves` for `state` ("" when the game is over), or None: `? too many moves`."""
    if state.outcome() is not None:
        return ""
    return bounded_tokens(state.format(a) for a in state.legal_actions())

