"""Game records for the results tests."""
from __future__ import annotations

from hexarena.results.record.game import GameRecord


def record(gid: str, first: str, second: str, winner: str | None, termination: str = "no-moves",
           result: str | None = None, faulty: str | None = None, game: str = "anda", size: int = 5) -> GameRecord:
    """`first` holds black; `result` by default the one `winner` and `termination` give."""
    forfeit = termination if termination in ("time", "illegal", "malformed", "crash") else None
    if result is None:
        result = "Void" if termination == "void" else "0" if winner is None else "B+" if winner == first else "W+"
    return GameRecord(id=gid, game=game, size=size, variant="standard", first=first, second=second,
                      black=first, white=second, winner=winner, result=result, termination=termination,
                      plies=12, faulty=faulty, forfeit=forfeit)
