"""The referee's reading of a `genmove_analyze` answer's info lines (docs/protocol.md, "Analysis").

Each line is parsed by :func:`hexarena.protocol.analysis.parse_info`; a `pv`
must start with the action played and be a line of canonical actions the
rules allow, from the position before it, up to the end of the game
(:func:`~hexarena.protocol.analysis.check_pv`, which `hexarena check` grades with too). A line
that fails is dropped with a note saying why (for the engine's log); at most
`MAX_LINES` lines are read. A kept line is its journal form: the verbatim
`line` and the keys read from it (`Info.as_dict`).
"""
from __future__ import annotations

from hexarena.engine.game import GameState
from hexarena.protocol.analysis import MAX_LINES, InfoError, check_pv, parse_info


def read_info(lines: list[str], state: GameState, played: str) -> tuple[list[dict], list[str]]:
    """(the info lines kept, in journal form; notes on the lines dropped) for the action `played`
    (its canonical token) chosen in `state`."""
    kept: list[dict] = []
    notes: list[str] = []
    walked: dict = {}                       # the lines' common beginnings, walked once
    for number, line in enumerate(lines[:MAX_LINES], 1):
        try:
            info = parse_info(line)
            if info.pv:
                check_pv(info.pv, state, played, walked)
        except InfoError as exc:
            notes.append(f"info line {number} dropped: {exc}: {line[:80]!r}")
            continue
        kept.append({"line": line, **info.as_dict()})
    if len(lines) > MAX_LINES:
        notes.append(f"{len(lines) - MAX_LINES} info line(s) after the first {MAX_LINES} dropped")
    return kept, notes
