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
  how many follow); ``h`` the colour the mover holds after its action (the
  side its winrate speaks for), ``v``, ``d``, ``s``, ``o`` the visits,
  depth, score and unknown keys (as text) of the line that gives the
  winrate (else of the first line).

The pages say it one way (``hexarenaAnalysis.describe`` in templates/analysis.js):
the mover's name and colour, its winrate as a percentage for the colour it
holds, visits, depth, the pv.

Values are read defensively (a journal is outside data): a value of the
wrong type is left out. Engine-supplied text (unknown keys, pv tokens) is
data for ``textContent``, never markup.
"""
from __future__ import annotations

from collections.abc import Sequence

from hexarena.engine.actions import WORDS, Swap

from ..record.game import GameRecord

#: The principal variation's actions shown per action (the rest is counted).
PV_SHOWN = 12
#: The longest text of one info line shown (characters).
LINE_CHARS = 200
SWAP = next(word for word, kind in WORDS.items() if kind is Swap)


def analysis_data(record: GameRecord) -> dict | None:
    """The viewer's analysis of one game (see the module docstring), or None when it has none.
    The one reader of a record's per-action analysis for the pages."""
    moves = record.moves
    if moves is None or any(m.colour is None for m in moves):
        return None
    return actions_analysis([m.action for m in moves], "".join(str(m.colour) for m in moves),
                            [None if m.analysis is None else list(m.analysis) for m in moves])


def actions_analysis(actions: Sequence[str], colours: Sequence[str],
                     analysis: Sequence[list[dict] | None]) -> dict | None:
    """The viewer's analysis of the actions played so far (canonical tokens, each mover's colour
    letter, each action's info lines in journal form or None): a finished game's record or a game
    in flight (hexarena/web/live_game.py). None when no action has analysis."""
    if not any(analysis) or not len(actions) == len(colours) == len(analysis):
        return None
    holders = {"B": 0, "W": 1}
    seats, rows = [], []
    for token, colour, infos in zip(actions, colours, analysis):
        seats.append(str(holders[colour]))
        after = ("W" if colour == "B" else "B") if token == SWAP else colour
        if token == SWAP:
            holders = {"B": holders["W"], "W": holders["B"]}
        rows.append(_row(infos, after) if infos else None)
    return {"seat": "".join(seats), "c": "".join(colours), "rows": rows}


def analysis_row(infos: list[dict], holds: str) -> dict | None:
    """One action's row (see the module docstring) from its info lines in journal form; `holds`:
    the colour letter its mover holds after it. None when the lines give nothing to show."""
    return _row(infos, holds)


def _row(infos: list[dict], holds: str) -> dict | None:
    lines = [d for d in infos if isinstance(d, dict)]
    row: dict[str, object] = {}
    winrate = next((w for w in (_winrate(d.get("winrate")) for d in lines) if w is not None), None)
    if winrate is not None:
        row["w"] = round(winrate, 4)
        row["b"] = round(winrate if holds == "B" else 1 - winrate, 4)
    first = next((d for d in lines if _winrate(d.get("winrate")) is not None), lines[0] if lines else {})
    for key, short in (("visits", "v"), ("depth", "d"), ("score", "s")):
        if _number(first.get(key)):
            row[short] = first[key]
    other = first.get("other")
    if isinstance(other, dict) and (words := _other_words(other)):
        row["o"] = words
    texts = [t for t in (_text(d) for d in lines) if t]
    if texts:
        row["l"] = texts
    pv = next((p for p in (d.get("pv") for d in lines)
               if isinstance(p, list) and p and all(isinstance(t, str) for t in p)), None)
    if pv:
        row["pv"] = pv[:PV_SHOWN]
        if len(pv) > PV_SHOWN:
            row["more"] = len(pv) - PV_SHOWN
    if row:
        row["h"] = holds
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
        words.append(_other_words(other))
    text = " ".join(w for w in words if w)
    return text if len(text) <= LINE_CHARS else text[:LINE_CHARS - 1] + "…"


def _other_words(other: dict) -> str:
    """An info line's unknown keys and values as text (`nodes 77 note x`), cut to LINE_CHARS."""
    text = " ".join(f"{k} {v}" for k, v in other.items() if isinstance(k, str) and isinstance(v, str))
    return text if len(text) <= LINE_CHARS else text[:LINE_CHARS - 1] + "…"


def _winrate(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and _number(value) and 0 <= value <= 1 else None


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value
