"""Anda-prison's phases and the turn sequence between them, and the agreement score.

docs/rules/anda-prison.md: the dual pie, then the komi
pie (balance `pie`), the corner pairs (balance `corners`), normal play, and the
ending by agreement. The state (``state.py``) asks :func:`after_word` where a
one-word decision leads and :func:`after_placement` where a placement does;
:func:`agreement_score` scores a board.
"""
from __future__ import annotations

from enum import StrEnum

from .. import anda_regions as R
from ...actions import Accept, Action, Decline, Keep, Propose, Swap
from ...core import Colour, Outcome, Termination
from ...geometry import Hexagon

BLACK, WHITE = Colour.BLACK, Colour.WHITE


class Phase(StrEnum):
    """The phases of Anda-prison, in the order they occur; the values are the protocol's words."""

    PAIR = "pair"
    PAIR_SWAP = "pair-swap"
    SWAP = "swap"
    KOMI = "komi"
    KOMI_SWAP = "komi-swap"
    CORNERS = "corners"
    PLAY = "play"
    PROPOSED = "proposed"
    DECLINED = "declined"
    AGREED = "agreed"


#: The members as module constants: `Phase.X` is an enum lookup (slow on Python 3.11) in hot paths.
PAIR, PAIR_SWAP, SWAP, KOMI, KOMI_SWAP, CORNERS, PLAY, PROPOSED, DECLINED, AGREED = Phase.PAIR, Phase.PAIR_SWAP, Phase.SWAP, Phase.KOMI, Phase.KOMI_SWAP, Phase.CORNERS, Phase.PLAY, Phase.PROPOSED, Phase.DECLINED, Phase.AGREED

#: The phases whose turn places a two-stone pair (besides `play` while `first` is not `-`).
PAIR_PHASES = (PAIR, PAIR_SWAP, CORNERS)


def after_placement(phase: Phase, first_left: bool) -> Phase:
    """The phase after a placement (single or pair); `first_left`: a colour still owes its pair."""
    if phase is PAIR or phase is PAIR_SWAP:
        return PAIR_SWAP if first_left else SWAP
    if phase is CORNERS:
        return CORNERS if first_left else PLAY
    return PLAY


def after_word(phase: Phase, action: Action, mover: Colour) -> tuple[Colour, Phase] | None:
    """(colour to move, phase) after a one-word decision of `mover` (swap, keep, propose,
    accept, decline); None when the word is not an action of `phase` (Propose: the caller
    checks that no first turn is owed)."""
    kind = type(action)
    if kind is Propose:
        return (mover.other, PROPOSED) if phase is PLAY else None
    if kind is Accept or kind is Decline:
        if phase is not PROPOSED:
            return None
        return mover.other, AGREED if kind is Accept else DECLINED
    if kind is Swap and phase is PAIR_SWAP:
        return WHITE, PAIR                   # the swapper places White's pair next
    if (kind is Swap or kind is Keep) and (phase is SWAP or phase is KOMI_SWAP):
        return BLACK, KOMI if phase is SWAP else PLAY
    return None


def agreement_score(board: Hexagon, black: int, white: int, prison_black: int, prison_white: int,
                    last: Colour | None, termination: Termination) -> Outcome:
    """The agreement score: territory + enemy stones in the prison + 1/2 to `last`, the colour
    of the last placement or release. Equal scores (possible only with `last` unset) are a draw."""
    empty = board.mask & ~(black | white)
    b: float = R.territory(board, black, white, empty).bit_count() + prison_white
    w: float = R.territory(board, white, black, empty).bit_count() + prison_black
    b += 0.5 if last is BLACK else 0
    w += 0.5 if last is WHITE else 0
    if b == w:
        return Outcome(None, termination)
    return Outcome(BLACK if b > w else WHITE, termination, abs(b - w))
