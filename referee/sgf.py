"""SGF records of finished games (PROTOCOL.md, "SGF records").

One game tree, one node per action: ``B[token]`` / ``W[token]`` with the
canonical HGP token. Root properties: FF[4] CA[UTF-8] GM (the game's
number) AP, SZ (board side), XG (game id), XV (variant), XK (komi, when
set), PB/PW (engines holding each colour at the end), XF (engine names by
seat: seat 1, seat 2), RE, XR (how the game ended), GN (the game id in the
schedule), DT (date). Custom properties start with X. Each action node also
holds XT (seconds the engine took) and, under a clock, BL/WL (seconds left
on the mover's clock after it).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hexarena.engine.core import Colour

from .match import Report

APP = "hexarena:0.1"


def escape(text: str) -> str:
    """A property value: backslash and `]` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _prop(name: str, *values: str) -> str:
    return name + "".join(f"[{escape(v)}]" for v in values)


def render(report: Report, game_id: str) -> str:
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
