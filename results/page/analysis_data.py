"""What the engines thought of each action, as compact data for the report's viewer.

Read from the analysis of a record's moves (the info lines of `genmove_analyze`
the referee kept, docs/protocol.md, "Analysis"), not from the SGF: the replay
cache (:mod:`.replay_cache`) is untouched by it. One game's data, present
only when some action has info lines:

* ``seat``: per action, the seat of its mover, ``0`` (the first player,
  `f` of the games list) or ``1`` (the second); ``c``: per action, the
  mover's colour, ``B`` or ``W``
* ``rows``: per action, null (the engine was not asked, or kept no line) or
  ``{"b": ..., "w": ..., "l": [...], "pv": [...]}``: ``w`` the mover's
  winrate as told (the first line that gives one), ``b`` the same as Black's
  chance to win (``1 - w`` when the mover holds White after its action: a
  `swap` changes sides), ``l`` each kept line's values but its pv as text
  (``winrate 0.62 visits 4500 depth 9``), ``pv`` the first line's principal
  variation that has one (its first :data:`PV_SHOWN` actions; ``more``:
  how many follow).

Values are read defensively (a journal is outside data): a value of the
wrong type is left out. Engine-supplied text (unknown keys, pv tokens) is
data for ``textContent``, never markup.
"""
from __future__ import annotations

from hexarena.engine.actions import WORDS, Swap

from ..record.game import GameRecord

#: The principal variation's actions shown per action (the rest is counted).
PV_SHOWN = 12
#: The longest text of one info line shown (characters).
LINE_CHARS = 200
SWAP = next(word for word, kind in WORDS.items() if kind is Swap)


def analysis_data(record: GameRecord) -> dict | None:
    """The viewer's analysis of one game (see the module docstring), or None when it has none."""
    moves = record.moves
    if moves is None or not any(m.analysis for m in moves) or any(m.colour is None for m in moves):
        return None
    holders = {"B": 0, "W": 1}
    seats, colours, rows = [], [], []
    for move in moves:
        colour = str(move.colour)
        seats.append(str(holders[colour]))
        colours.append(colour)
        after = ("W" if colour == "B" else "B") if move.action == SWAP else colour
        if move.action == SWAP:
            holders = {"B": holders["W"], "W": holders["B"]}
        rows.append(_row(list(move.analysis), after) if move.analysis else None)
    return {"seat": "".join(seats), "c": "".join(colours), "rows": rows}


def _row(infos: list[dict], holds: str) -> dict | None:
    lines = [d for d in infos if isinstance(d, dict)]
    row: dict[str, object] = {}
    winrate = next((w for w in (_winrate(d.get("winrate")) for d in lines) if w is not None), None)
    if winrate is not None:
        row["w"] = round(winrate, 4)
        row["b"] = round(winrate if holds == "B" else 1 - winrate, 4)
    texts = [t for t in (_text(d) for d in lines) if t]
    if texts:
        row["l"] = texts
    pv = next((p for p in (d.get("pv") for d in lines)
               if isinstance(p, list) and p and all(isinstance(t, str) for t in p)), None)
    if pv:
        row["pv"] = pv[:PV_SHOWN]
        if len(pv) > PV_SHOWN:
            row["more"] = len(pv) - PV_SHOWN
    return row or None


def _text(info: dict) -> str:
    """One info line's values but its pv: `winrate 0.62 score -1.5 visits 4500 depth 9 nodes 77`."""
    words = []
    if _winrate(info.get("winrate")) is not None:
        words.append(f"winrate {info['winrate']:g}")
    if _number(info.get("score")):
        words.append(f"score {info['score']:g}")
    for key in ("visits", "depth"):
        if _number(info.get(key)):
            words.append(f"{key} {info[key]}")
    other = info.get("other")
    if isinstance(other, dict):
        words += [f"{k} {v}" for k, v in other.items() if isinstance(k, str) and isinstance(v, str)]
    text = " ".join(words)
    return text if len(text) <= LINE_CHARS else text[:LINE_CHARS - 1] + "…"


def _winrate(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and _number(value) and 0 <= value <= 1 else None


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value
