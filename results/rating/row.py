"""A game as the rating frame's row, and the words for counts of adjudicated games: what a
running tournament keeps and prints per game, without pandas (the frame is built from the rows
by :func:`.load.frame_from_rows` when ratings are fitted)."""
from __future__ import annotations

import sys
from collections.abc import Mapping

from hexarena.results.record.game import GameRecord
from hexarena.results.record.identity import label


def game_row(r: GameRecord, identity: bool = False) -> tuple:
    """A non-void record as the frame's row (game, size, first, second, winner, termination,
    forfeit, faulty), its strings interned: a run that keeps a row per game keeps ~120 bytes."""
    kind = r.forfeit.kind if r.forfeit is not None else ""
    faulty = (r.faulty or r.loser or "") if kind else ""
    first, second, winner = r.first, r.second, r.winner
    if identity:
        first, second = label(r, first), label(r, second)
        winner = label(r, winner) if winner else winner
        faulty = label(r, faulty) if faulty else faulty
    words = [sys.intern(str(w)) if w else w for w in (r.game, first, second, winner, r.termination, kind, faulty)]
    return (words[0], r.size, *words[1:])


def adjudicated_text(kinds: Mapping[str, int]) -> str:
    """`resign 3, draw 1`: counts of adjudicated games by kind, in the kinds' order."""
    return ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items()))
