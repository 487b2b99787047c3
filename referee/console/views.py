"""The view of a run for its output stream: rich's panel on a terminal, plain lines elsewhere, the
quiet plain view with ``-q``; rich is loaded only for a view that may use it."""
from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from .live import ELO_EVERY, PlainView, Progress

if TYPE_CHECKING:
    from .panel import PanelView

__all__ = ["make_view"]


def make_view(stream: TextIO, quiet: bool = False, elo_every: int = ELO_EVERY,
              terminal: bool | None = None) -> PlainView | PanelView:
    """The panel on a terminal (`terminal` None: ask rich whether `stream` is one), else plain lines;
    `quiet`: the quiet plain view (rich is not loaded)."""
    progress = Progress(elo_every=elo_every, fit=not quiet)
    if quiet:
        return PlainView(progress, stream, quiet=True)
    from rich.console import Console

    from .panel import PanelView
    console = Console(file=stream, highlight=False, force_terminal=terminal)
    if terminal if terminal is not None else console.is_terminal:
        return PanelView(progress, console)
    return PlainView(progress, stream)
