"""SGF records of finished games (PROTOCOL.md, "SGF records").

One game tree, one node per action: ``B[token]`` / ``W[token]`` with the
canonical HGP token. Root properties: FF[4] CA[UTF-8] GM (the game's
number) AP, SZ (board side), XG (game id), XV (variant), XK (komi, when
set), PB/PW (engines holding each colour at the end), XF (engine names by
seat: seat 1, seat 2), RE, XR (how the game ended), GN (the game id in the
schedule), DT (date), TM/OT (the time control; OT twice, by seat, with
time odds), XO (how many of the first actions were the schedule's opening).
Each action node an engine chose also holds XT (seconds the engine took)
and, under a clock, BL/WL (seconds left on the mover's clock after it);
opening actions have neither. Custom properties start with X.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hexarena.engine.core import Colour

from .clock import Limits
from .match import Report

APP = "hexarena:0.1"


def escape(text: str) -> str:
    """A property value: backslash and `]` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _prop(name: str, *values: str) -> str:
    return name + "".join(f"[{escape(v)}]" for v in values)


def sgf_text(report: Report, game_id: str, limits: Limits | tuple[Limits, Limits] | None = None) -> str:
    """The SGF text of one reported game."""
    info, variant = report.info, report.variant
    root = [
        _prop("FF", "4"), _prop("CA", "UTF-8"), _prop("GM", str(info.sgf_number)), _prop("AP", APP),
        _prop("SZ", str(variant.size)), _prop("XG", info.id),
        _prop("XV", " ".join(info.describe(variant).split()[1:])),
    ]
    if report.komi is not None:
        root.append(_prop("XK", str(report.komi)))
    root += [
        _prop("GN", game_id),
        _prop("PB", report.name_of(Colour.BLACK)), _prop("PW", report.name_of(Colour.WHITE)),
        _prop("XF", *report.seats),
        _prop("RE", report.result), _prop("XR", f"{report.termination}: {report.reason}"),
    ]
    if report.started:
        root.append(_prop("DT", report.started[:10]))
    if isinstance(limits, tuple) and limits[0] == limits[1]:
        limits = limits[0]
    if isinstance(limits, tuple):        # time odds: seat 1's rules, then seat 2's
        root.append(_prop("OT", *(_time_text(l) for l in limits)))
    elif limits is not None:
        root += time_control(limits)
    if report.opening:
        root.append(_prop("XO", str(report.opening)))
    lines = ["(;" + "".join(root)]
    times = report.times if len(report.times) == len(report.actions) else [None] * len(report.actions)
    for (colour, token), spent in zip(report.actions, times):
        lines.append(f";{colour.letter}[{escape(token)}]" + _clock_props(colour, spent))
    return "\n".join(lines) + ")\n"


def _clock_props(colour: Colour, spent: tuple[float, float | None] | None) -> str:
    """XT[seconds the action took] and, under a clock, BL/WL[seconds left after it]."""
    if spent is None:
        return ""
    props = _prop("XT", f"{spent[0]:g}")
    if spent[1] is not None:
        props += _prop(f"{colour.letter}L", f"{spent[1]:g}")
    return props


def time_control(limits: Limits) -> list[str]:
    """TM (main time, when a clock runs) and OT (the time rules as text)."""
    props = [_prop("TM", f"{limits.main:g}")] if limits.main is not None else []
    return props + [_prop("OT", _time_text(limits))]


def _time_text(limits: Limits) -> str:
    words = []
    if limits.control == "fischer":
        words.append(f"main {limits.main:g} s + {limits.increment:g} s per move")
    elif limits.control == "byoyomi":
        words.append(f"main {limits.main:g} s, byo-yomi {limits.periods} x {limits.period:g} s")
    elif limits.control == "canadian":
        words.append(f"main {limits.main:g} s, then {limits.stones} moves per {limits.period:g} s")
    if limits.cap is not None:
        words.insert(0, f"move {limits.cap:g} s")
    return ", ".join(words)


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
