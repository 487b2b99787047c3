"""What the commands print, made safe for a terminal: every line goes through
:func:`hexarena.results.record.printable.printable_lines`, so an engine name, a reason or a CSV
cell with ESC, BEL, CR or a bidirectional override prints as visible escapes (``\\x1b``), never
as a command to the terminal. Commands print with :func:`echo`; error messages are escaped by
:class:`SafeGroup`, the class of the ``hexarena`` group.
"""
from __future__ import annotations

import click

from hexarena.results.record.printable import printable_lines


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    """`click.echo` of the escaped text (newlines and tabs kept)."""
    click.echo(printable_lines(str(message)), err=err, nl=nl)


class SafeGroup(click.Group):
    """A click group whose commands' error messages (ClickException, UsageError) are escaped likewise."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            setattr(exc, "message", printable_lines(exc.message))     # click types it Final; it is a plain attribute
            raise
