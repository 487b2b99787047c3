"""Checks of an engine's settings at the edge of the operating system: what config.py reads
is also a file name (the engine's name names its log files), an argv, a folder and an
environment, each with limits the kernel enforces. A config that passes them starts its
engines without OSError or ValueError from the kernel's side: every defect is a ConfigError
naming the file, the key and the line. Standard library only.
"""
from __future__ import annotations

from collections.abc import Sequence

from .config_check import KeyReader

#: The longest engine name: it is part of log file names (``logs/GROUP/NNNN.SEAT-NAME.hgp``,
#: ``preflight.NAME.log``), which a file system bounds at 255 bytes.
MAX_NAME = 64


def check_engine(ctx: KeyReader, key: str, name: str, cmd: Sequence[str], cwd: str | None,
                 env: Sequence[tuple[str, str]]) -> None:
    """ConfigError (file, key, line) for an engine name over MAX_NAME characters, a NUL character
    in `cmd`, `cwd` or `env`, or an `env` name that is empty or holds `=`."""
    if len(name) > MAX_NAME:
        raise ctx.error(key, f"an engine name is at most {MAX_NAME} characters (it names log files), "
                             f"got {len(name)}")
    for i, word in enumerate(cmd):
        if "\0" in word:
            raise ctx.error(f"{key}.cmd", f"word {i + 1} holds a NUL character (\\u0000)")
    if cwd is not None and "\0" in cwd:
        raise ctx.error(f"{key}.cwd", "holds a NUL character (\\u0000)")
    for variable, value in env:
        if not variable or "=" in variable or "\0" in variable:
            raise ctx.error(f"{key}.env", f"{variable!r}: an environment variable's name is not empty and holds "
                                          "no = and no NUL character")
        if "\0" in value:
            raise ctx.error(f"{key}.env.{variable}", "holds a NUL character (\\u0000)")
