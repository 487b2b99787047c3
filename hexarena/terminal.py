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
    """A click group whose commands' error messages (ClickException, UsageError) are escaped likewise;
    and the last guard of "no traceback" for what a command did not turn into its own message: a
    file it could not make or write (an OSError naming the file: `FILE: reason`, exit 1), Ctrl-C
    before the command handles it (`interrupted`, exit 130, as a run interrupted later), each also
    when trio's nurseries wrap it alone in exception groups."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.ClickException, OSError, KeyboardInterrupt, BaseExceptionGroup) as exc:
            from hexarena.referee.engines.groups import sole
            inner = sole(exc)
            if isinstance(inner, KeyboardInterrupt):
                echo("\ninterrupted", err=True)
                ctx.exit(130)
            if isinstance(inner, OSError) and inner.filename is not None:
                inner = click.ClickException(f"{inner.filename}: {inner.strerror or inner}")
            if not isinstance(inner, click.ClickException):
                raise
            setattr(inner, "message", printable_lines(inner.message))  # click types it Final; it is a plain attribute
            raise inner from None
